// Drops the test suite's namespace (FORGE_NAMESPACE): its database, bucket and Temporal namespace.
// Refuses to run without a namespace, so it can never touch the user's own data.
import pg from 'pg';
import { loadConfig } from '../../infra/config.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';

const config = loadConfig();
if (!config.FORGE_NAMESPACE) throw new Error('dropNamespace: FORGE_NAMESPACE is not set; refusing');
const endpoints = resolveServiceEndpoints(config);

const url = new URL(endpoints.databaseUrl);
const name = decodeURIComponent(url.pathname.slice(1));
url.pathname = '/postgres';
const admin = new pg.Client({ connectionString: url.toString() });
admin.on('error', () => {});
await admin.connect();
try {
  await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
} finally {
  await admin.end();
}
await new ObjectStore(endpoints.s3).deleteBucket();
const temporal = await connectTemporal(config);
try {
  await temporal.connection.operatorService.deleteNamespace({ namespace: config.TEMPORAL_NAMESPACE });
} catch (err) {
  process.stderr.write(
    `dropNamespace: Temporal namespace ${config.TEMPORAL_NAMESPACE} kept (${(err as Error).message})\n`,
  );
} finally {
  await temporal.close();
}
process.stdout.write(
  `dropped namespace ${config.FORGE_NAMESPACE}: database ${name}, bucket ${config.S3_BUCKET}, Temporal namespace ${config.TEMPORAL_NAMESPACE}\n`,
);
