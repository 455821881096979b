import { sql } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.ts';

/** Small SQL read-backs the round tests assert on. */
export async function taskStatusCounts(database: Database, roundId: string): Promise<Record<string, number>> {
  const r = await database.db.execute<{ status: string; n: number }>(
    sql`SELECT status, count(*)::int AS n FROM tasks WHERE round_id = ${roundId} GROUP BY status`,
  );
  return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
}

export async function roundSpend(database: Database, roundId: string): Promise<number> {
  const r = await database.db.execute<{ usd: number }>(
    sql`SELECT coalesce(sum(usd), 0)::float8 AS usd FROM llm_calls WHERE round_id = ${roundId}`,
  );
  return r.rows[0]!.usd;
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 120_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
