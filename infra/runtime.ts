import type { ActivityDeps } from '../activities/deps.ts';
import { type OpenLlm, openLlm } from '../activities/llm/openLlm.ts';
import { SpecStore } from '../skills/store.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { resolveServiceEndpoints } from './dev/endpoints.ts';
import { ObjectStore } from './objectStore.ts';
import type { OfflineModel } from './offline-model/server.ts';

export interface Runtime extends ActivityDeps {
  offline?: OfflineModel;
  close(): Promise<void>;
}

/**
 * The process-wide dependencies of workers and commands: database (migrated), object store (bucket
 * ensured), spec store and, when asked for, the LLM client — with the offline model started in this
 * process when no API key is configured.
 */
export async function createRuntime(config: Config, opts: { llm?: boolean } = {}): Promise<Runtime> {
  const endpoints = resolveServiceEndpoints(config);
  const database = openDatabase(endpoints.databaseUrl, config.FORGE_DB_POOL_SIZE);
  try {
    await runMigrations(database);
  } catch (err) {
    await database.close();
    const hint = config.external.postgres ? 'check DATABASE_URL' : 'run ./bin/forge dev up';
    throw new Error(`cannot reach Postgres (${(err as Error).message}); ${hint}`);
  }
  const store = new ObjectStore(endpoints.s3);
  try {
    await store.ensureBucket();
  } catch (err) {
    await database.close();
    const hint = config.external.s3 ? 'check S3_ENDPOINT and its keys' : 'run ./bin/forge dev up';
    throw new Error(`cannot reach the object store (${(err as Error).message}); ${hint}`);
  }
  const specs = new SpecStore(database);
  let llm: OpenLlm | undefined;
  if (opts.llm) llm = await openLlm({ config, database });
  return {
    config,
    database,
    store,
    specs,
    llm: llm?.client,
    offline: llm?.offline,
    async close() {
      await llm?.close();
      await database.close();
    },
  };
}
