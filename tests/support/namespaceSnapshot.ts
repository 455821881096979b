// Prints a digest of one namespace's contents (skills with status, taxonomy versions, rounds,
// bucket listing, workflow list) as JSON: `make test` takes it of the user's namespace before and
// after the suite and fails when they differ. Digests, not copies, so it stays cheap.
import { createHash } from 'node:crypto';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';

const digest = (rows: unknown[]) => ({
  count: rows.length,
  sha256: createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16),
});

const config = loadConfig();
const endpoints = resolveServiceEndpoints(config);
const database = openDatabase(endpoints.databaseUrl, 2);
const temporal = await connectTemporal(config);
try {
  const q = async (text: string) => (await database.pool.query(text).catch(() => ({ rows: [] }))).rows;
  const workflows: string[] = [];
  for await (const w of temporal.client.workflow.list())
    workflows.push(`${w.workflowId} ${w.runId} ${w.status.name}`);
  const store = new ObjectStore(endpoints.s3);
  const objects = await store.listPrefix('').catch(() => []);
  const snapshot = {
    namespace: `${endpoints.databaseUrl.replace(/\/\/[^@]*@/, '//')} s3://${config.S3_BUCKET} temporal:${config.TEMPORAL_NAMESPACE}`,
    skills: digest(await q('SELECT id, status, current_version FROM skills ORDER BY id')),
    taxonomyVersions: digest(await q('SELECT * FROM taxonomy_versions ORDER BY 1')),
    rounds: digest(await q('SELECT id, status, finished_at FROM rounds ORDER BY id')),
    objects: digest(objects),
    workflows: digest(workflows.sort()),
  };
  process.stdout.write(`${JSON.stringify(snapshot)}\n`);
} finally {
  await temporal.close();
  await database.close();
}
