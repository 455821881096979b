import type { Database } from '../infra/db/client.ts';
import {
  attemptAndCacheOutsideTask,
  type CachedAnswer,
  cachedAnswerOf,
  type LedgerRow,
  type Scope,
} from './ledger.ts';

/**
 * The ledger's per-call statements of one process, grouped: the reads (`attemptAndCache`) and the
 * writes (a call's row, with its cache entry when it answered) that concurrent LLM calls ask for
 * while earlier ones are on the wire go to Postgres together, as one statement each — group commit.
 * Every caller still waits for its own row to be written before it uses the answer, and a row and
 * its cache entry still land in one statement; a failed statement fails every call it carried (each
 * retries as before). Socket round trips were the worker's largest cost after the stage work itself.
 */
export interface LedgerQueue {
  attemptAndCache(scope: Scope): Promise<{ next: number; cached: CachedAnswer | undefined }>;
  record(row: LedgerRow, cache?: { requestHash: string; model: string; answer: CachedAnswer }): Promise<void>;
}

/** Statements of each kind in flight at once; the rest wait and go together in the next. */
const IN_FLIGHT = 2;

/**
 * The columns of an `llm_calls` row (schema.ts `llmCalls`), each with its Postgres type (for the
 * arrays `unnest` turns back into rows) and its value; an omitted optional field gets the column's
 * default. Written as SQL once and sent as named prepared statements: Postgres plans each once per
 * connection, and the worker builds no query per call (the query builder had been ~3 % of a round's
 * worker CPU in a profile).
 */
const CALL_FIELDS: readonly [column: string, type: string, value: (r: LedgerRow) => unknown][] = [
  ['round_id', 'text', (r) => r.roundId ?? null],
  ['expansion_run_id', 'text', (r) => r.expansionRunId ?? null],
  ['skill_id', 'text', (r) => r.skillId ?? null],
  ['task_id', 'uuid', (r) => r.taskId ?? null],
  ['node_id', 'text', (r) => r.nodeId],
  ['attempt', 'int', (r) => r.attempt],
  ['provider', 'text', (r) => r.provider],
  ['model', 'text', (r) => r.model],
  ['request_id', 'text', (r) => r.requestId ?? null],
  ['request_hash', 'text', (r) => r.requestHash],
  ['prompt_tokens', 'int', (r) => r.promptTokens ?? 0],
  ['cached_tokens', 'int', (r) => r.cachedTokens ?? 0],
  ['completion_tokens', 'int', (r) => r.completionTokens ?? 0],
  ['reasoning_tokens', 'int', (r) => r.reasoningTokens ?? 0],
  ['usd', 'float8', (r) => r.usd ?? 0],
  ['price_version', 'text', (r) => r.priceVersion],
  ['latency_ms', 'int', (r) => r.latencyMs],
  ['cache_hit', 'bool', (r) => r.cacheHit ?? false],
  ['outcome', 'text', (r) => r.outcome],
  ['error', 'text', (r) => r.error ?? null],
];

const READS = {
  name: 'forge_ledger_reads_v1',
  // Task-scoped only (the index on task_id applies); a call outside a task is read on its own.
  text: `SELECT (SELECT max(c.attempt) FROM llm_calls c
        WHERE c.task_id = q.task_id AND c.node_id = q.node_id AND c.request_hash = q.request_hash) AS last,
      (SELECT response FROM llm_cache WHERE request_hash = q.request_hash) AS response
    FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS q(task_id, node_id, request_hash, i)
    ORDER BY q.i`,
};

const WRITES = {
  name: 'forge_ledger_writes_v1',
  text: `WITH cached AS (INSERT INTO llm_cache (request_hash, model, response)
      SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])
      ON CONFLICT (request_hash) DO UPDATE SET response = excluded.response, created_at = now())
    INSERT INTO llm_calls (${CALL_FIELDS.map(([column]) => column).join(', ')})
    SELECT * FROM unnest(${CALL_FIELDS.map(([, type], i) => `$${i + 4}::${type}[]`).join(', ')})
    ON CONFLICT DO NOTHING`,
};

interface Waiter<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (err: Error) => void;
}

/** Items queued while `IN_FLIGHT` statements are out go together in one `send` when one returns. */
function grouped<T, R>(send: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let queue: Waiter<T, R>[] = [];
  let inFlight = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queue.length === 0 || inFlight >= IN_FLIGHT) return;
    const batch = queue;
    queue = [];
    inFlight++;
    send(batch.map((w) => w.item))
      .then(
        (results) => {
          for (const [i, w] of batch.entries()) w.resolve(results[i]!);
        },
        (err: Error) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        inFlight--;
        flush();
      });
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // The rest of this turn's calls join before the statement goes out.
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

type Write = { row: LedgerRow; cache?: { requestHash: string; model: string; answer: CachedAnswer } };

export function createLedgerQueue(database: Database): LedgerQueue {
  const read = grouped(async (scopes: (Scope & { taskId: string })[]) => {
    const { rows } = await database.pool.query<{ last: number | null; response: unknown }>({
      ...READS,
      values: [scopes.map((s) => s.taskId), scopes.map((s) => s.nodeId), scopes.map((s) => s.requestHash)],
    });
    return rows.map((r) => ({ next: Number(r.last ?? 0) + 1, cached: cachedAnswerOf(r.response) }));
  });

  const write = grouped(async (writes: Write[]) => {
    // One entry per request hash: Postgres refuses to upsert a row twice in one statement.
    const cache = new Map<string, NonNullable<Write['cache']>>();
    for (const w of writes) if (w.cache) cache.set(w.cache.requestHash, w.cache);
    const entries = [...cache.values()];
    await database.pool.query({
      ...WRITES,
      values: [
        entries.map((e) => e.requestHash),
        entries.map((e) => e.model),
        entries.map((e) => JSON.stringify(e.answer)),
        ...CALL_FIELDS.map(([, , value]) => writes.map((w) => value(w.row))),
      ],
    });
    return writes.map(() => undefined);
  });

  return {
    attemptAndCache: (scope) =>
      scope.taskId === null
        ? attemptAndCacheOutsideTask(database, scope)
        : read({ ...scope, taskId: scope.taskId }),
    record: (row, cache) => write(cache ? { row, cache } : { row }),
  };
}
