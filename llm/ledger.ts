import type { Database } from '../infra/db/client.ts';
import type { llmCalls } from '../infra/db/schema.ts';

/** One `llm_calls` row: a provider call (any outcome) or a cache hit. */
export type LedgerRow = typeof llmCalls.$inferInsert;
export type CallOutcome = 'ok' | 'invalid_output' | 'http_error' | 'truncated' | 'filtered';

/** What the response cache keeps for a valid answer. */
export interface CachedAnswer {
  value: unknown;
  content: string;
  requestId: string | null;
}

export interface Scope {
  taskId: string | null;
  nodeId: string;
  requestHash: string;
}

/**
 * The ledger's statements run for every LLM call, so they are written once as SQL and sent as named
 * prepared statements (ledgerQueue.ts groups concurrent calls' into one): Postgres parses and plans
 * each once per connection, and the worker builds no query per call (building them with the query
 * builder was ~3% of a round's worker CPU). Values are always parameters; the column lists follow
 * `llmCalls` and `llmCache` (schema.ts).
 */
export const CALL_COLUMNS = [
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

export function callValues(row: LedgerRow): unknown[] {
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

const ATTEMPT_AND_CACHE = (taskScoped: boolean) => ({
  name: taskScoped ? 'forge_ledger_attempt_task_v1' : 'forge_ledger_attempt_v1',
  text: `SELECT (SELECT max(attempt) FROM llm_calls WHERE ${taskScoped ? 'task_id = $3' : 'task_id IS NULL'}
      AND node_id = $2 AND request_hash = $1) AS last,
    (SELECT response FROM llm_cache WHERE request_hash = $1) AS response`,
});

/**
 * The next attempt number for a new execution of this request (after the rows an earlier, crashed
 * or retried execution wrote) and its cached answer, in one round trip: every LLM call asks both.
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

export function cachedAnswerOf(r: unknown): CachedAnswer | undefined {
  if (!r || typeof r !== 'object' || !('value' in r) || !('content' in r) || typeof r.content !== 'string')
    return undefined;
  const requestId = 'requestId' in r && typeof r.requestId === 'string' ? r.requestId : null;
  return { value: r.value, content: r.content, requestId };
}
