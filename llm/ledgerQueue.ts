import type { Database } from '../infra/db/client.ts';
import {
  attemptAndCache,
  CALL_COLUMNS,
  type CachedAnswer,
  cachedAnswerOf,
  callValues,
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

/** A column's Postgres type, for the arrays `unnest` turns back into rows. */
const CALL_TYPES: Record<(typeof CALL_COLUMNS)[number], string> = {
  round_id: 'text',
  expansion_run_id: 'text',
  skill_id: 'text',
  task_id: 'uuid',
  node_id: 'text',
  attempt: 'int',
  provider: 'text',
  model: 'text',
  request_id: 'text',
  request_hash: 'text',
  prompt_tokens: 'int',
  cached_tokens: 'int',
  completion_tokens: 'int',
  reasoning_tokens: 'int',
  usd: 'float8',
  price_version: 'text',
  latency_ms: 'int',
  cache_hit: 'bool',
  outcome: 'text',
  error: 'text',
};

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
    INSERT INTO llm_calls (${CALL_COLUMNS.join(', ')})
    SELECT * FROM unnest(${CALL_COLUMNS.map((c, i) => `$${i + 4}::${CALL_TYPES[c]}[]`).join(', ')})
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
    const rows = writes.map((w) => callValues(w.row));
    await database.pool.query({
      ...WRITES,
      values: [
        entries.map((e) => e.requestHash),
        entries.map((e) => e.model),
        entries.map((e) => JSON.stringify(e.answer)),
        ...CALL_COLUMNS.map((_, c) => rows.map((r) => r[c])),
      ],
    });
    return writes.map(() => undefined);
  });

  return {
    attemptAndCache: (scope) =>
      scope.taskId === null ? attemptAndCache(database, scope) : read({ ...scope, taskId: scope.taskId }),
    record: (row, cache) => write(cache ? { row, cache } : { row }),
  };
}
