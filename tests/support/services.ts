import type { Client, Connection } from '@temporalio/client';
import { type Config, loadConfig } from '../../infra/config.ts';
import { type Database, openDatabase } from '../../infra/db/client.ts';
import { runMigrations } from '../../infra/db/migrate.ts';
import { resolveServiceEndpoints, type ServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { stackStatus } from '../../infra/dev/stack.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { connectTemporal, type TemporalHandle } from '../../infra/temporal/client.ts';

export interface TestServices {
  config: Config;
  endpoints: ServiceEndpoints;
  database: Database;
  store: ObjectStore;
  temporal: { connection: Connection; client: Client };
}

let pending: Promise<{ services: TestServices; temporal: TemporalHandle }> | undefined;

async function connect(): Promise<{ services: TestServices; temporal: TemporalHandle }> {
  const config = loadConfig();
  // Only a service that is down (not merely slow to answer a health probe on a loaded machine) stops the tests.
  const down = (await stackStatus(config)).filter((s) => s.state === 'stopped');
  if (down.length > 0) {
    const list = down.map((s) => `${s.service} ${s.state}`).join(', ');
    throw new Error(`the dev stack is not up (${list}): run ./bin/forge dev up`);
  }
  const endpoints = resolveServiceEndpoints(config);
  const database = openDatabase(endpoints.databaseUrl, 4);
  await runMigrations(database);
  const store = new ObjectStore(endpoints.s3);
  await store.ensureBucket();
  const temporal = await connectTemporal(config);
  return {
    services: {
      config,
      endpoints,
      database,
      store,
      temporal: { connection: temporal.connection, client: temporal.client },
    },
    temporal,
  };
}

/** The real services of the running dev stack (or the configured external ones), connected once per process. */
export async function testServices(): Promise<TestServices> {
  pending ??= connect();
  try {
    return (await pending).services;
  } catch (err) {
    pending = undefined;
    throw err;
  }
}

/** Closes the pool and the Temporal connection so the test process can exit. */
export async function closeTestServices(): Promise<void> {
  if (!pending) return;
  const current = pending;
  pending = undefined;
  const { services, temporal } = await current.catch(() => ({ services: undefined, temporal: undefined }));
  await services?.database.close();
  await temporal?.close();
}
