import { and, eq, isNull, max } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
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

/**
 * The ledger's three statements run for every LLM call, so they are written once as SQL and sent as
 * named prepared statements: Postgres parses and plans each once per connection, and the worker
 * builds no query per call (building them with the query builder was ~3% of a round's worker CPU).
 * Values are always parameters; the column lists follow `llmCalls` and `llmCache` (schema.ts).
 */
const CALL_COLUMNS = [
  'round_id',
  'expansion_run_id',
  'skill_id',
  'task_id',
  'node_id',
  'attempt',
  'provider',
  'model',
  'request_id',
  'request_hash',
  'prompt_tokens',
  'cached_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usd',
  'price_version',
  'latency_ms',
  'cache_hit',
  'outcome',
  'error',
] as const;

function callValues(row: LedgerRow): unknown[] {
  return [
    row.roundId ?? null,
    row.expansionRunId ?? null,
    row.skillId ?? null,
    row.taskId ?? null,
    row.nodeId,
    row.attempt,
    row.provider,
    row.model,
    row.requestId ?? null,
    row.requestHash,
    row.promptTokens ?? 0,
    row.cachedTokens ?? 0,
    row.completionTokens ?? 0,
    row.reasoningTokens ?? 0,
    row.usd ?? 0,
    row.priceVersion,
    row.latencyMs,
    row.cacheHit ?? false,
    row.outcome,
    row.error ?? null,
  ];
}

const placeholders = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

const insertCall = (from: number) =>
  `INSERT INTO llm_calls (${CALL_COLUMNS.join(', ')}) VALUES (${placeholders(from, CALL_COLUMNS.length)}) ON CONFLICT DO NOTHING`;

const RECORD_CALL = { name: 'forge_ledger_call_v1', text: insertCall(1) };

const RECORD_ANSWER = {
  name: 'forge_ledger_answer_v1',
  // Replaces an entry the node's validator no longer accepts (the reason this call was made).
  text: `WITH cached AS (INSERT INTO llm_cache (request_hash, model, response) VALUES ($1, $2, $3::jsonb)
    ON CONFLICT (request_hash) DO UPDATE SET response = excluded.response, created_at = now())
    ${insertCall(4)}`,
};

const ATTEMPT_AND_CACHE = (taskScoped: boolean) => ({
  name: taskScoped ? 'forge_ledger_attempt_task_v1' : 'forge_ledger_attempt_v1',
  text: `SELECT (SELECT max(attempt) FROM llm_calls WHERE ${taskScoped ? 'task_id = $3' : 'task_id IS NULL'}
      AND node_id = $2 AND request_hash = $1) AS last,
    (SELECT response FROM llm_cache WHERE request_hash = $1) AS response`,
});

/** Idempotent: the same (task, node, attempt, request) is written once however often this runs. */
export async function recordCall(database: Database, row: LedgerRow): Promise<void> {
  await database.pool.query({ ...RECORD_CALL, values: callValues(row) });
}

/** The paid call and the cached answer land together, so a crash cannot keep one without the other. */
export async function recordAnswer(
  database: Database,
  row: LedgerRow,
  cache: { requestHash: string; model: string; answer: CachedAnswer },
): Promise<void> {
  // One statement is atomic by itself: one round trip instead of a transaction's four.
  await database.pool.query({
    ...RECORD_ANSWER,
    values: [cache.requestHash, cache.model, JSON.stringify(cache.answer), ...callValues(row)],
  });
}

/**
 * `nextAttempt` and `readCache` in one round trip: every LLM call asks both before it is made.
 */
export async function attemptAndCache(
  database: Database,
  scope: Scope,
): Promise<{ next: number; cached: CachedAnswer | undefined }> {
  const taskScoped = scope.taskId !== null;
  const { rows } = await database.pool.query<{ last: number | null; response: unknown }>({
    ...ATTEMPT_AND_CACHE(taskScoped),
    values: taskScoped ? [scope.requestHash, scope.nodeId, scope.taskId] : [scope.requestHash, scope.nodeId],
  });
  const row = rows[0];
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
