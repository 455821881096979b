import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

/**
 * The ledger's read side for one scope — a task, a round, an expansion run — written once. The round
 * gate, the packager, the expansion summary, the API and the CLI all sum spend here, so "tokens" and
 * "USD" mean the same everywhere: tokens = prompt + completion (cached are part of prompt, reasoning
 * part of completion); USD as priced when the call was recorded.
 */

/** Subqueries for one task's spend; `taskId` may be a value or a column (e.g. sql`t.id`). */
export function taskSpendSql(taskId: SQL | string): {
  usd: SQL<number>;
  tokens: SQL<number>;
  calls: SQL<number>;
} {
  return {
    usd: sql<number>`(SELECT coalesce(sum(usd), 0)::float8 FROM llm_calls WHERE task_id = ${taskId})`,
    tokens: sql<number>`(SELECT coalesce(sum(prompt_tokens + completion_tokens), 0)::int FROM llm_calls WHERE task_id = ${taskId})`,
    calls: sql<number>`(SELECT count(*)::int FROM llm_calls WHERE task_id = ${taskId})`,
  };
}

export interface Spend {
  usd: number;
  tokens: number;
}

/** A round's spend from the trigger-kept rollup (not a scan of the round's calls): the gate reads it per task. */
export function roundSpendSql(roundId: string): SQL<number> {
  return sql<number>`(SELECT coalesce(sum(usd), 0) FROM llm_cost_rollup WHERE round_id = ${roundId})::float8`;
}

export async function roundSpend(db: Db, roundId: string): Promise<number> {
  const r = await db.execute<{ usd: number }>(sql`SELECT ${roundSpendSql(roundId)} AS usd`);
  return Number(r.rows[0]?.usd ?? 0);
}

/** An expansion run's spend: its proposer and author calls plus its gate rounds' calls (re-attributed). */
export async function expansionSpend(db: Db, runId: string): Promise<Spend> {
  const r = await db.execute<{ usd: number; tokens: number }>(sql`
    SELECT coalesce(sum(usd), 0)::float8 AS usd, coalesce(sum(prompt_tokens + completion_tokens), 0)::int AS tokens
    FROM llm_calls WHERE expansion_run_id = ${runId}`);
  return { usd: Number(r.rows[0]?.usd ?? 0), tokens: Number(r.rows[0]?.tokens ?? 0) };
}
