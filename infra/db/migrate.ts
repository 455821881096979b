import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { repoRoot } from '../paths.ts';
import type { Database } from './client.ts';

export const migrationsFolder = path.join(repoRoot, 'infra', 'db', 'migrations');

/** Applies the committed drizzle-kit migrations; already-applied ones are skipped, so it is idempotent. */
export async function runMigrations(database: Database): Promise<void> {
  // Concurrent starters (a worker and `dev up`) must not race on the migrations table.
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    await migrate(database.db, { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
}
