import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../infra/db/client.ts';
import { LONG_HORIZON } from '../skills/depth.ts';

/**
 * How hard a round's accepted tasks are (issue 30): how many distinct features they need (the
 * depth histogram), how many goal-level tasks leave the agent to find its target (discovery), how
 * many are long-horizon (≥ 6 features over ≥ 3 applications with ≥ 10 checkpoints), and how many
 * checkpoints (rubric items) a task is graded by. Tasks accepted before depth was recorded count
 * as `unknown`, never as depth 1.
 */
export interface DepthRow {
  /** null: accepted before depth was recorded. */
  depth: number | null;
  accepted: number;
  share: number;
  /** Spend of every task of the round's skills at this depth, accepted or not, per accepted task. */
  usdPerAccepted: number | null;
  tokensPerAccepted: number | null;
}

export interface DifficultyReport {
  roundId: string;
  accepted: number;
  depths: DepthRow[];
  meanDepth: number | null;
  discovery: { goalTasks: number; discoveryTasks: number; share: number | null };
  longHorizon: {
    rule: typeof LONG_HORIZON;
    tasks: number;
    share: number | null;
  };
  checkpoints: {
    /** Accepted tasks whose rubric items were recorded. */
    tasks: number;
    perTask: number | null;
    min: number | null;
    max: number | null;
    /** Checkpoints per task at each depth. */
    byDepth: { depth: number | null; perTask: number | null }[];
  };
}

const num = z.coerce.number();
const nullableNum = z.union([z.null(), num]);
const depthRow = z.object({
  depth: nullableNum,
  accepted: num,
  usd: num,
  tokens: num,
  items: nullableNum,
  itemTasks: num,
});
const totalsRow = z.object({
  accepted: num,
  goal: num,
  discovery: num,
  long: num,
  itemTasks: num,
  items: nullableNum,
  minItems: nullableNum,
  maxItems: nullableNum,
});

const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

export class UnknownRoundError extends Error {
  override name = 'UnknownRoundError';
}

export async function difficultyReport(db: Db, roundId: string): Promise<DifficultyReport> {
  const exists = await db.execute(sql`SELECT 1 FROM rounds WHERE id = ${roundId}`);
  if (exists.rows.length === 0) throw new UnknownRoundError(`round ${roundId} does not exist`);
  // A skill's depth is the one its tasks recorded; its tasks that never got that far (rejected
  // early, failed) still belong to it, so their spend counts against the depth's accepted tasks.
  const byDepth = await db.execute(sql`
    WITH t AS (SELECT id, skill_id, status, depth, rubric_items FROM tasks WHERE round_id = ${roundId}),
      sd AS (SELECT skill_id, max(depth) AS depth FROM t GROUP BY skill_id),
      spend AS (SELECT c.task_id, sum(c.usd)::float8 AS usd, sum(c.prompt_tokens + c.completion_tokens)::bigint AS tokens
        FROM llm_calls c WHERE c.round_id = ${roundId} AND c.task_id IS NOT NULL GROUP BY c.task_id)
    SELECT sd.depth,
      count(*) FILTER (WHERE t.status = 'accepted')::int AS accepted,
      coalesce(sum(spend.usd), 0)::float8 AS usd,
      coalesce(sum(spend.tokens), 0)::bigint AS tokens,
      sum(t.rubric_items) FILTER (WHERE t.status = 'accepted')::int AS items,
      count(t.rubric_items) FILTER (WHERE t.status = 'accepted')::int AS "itemTasks"
    FROM t JOIN sd USING (skill_id) LEFT JOIN spend ON spend.task_id = t.id
    GROUP BY sd.depth ORDER BY sd.depth NULLS FIRST`);
  const totals = await db.execute(sql`
    SELECT count(*)::int AS accepted,
      count(*) FILTER (WHERE instruction_level = 'goal')::int AS goal,
      count(*) FILTER (WHERE instruction_level = 'goal' AND discovery)::int AS discovery,
      count(*) FILTER (WHERE depth >= ${LONG_HORIZON.features} AND cardinality(apps) >= ${LONG_HORIZON.apps}
        AND rubric_items >= ${LONG_HORIZON.checkpoints})::int AS long,
      count(rubric_items)::int AS "itemTasks", sum(rubric_items)::int AS items,
      min(rubric_items) AS "minItems", max(rubric_items) AS "maxItems"
    FROM tasks WHERE round_id = ${roundId} AND status = 'accepted'`);
  const rows = z.array(depthRow).parse(byDepth.rows);
  const tot = totalsRow.parse(totals.rows[0]);
  const known = rows.filter((r) => r.depth !== null);
  const knownAccepted = known.reduce((a, r) => a + r.accepted, 0);
  return {
    roundId,
    accepted: tot.accepted,
    depths: rows
      .filter((r) => r.accepted > 0 || r.usd > 0)
      .map((r) => ({
        depth: r.depth,
        accepted: r.accepted,
        share: ratio(r.accepted, tot.accepted) ?? 0,
        usdPerAccepted: ratio(r.usd, r.accepted),
        tokensPerAccepted: ratio(r.tokens, r.accepted),
      })),
    meanDepth: ratio(
      known.reduce((a, r) => a + r.depth! * r.accepted, 0),
      knownAccepted,
    ),
    discovery: {
      goalTasks: tot.goal,
      discoveryTasks: tot.discovery,
      share: ratio(tot.discovery, tot.goal),
    },
    longHorizon: { rule: LONG_HORIZON, tasks: tot.long, share: ratio(tot.long, tot.accepted) },
    checkpoints: {
      tasks: tot.itemTasks,
      perTask: ratio(tot.items ?? 0, tot.itemTasks),
      min: tot.minItems,
      max: tot.maxItems,
      byDepth: rows
        .filter((r) => r.itemTasks > 0)
        .map((r) => ({ depth: r.depth, perTask: ratio(r.items ?? 0, r.itemTasks) })),
    },
  };
}
