import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import { runMigrations } from '../../infra/db/migrate.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { stackLayout } from '../../infra/dev/layout.ts';
import { processAlive } from '../../infra/dev/processes.ts';
import { localServices, PortInUseError, stackStatus, stackUp } from '../../infra/dev/stack.ts';
import { readStackRecord } from '../../infra/dev/stackRecord.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { repoRoot } from '../../infra/paths.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

const run = promisify(execFile);

async function freePort(host: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the dev stack', () => {
  let svc: TestServices;
  const runId = randomBytes(4).toString('hex');

  before(async () => {
    svc = await testServices();
  });

  after(async () => {
    await closeTestServices();
  });

  test('every service is healthy or configured as external', async () => {
    const rows = await stackStatus(svc.config);
    assert.deepEqual(rows.map((r) => r.service).sort(), ['minio', 'postgres', 'temporal']);
    for (const row of rows)
      assert.ok(['healthy', 'external'].includes(row.state), `${row.service} is ${row.state}`);
  });

  test('migrations are idempotent on the real Postgres', async () => {
    const count = async () => {
      const res = await svc.database.pool.query(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      return Number(res.rows[0].n);
    };
    await runMigrations(svc.database);
    const applied = await count();
    assert.ok(applied >= 1, 'at least one migration recorded');
    await runMigrations(svc.database);
    assert.equal(await count(), applied);
    const tables = await svc.database.pool.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'llm_calls'",
    );
    assert.equal(tables.rowCount, 1);
  });

  test('the Temporal dev server accepts a workflow', async () => {
    const workflowId = `stack-test-${runId}`;
    // No worker polls this queue: the server records the execution, which is all this checks.
    const handle = await svc.temporal.client.workflow.start('stackProbe', {
      taskQueue: `stack-test-${runId}`,
      workflowId,
      args: [],
    });
    const description = await handle.describe();
    assert.equal(description.status.name, 'RUNNING');
    await handle.terminate('stack test done');
    assert.equal((await handle.describe()).status.name, 'TERMINATED');
    // Its SQLite file is in WAL mode (header bytes 18-19 are 2, not the rollback journal's 1).
    if (!svc.config.external.temporal) {
      const header = readFileSync(stackLayout(svc.config).temporalDb).subarray(0, 20);
      assert.deepEqual([header[18], header[19]], [2, 2]);
    }
  });

  test('a port taken by another process stops `up` with an error naming the service and port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, svc.config.FORGE_HOST, resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const home = path.join(os.tmpdir(), `forge-stack-test-${runId}`);
    try {
      // Only Postgres is local here, in an empty home; the others point at the running stack.
      const config = loadConfig({
        FORGE_HOME: home,
        FORGE_POSTGRES_PORT: String(port),
        TEMPORAL_ADDRESS: svc.endpoints.temporalAddress,
        S3_ENDPOINT: `http://${svc.endpoints.s3.endPoint}:${svc.endpoints.s3.port}`,
        S3_ACCESS_KEY: svc.endpoints.s3.accessKey,
        S3_SECRET_KEY: svc.endpoints.s3.secretKey,
      });
      const states = await stackStatus(config);
      assert.deepEqual(
        states.map((s) => [s.service, s.state]),
        [
          ['postgres', 'stopped'],
          ['minio', 'external'],
          ['temporal', 'external'],
        ],
      );
      await assert.rejects(stackUp(config), (err: Error) => {
        assert.ok(err.message.includes(`postgres cannot start: port ${port}`), err.message);
        return true;
      });
      await assert.rejects(stackUp(config), PortInUseError);
    } finally {
      blocker.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('`forge dev up` restarts killed services with their data intact; `down` stops exactly them', async () => {
    // A private stack on its own ports, so killing its processes disturbs no other test.
    const home = mkdtempSync(path.join(os.tmpdir(), 'forge-stack-'));
    // Postgres runs as its own user, which must be able to enter the home.
    chmodSync(home, 0o755);
    symlinkSync(stackLayout(svc.config).binDir, path.join(home, 'bin'));
    const env: Record<string, string> = { FORGE_HOME: home };
    const portVariables = [
      'FORGE_TEMPORAL_PORT',
      'FORGE_TEMPORAL_UI_PORT',
      'FORGE_MINIO_PORT',
      'FORGE_MINIO_CONSOLE_PORT',
      'FORGE_POSTGRES_PORT',
    ];
    for (const name of portVariables) env[name] = String(await freePort(svc.config.FORGE_HOST));
    const forge = (...args: string[]) =>
      run(path.join(repoRoot, 'bin', 'forge'), args, {
        cwd: repoRoot,
        // The private stack is read with `env` alone: no suite namespace may leak into its processes.
        env: { ...process.env, FORGE_NAMESPACE: '', TEMPORAL_NAMESPACE: '', ...env },
        timeout: 300_000,
      });
    const config = loadConfig(env);
    const stackFile = stackLayout(config).stackFile;
    const closers: (() => Promise<void>)[] = [];
    try {
      await forge('dev', 'up');
      const endpoints = resolveServiceEndpoints(config);
      const database = openDatabase(endpoints.databaseUrl, 2);
      closers.push(() => database.close());
      const store = new ObjectStore(endpoints.s3);
      const temporal = await connectTemporal(config);
      closers.push(() => temporal.close());

      await store.putObject('survivor.txt', 'still here', 'text/plain');
      await database.pool.query('CREATE TABLE survivor (note text)');
      await database.pool.query("INSERT INTO survivor VALUES ('still here')");
      const workflowId = `stack-survivor-${runId}`;
      await temporal.client.workflow.start('stackProbe', { taskQueue: 'stack-test', workflowId, args: [] });

      const first = readStackRecord(stackFile);
      for (const s of localServices) process.kill(first.services[s.name]!.pid, 'SIGKILL');
      for (const s of localServices) {
        while (processAlive(first.services[s.name]!.pid, s.processMatch)) await sleep(50);
      }
      assert.ok((await stackStatus(config)).every((row) => row.state === 'stopped'));

      await forge('dev', 'up');
      const second = readStackRecord(stackFile);
      for (const s of localServices) {
        assert.notEqual(
          second.services[s.name]!.pid,
          first.services[s.name]!.pid,
          `${s.name} has a new process`,
        );
      }
      assert.ok((await stackStatus(config)).every((row) => row.state === 'healthy'));
      assert.equal((await store.getObject('survivor.txt')).toString(), 'still here');
      assert.deepEqual((await database.pool.query('SELECT note FROM survivor')).rows, [
        { note: 'still here' },
      ]);
      const described = await temporal.client.workflow.getHandle(workflowId).describe();
      assert.equal(described.status.name, 'RUNNING');

      for (const close of closers.splice(0)) await close();
      await forge('dev', 'down');
      for (const s of localServices) {
        assert.equal(processAlive(second.services[s.name]!.pid, s.processMatch), false, `${s.name} stopped`);
      }
      assert.deepEqual(readStackRecord(stackFile).services, {});
    } finally {
      for (const close of closers) await close().catch(() => {});
      await forge('dev', 'down').catch(() => {});
      rmSync(home, { recursive: true, force: true });
    }
  });
});
