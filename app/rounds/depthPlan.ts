import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import {
  type DepthMix,
  DepthPlanError,
  type DepthPlanRow,
  filterMinDepth,
  planDepthMix,
} from '../../skills/depth.ts';

export interface PlanEntry {
  skillId: string;
  specVersion: number;
  tasks: number;
}

/** Each entry's depth, read from the spec version the round will run (file and expansion specs alike). */
export async function skillDepths(db: Db, entries: PlanEntry[]): Promise<Map<string, number>> {
  const result = await db.execute<{ skill_id: string; depth: number }>(sql`
    SELECT v.skill_id, coalesce((v.spec->>'features')::int, 1) AS depth
    FROM skill_spec_versions v
    JOIN unnest(${sql.param(entries.map((e) => e.skillId))}::text[], ${sql.param(entries.map((e) => e.specVersion))}::int[])
      AS u(skill_id, version) ON v.skill_id = u.skill_id AND v.version = u.version`);
  return new Map(result.rows.map((r) => [r.skill_id, Number(r.depth)]));
}

/**
 * A round's plan after its depth choice: skills below `minDepth` dropped, then the tasks
 * re-apportioned by the depth mix (skills/depth.ts). Without either the plan is returned as given.
 */
export async function applyDepthChoice(
  db: Db,
  entries: PlanEntry[],
  choice: { depthMix?: DepthMix | undefined; minDepth?: number | undefined },
): Promise<{ entries: PlanEntry[]; depthPlan?: DepthPlanRow[] }> {
  if (!choice.depthMix && choice.minDepth === undefined) return { entries };
  const depths = await skillDepths(db, entries);
  try {
    let skills = entries.map((e) => ({ id: e.skillId, depth: depths.get(e.skillId) ?? 1, tasks: e.tasks }));
    if (choice.minDepth !== undefined) skills = filterMinDepth(skills, choice.minDepth);
    const kept = new Set(skills.map((s) => s.id));
    let planned = entries.filter((e) => kept.has(e.skillId));
    if (!choice.depthMix) return { entries: planned };
    const { tasks, rows } = planDepthMix(skills, choice.depthMix);
    planned = planned.map((e) => ({ ...e, tasks: tasks.get(e.skillId) ?? 0 })).filter((e) => e.tasks > 0);
    return { entries: planned, depthPlan: rows };
  } catch (err) {
    if (err instanceof DepthPlanError) throw new RoundRequestError(err.message, 'invalid');
    throw err;
  }
}
