import { and, eq, isNull, max, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { oneStatement } from '../infra/db/oneStatement.ts';
import { llmCache, llmCalls } from '../infra/db/schema.ts';

/** One `llm_calls` row: a provider call (any outcome) or a cache hit. */
export type LedgerRow = typeof llmCalls.$inferInsert;
export type CallOutcome = 'ok' | 'invalid_output' | 'http_error' | 'truncated' | 'filtered';

/** What the response cache keeps for a valid answer. */
export interface CachedAnswer {
  value: unknown;
  content: string;
  requestId: string | null;
}

interface Scope {
  taskId: string | null;
  nodeId: string;
  requestHash: string;
}

function scopeWhere(scope: Scope) {
  return and(
    scope.taskId === null ? isNull(llmCalls.taskId) : eq(llmCalls.taskId, scope.taskId),
    eq(llmCalls.nodeId, scope.nodeId),
    eq(llmCalls.requestHash, scope.requestHash),
  );
}

/**
 * The first attempt number for a new execution of this request: after the rows an earlier
 * execution (a crashed or retried activity) already wrote, so its paid calls keep their own rows.
 */
export async function nextAttempt(database: Database, scope: Scope): Promise<number> {
  const [row] = await database.db
    .select({ last: max(llmCalls.attempt) })
    .from(llmCalls)
    .where(scopeWhere(scope));
  return (row?.last ?? 0) + 1;
}

/** Idempotent: the same (task, node, attempt, request) is written once however often this runs. */
export async function recordCall(database: Database, row: LedgerRow): Promise<void> {
  await database.db.insert(llmCalls).values(row).onConflictDoNothing();
}

/** The paid call and the cached answer land together, so a crash cannot keep one without the other. */
export async function recordAnswer(
  database: Database,
  row: LedgerRow,
  cache: { requestHash: string; model: string; answer: CachedAnswer },
): Promise<void> {
  const call = database.db.insert(llmCalls).values(row).onConflictDoNothing();
  const cached = database.db
    .insert(llmCache)
    .values({ requestHash: cache.requestHash, model: cache.model, response: cache.answer })
    // Replaces an entry the node's validator no longer accepts (the reason this call was made).
    .onConflictDoUpdate({
      target: llmCache.requestHash,
      set: { response: cache.answer, createdAt: new Date() },
    });
  // One statement is atomic by itself: one round trip instead of a transaction's four.
  await database.db.execute(oneStatement([cached, call]));
}

/**
 * `nextAttempt` and `readCache` in one round trip: every LLM call asks both before it is made.
 */
export async function attemptAndCache(
  database: Database,
  scope: Scope,
): Promise<{ next: number; cached: CachedAnswer | undefined }> {
  const [row] = await database.db
    .select({
      last: sql<number | null>`(SELECT max(${llmCalls.attempt}) FROM ${llmCalls} WHERE ${scopeWhere(scope)})`,
      response: sql<unknown>`(SELECT ${llmCache.response} FROM ${llmCache} WHERE ${eq(llmCache.requestHash, scope.requestHash)})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return { next: Number(row?.last ?? 0) + 1, cached: cachedAnswerOf(row?.response) };
}

function cachedAnswerOf(r: unknown): CachedAnswer | undefined {
  if (!r || typeof r !== 'object' || !('value' in r) || !('content' in r) || typeof r.content !== 'string')
    return undefined;
  const requestId = 'requestId' in r && typeof r.requestId === 'string' ? r.requestId : null;
  return { value: r.value, content: r.content, requestId };
}

export async function readCache(database: Database, requestHash: string): Promise<CachedAnswer | undefined> {
  const [row] = await database.db
    .select({ response: llmCache.response })
    .from(llmCache)
    .where(eq(llmCache.requestHash, requestHash));
  return cachedAnswerOf(row?.response);
}
