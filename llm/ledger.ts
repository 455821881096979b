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

/** A call outside a task (an expansion's): ledgerQueue.ts groups the task-scoped reads. */
const ATTEMPT_AND_CACHE = {
  name: 'forge_ledger_attempt_v1',
  text: `SELECT (SELECT max(attempt) FROM llm_calls WHERE task_id IS NULL AND node_id = $2 AND request_hash = $1) AS last,
    (SELECT response FROM llm_cache WHERE request_hash = $1) AS response`,
};

/**
 * The next attempt number for a new execution of this request (after the rows an earlier, crashed
 * or retried execution wrote) and its cached answer, in one round trip: every LLM call asks both.
 */
export async function attemptAndCacheOutsideTask(
  database: Database,
  scope: Pick<Scope, 'nodeId' | 'requestHash'>,
): Promise<{ next: number; cached: CachedAnswer | undefined }> {
  const { rows } = await database.pool.query<{ last: number | null; response: unknown }>({
    ...ATTEMPT_AND_CACHE,
    values: [scope.requestHash, scope.nodeId],
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
