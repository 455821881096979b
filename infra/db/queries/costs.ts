import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../client.ts';

/**
 * The cost and quality aggregates behind the dashboard, the HTTP API and `forge costs`: one source of
 * truth. They read the trigger-maintained rollups (migrations 0005_cost_rollup_statement_triggers and
 * 0007_skill_round_summary), never the raw ledger, so they stay fast at millions of llm_calls rows.
 *
 * Definitions:
 * - tokens = prompt + completion tokens (cached tokens are part of prompt, reasoning part of completion).
 * - USD per accepted task = all USD spent in the scope (rejected and failed siblings included) / accepted.
 * - acceptance rate = accepted / (accepted + rejected + failed); running and cancelled tasks are not decided.
 * - student pass rate = mean success (0..1) over every student run of the scope's tasks.
 */

const num = z.coerce.number();
const nullableNum = z.union([z.null(), z.coerce.number()]);
const timestamp = z.union([z.date(), z.string()]).transform((v) => new Date(v).toISOString());

async function rows<T extends z.ZodType>(db: Db, schema: T, query: SQL): Promise<z.infer<T>[]> {
  const result = await db.execute(query);
  return z.array(schema).parse(result.rows);
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

const roundTotalsRow = z.object({
  roundId: z.string(),
  status: z.string(),
  kind: z.string(),
  createdAt: timestamp,
  finishedAt: z.union([z.null(), timestamp]),
  budgetUsd: nullableNum,
  usd: num,
  tokens: num,
  calls: num,
  tasks: num,
  accepted: num,
  rejected: num,
  failed: num,
  running: num,
  cancelled: num,
  studentRuns: num,
  studentSuccess: num,
  levels: z.record(z.string(), num).nullish(),
});

export interface RoundTotals {
  roundId: string;
  status: string;
  kind: string;
  createdAt: string;
  finishedAt: string | null;
  budgetUsd: number | null;
  usd: number;
  tokens: number;
  calls: number;
  tasks: number;
  accepted: number;
  rejected: number;
  failed: number;
  running: number;
  cancelled: number;
  usdPerAccepted: number | null;
  tokensPerAccepted: number | null;
  acceptanceRate: number | null;
  studentRuns: number;
  studentPassRate: number | null;
  /** Tasks per instruction level (explicit / natural / goal); per skill only. */
  levels?: Record<string, number> | null;
}

function roundTotalsQuery(where: SQL, limit: number): SQL {
  return sql`
    WITH r AS (SELECT * FROM rounds WHERE ${where} ORDER BY created_at DESC, id LIMIT ${limit}),
    k AS (
      SELECT round_id, sum(usd) AS usd, sum(tokens) AS tokens, sum(calls) AS calls, sum(tasks) AS tasks,
        sum(accepted) AS accepted, sum(rejected) AS rejected, sum(failed) AS failed, sum(running) AS running,
        sum(cancelled) AS cancelled, sum(runs) AS runs, sum(success_sum) AS success
      FROM skill_round_summary WHERE round_id IN (SELECT id FROM r) GROUP BY round_id)
    SELECT r.id AS "roundId", r.status, r.kind, r.created_at AS "createdAt", r.finished_at AS "finishedAt",
      r.budget_usd AS "budgetUsd", coalesce(k.usd, 0) AS usd, coalesce(k.tokens, 0) AS tokens,
      coalesce(k.calls, 0) AS calls, coalesce(k.tasks, 0) AS tasks, coalesce(k.accepted, 0) AS accepted,
      coalesce(k.rejected, 0) AS rejected, coalesce(k.failed, 0) AS failed, coalesce(k.running, 0) AS running,
      coalesce(k.cancelled, 0) AS cancelled, coalesce(k.runs, 0) AS "studentRuns",
      coalesce(k.success, 0) AS "studentSuccess"
    FROM r LEFT JOIN k ON k.round_id = r.id
    ORDER BY r.created_at DESC, r.id`;
}

function toRoundTotals(row: z.infer<typeof roundTotalsRow>): RoundTotals {
  const { studentSuccess, ...rest } = row;
  return {
    ...rest,
    usdPerAccepted: ratio(row.usd, row.accepted),
    tokensPerAccepted: ratio(row.tokens, row.accepted),
    acceptanceRate: ratio(row.accepted, row.accepted + row.rejected + row.failed),
    studentPassRate: ratio(studentSuccess, row.studentRuns),
  };
}

/**
 * The most recent rounds with their totals: the round list and the round-over-round comparison.
 * With `upTo`, that round and the ones created before it (what it is compared with).
 */
export async function roundComparison(db: Db, limit = 50, upTo?: string): Promise<RoundTotals[]> {
  const where = upTo ? sql`created_at <= (SELECT created_at FROM rounds WHERE id = ${upTo})` : sql`true`;
  return (await rows(db, roundTotalsRow, roundTotalsQuery(where, limit))).map(toRoundTotals);
}

export async function roundTotals(db: Db, roundId: string): Promise<RoundTotals | undefined> {
  const [row] = await rows(db, roundTotalsRow, roundTotalsQuery(sql`id = ${roundId}`, 1));
  return row ? toRoundTotals(row) : undefined;
}

export interface RejectReason {
  reason: string;
  tasks: number;
}

export async function rejectReasons(db: Db, roundId: string): Promise<RejectReason[]> {
  return rows(
    db,
    z.object({ reason: z.string(), tasks: num }),
    sql`SELECT CASE WHEN reject_reason = '' THEN 'unspecified' ELSE reject_reason END AS reason, sum(tasks) AS tasks
        FROM task_status_rollup WHERE round_id = ${roundId} AND status = 'rejected'
        GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
}

const usageRow = {
  calls: num,
  cacheHits: num,
  usd: num,
  promptTokens: num,
  cachedTokens: num,
  completionTokens: num,
  reasoningTokens: num,
  tokens: num,
};

const usageColumns = sql`sum(calls) AS calls, sum(cache_hits) AS "cacheHits", sum(usd) AS usd,
  sum(prompt_tokens) AS "promptTokens", sum(cached_tokens) AS "cachedTokens",
  sum(completion_tokens) AS "completionTokens", sum(reasoning_tokens) AS "reasoningTokens",
  sum(prompt_tokens + completion_tokens) AS tokens`;

export interface Usage {
  calls: number;
  cacheHits: number;
  usd: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  tokens: number;
  usdPerAccepted: number | null;
  tokensPerAccepted: number | null;
}

async function acceptedInRound(db: Db, roundId: string): Promise<number> {
  const [row] = await rows(
    db,
    z.object({ accepted: num }),
    sql`SELECT coalesce(sum(accepted), 0) AS accepted FROM skill_round_summary WHERE round_id = ${roundId}`,
  );
  return row?.accepted ?? 0;
}

function perAccepted<T extends { usd: number; tokens: number }>(row: T, accepted: number): T & Usage {
  return {
    ...(row as T & Usage),
    usdPerAccepted: ratio(row.usd, accepted),
    tokensPerAccepted: ratio(row.tokens, accepted),
  };
}

export type NodeCost = { node: string } & Usage;

/** Spend per skill-workflow node; per-accepted figures divide by all of the round's accepted tasks. */
export async function costByNode(db: Db, roundId: string): Promise<NodeCost[]> {
  const [list, accepted] = await Promise.all([
    rows(
      db,
      z.object({ node: z.string(), ...usageRow }),
      sql`SELECT node_id AS node, ${usageColumns} FROM llm_cost_rollup WHERE round_id = ${roundId}
          GROUP BY node_id ORDER BY usd DESC, node_id`,
    ),
    acceptedInRound(db, roundId),
  ]);
  return list.map((r) => perAccepted(r, accepted));
}

export type ModelCost = { provider: string; model: string } & Usage;

export async function costByModel(db: Db, roundId: string): Promise<ModelCost[]> {
  const [list, accepted] = await Promise.all([
    rows(
      db,
      z.object({ provider: z.string(), model: z.string(), ...usageRow }),
      sql`SELECT provider, model, ${usageColumns} FROM llm_cost_rollup WHERE round_id = ${roundId}
          GROUP BY provider, model ORDER BY usd DESC, provider, model`,
    ),
    acceptedInRound(db, roundId),
  ]);
  return list.map((r) => perAccepted(r, accepted));
}

const groupRow = z.object({
  key: z.string(),
  title: z.union([z.null(), z.string()]),
  apps: z.array(z.string()),
  tasks: num,
  accepted: num,
  rejected: num,
  failed: num,
  usd: num,
  tokens: num,
  calls: num,
  studentRuns: num,
  studentSuccess: num,
  // Instruction level -> tasks; only the per-skill query selects it (NULL when no task has a level).
  levels: z.union([z.null(), z.record(z.string(), num)]).optional(),
  // The depth the skill's tasks recorded (distinct features per task); only the per-skill query selects it.
  depth: z.union([z.null(), num]).optional(),
});

/** Tasks per instruction level (explicit / natural / goal). */
export interface LevelCounts {
  explicit: number;
  natural: number;
  goal: number;
}

export interface GroupCost {
  key: string;
  title: string | null;
  apps: string[];
  tasks: number;
  accepted: number;
  rejected: number;
  failed: number;
  usd: number;
  tokens: number;
  calls: number;
  acceptanceRate: number | null;
  usdPerAccepted: number | null;
  tokensPerAccepted: number | null;
  studentRuns: number;
  studentPassRate: number | null;
  /** Tasks per instruction level; per skill only (the per-app rows do not count them). */
  levels?: LevelCounts;
  /** Distinct features a task of the skill needs, as its tasks recorded (null before any did); per skill only. */
  depth?: number | null;
}

function toGroupCost(row: z.infer<typeof groupRow>): GroupCost {
  const { studentSuccess, levels, ...rest } = row;
  return {
    ...rest,
    ...(levels === undefined
      ? {}
      : {
          levels: { explicit: levels?.explicit ?? 0, natural: levels?.natural ?? 0, goal: levels?.goal ?? 0 },
        }),
    acceptanceRate: ratio(row.accepted, row.accepted + row.rejected + row.failed),
    usdPerAccepted: ratio(row.usd, row.accepted),
    tokensPerAccepted: ratio(row.tokens, row.accepted),
    studentPassRate: ratio(studentSuccess, row.studentRuns),
  };
}

/** Per skill of a round: one summary row each (migration skill_round_summary). */
function perSkillQuery(roundId: string): SQL {
  return sql`
    SELECT skill_id, coalesce(apps, '{}') AS apps, tasks, accepted, rejected, failed, usd, tokens, calls, runs,
      success_sum
    FROM skill_round_summary WHERE round_id = ${roundId}`;
}

const skillColumns = (roundId: string) => sql`p.skill_id AS key, k.title, p.apps, p.tasks, p.accepted,
  p.rejected, p.failed, p.usd, p.tokens, p.calls, p.runs AS "studentRuns", p.success_sum AS "studentSuccess",
  (SELECT jsonb_object_agg(x.level, x.n) FROM (
     SELECT t.instruction_level AS level, count(*)::int AS n FROM tasks t
     WHERE t.round_id = ${roundId} AND t.skill_id = p.skill_id AND t.instruction_level IS NOT NULL
     GROUP BY t.instruction_level) x) AS levels,
  (SELECT max(t.depth) FROM tasks t WHERE t.round_id = ${roundId} AND t.skill_id = p.skill_id) AS depth`;

/** Per skill: tasks, acceptance, USD per accepted task and student pass rate; every skill of the round. */
export async function costBySkill(db: Db, roundId: string): Promise<GroupCost[]> {
  const list = await rows(
    db,
    groupRow,
    sql`SELECT ${skillColumns(roundId)} FROM (${perSkillQuery(roundId)}) p LEFT JOIN skills k ON k.id = p.skill_id
        ORDER BY p.skill_id`,
  );
  return list.map(toGroupCost);
}

/** The columns the skill table sorts by, as SQL over the summary (ratios NULL when undefined). */
const skillSorts = {
  key: sql`p.skill_id`,
  apps: sql`array_to_string(p.apps, ',')`,
  tasks: sql`p.tasks`,
  accepted: sql`p.accepted`,
  acceptanceRate: sql`p.accepted::float8 / nullif(p.accepted + p.rejected + p.failed, 0)`,
  usd: sql`p.usd`,
  usdPerAccepted: sql`p.usd / nullif(p.accepted, 0)`,
  studentPassRate: sql`p.success_sum / nullif(p.runs, 0)`,
} as const;
export type SkillSort = keyof typeof skillSorts;
export const skillSortKeys = Object.keys(skillSorts) as [SkillSort, ...SkillSort[]];

export interface SkillPageOptions {
  sort: SkillSort;
  order: 'asc' | 'desc';
  /** Case-insensitive substring of the skill id, one of its apps or its title. */
  filter?: string;
  limit: number;
  offset: number;
}

/**
 * One page of the skill table, sorted and filtered in SQL: a round can run 10,000 skills and the
 * page shows a few hundred. `total` counts the skills that pass the filter.
 */
export async function skillCostPage(
  db: Db,
  roundId: string,
  opts: SkillPageOptions,
): Promise<{ skills: GroupCost[]; total: number }> {
  const like = opts.filter ? `%${opts.filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = like
    ? sql`WHERE p.skill_id ILIKE ${like} OR array_to_string(p.apps, ',') ILIKE ${like} OR k.title ILIKE ${like}`
    : sql``;
  const direction = opts.order === 'desc' ? sql`DESC` : sql`ASC`;
  const list = await rows(
    db,
    groupRow.extend({ total: num }),
    sql`SELECT ${skillColumns(roundId)}, count(*) OVER () AS total
        FROM (${perSkillQuery(roundId)}) p LEFT JOIN skills k ON k.id = p.skill_id ${where}
        ORDER BY ${skillSorts[opts.sort]} ${direction} NULLS LAST, p.skill_id
        LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  );
  let total = list[0]?.total ?? 0;
  if (list.length === 0 && opts.offset > 0) {
    // Past the last page: the window count has no row to ride on.
    const [row] = await rows(
      db,
      z.object({ total: num }),
      sql`SELECT count(*) AS total FROM (${perSkillQuery(roundId)}) p LEFT JOIN skills k ON k.id = p.skill_id ${where}`,
    );
    total = row?.total ?? 0;
  }
  return { skills: list.map(({ total: _, ...row }) => toGroupCost(row)), total };
}

/** Per application; a skill spanning several apps counts in full under each of them. */
export async function costByApp(db: Db, roundId: string): Promise<GroupCost[]> {
  const list = await rows(
    db,
    groupRow,
    sql`SELECT a.app AS key, NULL AS title, ARRAY[a.app] AS apps, sum(p.tasks) AS tasks,
          sum(p.accepted) AS accepted, sum(p.rejected) AS rejected, sum(p.failed) AS failed, sum(p.usd) AS usd,
          sum(p.tokens) AS tokens, sum(p.calls) AS calls, sum(p.runs) AS "studentRuns",
          sum(p.success_sum) AS "studentSuccess"
        FROM (${perSkillQuery(roundId)}) p
        CROSS JOIN LATERAL unnest(CASE WHEN cardinality(p.apps) = 0 THEN ARRAY['unknown'] ELSE p.apps END) AS a(app)
        GROUP BY a.app ORDER BY a.app`,
  );
  return list.map(toGroupCost);
}

export interface TimeBucket {
  start: string;
  usd: number;
  tokens: number;
  calls: number;
  accepted: number;
  cumulativeUsd: number;
  cumulativeAccepted: number;
}

export interface CostOverTime {
  bucketSeconds: number;
  buckets: TimeBucket[];
}

const bucketChoices = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 86400, 7 * 86400];

/** The smallest bucket that keeps a span of `spanSeconds` within `maxBuckets` points. */
export function chooseBucketSeconds(spanSeconds: number, maxBuckets = 120): number {
  return bucketChoices.find((b) => spanSeconds / b <= maxBuckets) ?? bucketChoices[bucketChoices.length - 1];
}

/** Spend and accepted tasks per time bucket (minute resolution at best), with running totals. */
export async function costOverTime(db: Db, roundId: string, bucketSeconds?: number): Promise<CostOverTime> {
  let bucket = bucketSeconds;
  if (bucket === undefined) {
    const [span] = await rows(
      db,
      z.object({ seconds: nullableNum }),
      sql`SELECT extract(epoch FROM max(minute) - min(minute)) AS seconds FROM (
            SELECT minute FROM llm_cost_minute WHERE round_id = ${roundId}
            UNION ALL SELECT minute FROM task_accepted_minute WHERE round_id = ${roundId}) m`,
    );
    bucket = chooseBucketSeconds(span?.seconds ?? 0);
  }
  const list = await rows(
    db,
    z.object({ start: timestamp, usd: num, tokens: num, calls: num, accepted: num }),
    sql`SELECT to_timestamp(floor(extract(epoch FROM minute) / ${bucket}) * ${bucket}) AS start,
          sum(usd) AS usd, sum(tokens) AS tokens, sum(calls) AS calls, sum(accepted) AS accepted
        FROM (
          SELECT minute, usd, tokens, calls, 0 AS accepted FROM llm_cost_minute WHERE round_id = ${roundId}
          UNION ALL
          SELECT minute, 0, 0, 0, accepted FROM task_accepted_minute WHERE round_id = ${roundId}) m
        GROUP BY 1 ORDER BY 1`,
  );
  let cumulativeUsd = 0;
  let cumulativeAccepted = 0;
  const buckets = list.map((b) => {
    cumulativeUsd += b.usd;
    cumulativeAccepted += b.accepted;
    return { ...b, cumulativeUsd, cumulativeAccepted };
  });
  return { bucketSeconds: bucket, buckets };
}

const callRow = z.object({
  id: num,
  node: z.string(),
  attempt: num,
  provider: z.string(),
  model: z.string(),
  requestId: z.union([z.null(), z.string()]),
  promptTokens: num,
  cachedTokens: num,
  completionTokens: num,
  reasoningTokens: num,
  usd: num,
  latencyMs: num,
  cacheHit: z.boolean(),
  outcome: z.string(),
  error: z.union([z.null(), z.string()]),
  createdAt: timestamp,
});

export type TaskCall = z.infer<typeof callRow>;

export interface TaskCost {
  usd: number;
  tokens: number;
  calls: TaskCall[];
  byNode: { node: string; calls: number; attempts: number; usd: number; tokens: number }[];
}

/** Every ledger row of one task (a task has tens of calls), and their sums per node. */
export async function taskCost(db: Db, taskId: string): Promise<TaskCost> {
  const calls = await rows(
    db,
    callRow,
    sql`SELECT id, node_id AS node, attempt, provider, model, request_id AS "requestId",
          prompt_tokens AS "promptTokens", cached_tokens AS "cachedTokens", completion_tokens AS "completionTokens",
          reasoning_tokens AS "reasoningTokens", usd, latency_ms AS "latencyMs", cache_hit AS "cacheHit", outcome,
          error, created_at AS "createdAt"
        FROM llm_calls WHERE task_id = ${taskId} ORDER BY created_at, id`,
  );
  const nodes = new Map<string, TaskCost['byNode'][number]>();
  for (const c of calls) {
    const n = nodes.get(c.node) ?? { node: c.node, calls: 0, attempts: 0, usd: 0, tokens: 0 };
    n.calls += 1;
    n.attempts = Math.max(n.attempts, c.attempt);
    n.usd += c.usd;
    n.tokens += c.promptTokens + c.completionTokens;
    nodes.set(c.node, n);
  }
  const byNode = [...nodes.values()];
  return {
    usd: byNode.reduce((s, n) => s + n.usd, 0),
    tokens: byNode.reduce((s, n) => s + n.tokens, 0),
    calls,
    byNode,
  };
}
