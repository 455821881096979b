import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Told of every connection error (the service watch turns them into one line per outage). */
  onConnectionError?: (err: Error) => void;
}

/**
 * A pool that survives a Postgres restart: a broken connection is dropped and the next query opens
 * a new one. Both the pool and each of its clients get an 'error' listener — the pool's covers idle
 * clients only, and a client checked out for a transaction that sees the server go away (57P01)
 * would otherwise raise an unhandled 'error' event and kill the process.
 */
export function openDatabase(url: string, poolSize = 10, opts: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const report = (err: Error) => opts.onConnectionError?.(err);
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
