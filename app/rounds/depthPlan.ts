import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import {
  type DepthMix,
  DepthPlanError,
  type DepthPlanRow,
  filterMinDepth,
  planDepthMix,
  weightLongHorizon,
} from '../../skills/depth.ts';

export interface PlanEntry {
  skillId: string;
  specVersion: number;
  tasks: number;
}

/** Each entry's depth and application count, read from the spec version the round will run (file and expansion specs alike). */
export async function skillDepths(
  db: Db,
  entries: PlanEntry[],
): Promise<Map<string, { depth: number; apps: number }>> {
  const result = await db.execute<{ skill_id: string; depth: number; apps: number }>(sql`
    SELECT v.skill_id, coalesce((v.spec->>'features')::int, 1) AS depth,
      coalesce(jsonb_array_length((v.spec->'apps')::jsonb), 1) AS apps
    FROM skill_spec_versions v
    JOIN unnest(${sql.param(entries.map((e) => e.skillId))}::text[], ${sql.param(entries.map((e) => e.specVersion))}::int[])
      AS u(skill_id, version) ON v.skill_id = u.skill_id AND v.version = u.version`);
  return new Map(result.rows.map((r) => [r.skill_id, { depth: Number(r.depth), apps: Number(r.apps) }]));
}

/**
 * A round's plan after its depth choice: skills below `minDepth` dropped, then the tasks
 * re-apportioned by the depth mix (skills/depth.ts). Without either, a round that gave no
 * allocation of its own raises its long-horizon skills to their default share (weightLongHorizon);
 * an allocation (a feedback plan, the library test's) is returned as given.
 */
export async function applyDepthChoice(
  db: Db,
  entries: PlanEntry[],
  choice: {
    depthMix?: DepthMix | undefined;
    minDepth?: number | undefined;
    allocation?: Record<string, number> | undefined;
  },
): Promise<{ entries: PlanEntry[]; depthPlan?: DepthPlanRow[] }> {
  const byDefault = !choice.depthMix && choice.minDepth === undefined;
  if (byDefault && choice.allocation) return { entries };
  const shapes = await skillDepths(db, entries);
  const skills0 = entries.map((e) => ({
    id: e.skillId,
    depth: shapes.get(e.skillId)?.depth ?? 1,
    apps: shapes.get(e.skillId)?.apps ?? 1,
    tasks: e.tasks,
  }));
  if (byDefault) {
    const tasks = weightLongHorizon(skills0);
    return { entries: entries.map((e) => ({ ...e, tasks: tasks.get(e.skillId) ?? e.tasks })) };
  }
  try {
    let skills = skills0;
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
