import type { ActivityDeps } from '../activities/deps.ts';
import type { Config } from '../infra/config.ts';
import { openDatabase } from '../infra/db/client.ts';
import { ensureDatabase } from '../infra/db/ensureDatabase.ts';
import { runMigrations } from '../infra/db/migrate.ts';
import { resolveServiceEndpoints } from '../infra/dev/endpoints.ts';
import { ObjectStore } from '../infra/objectStore.ts';
import type { OfflineModel } from '../llm/offline/server.ts';
import { type OpenLlm, openLlm } from '../llm/openLlm.ts';
import { configureOffice } from '../preparers/office/index.ts';
import { SpecStore } from '../skills/store.ts';
import { officeSettingsOf } from './officeSettings.ts';

export interface Runtime extends ActivityDeps {
  offline?: OfflineModel;
  close(): Promise<void>;
}

/**
 * The process-wide dependencies of workers and commands: database (migrated), object store (bucket
 * ensured), spec store and, when asked for, the LLM client — with the offline model started in this
 * process when no API key is configured.
 */
export interface RuntimeOptions {
  llm?: boolean;
  /** Told when a database connection breaks (the worker's service watch probes Postgres then). */
  onDatabaseError?: (err: Error) => void;
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  configureOffice(officeSettingsOf(config));
  const endpoints = resolveServiceEndpoints(config);
  const database = openDatabase(endpoints.databaseUrl, config.FORGE_DB_POOL_SIZE, {
    onConnectionError: opts.onDatabaseError,
  });
  try {
    await ensureDatabase(endpoints.databaseUrl);
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
