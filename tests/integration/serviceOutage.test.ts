import assert from 'node:assert/strict';
import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { eq, sql } from 'drizzle-orm';
import type { RoundProgress } from '../../activities/types.ts';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime, type Runtime } from '../../app/runtime.ts';
import { type Config, loadConfig } from '../../infra/config.ts';
import { rounds } from '../../infra/db/schema.ts';
import { stackLayout } from '../../infra/dev/layout.ts';
import { processAlive } from '../../infra/dev/processes.ts';
import { localServices, stackUp } from '../../infra/dev/stack.ts';
import { readStackRecord, type ServiceName } from '../../infra/dev/stackRecord.ts';
import { repoRoot } from '../../infra/paths.ts';
import { spawnForgeWorker } from '../support/forgeWorker.ts';

/**
 * Outages of the backing services mid-round, on a private stack (own ports, own home) so killing
 * its processes disturbs nothing else: one `forge worker` process lives through all of them.
 */
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** OS skills only: no LibreOffice, so a round is quick. */
const SKILLS = ['os.files.backup-copy', 'os.files.create-directory-tree'];
const TASKS_PER_SKILL = 2;

describe('a round survives an outage of each backing service', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'forge-outage-'));
  const env: Record<string, string> = {
    FORGE_HOME: home,
    FORGE_TASK_QUEUE_PREFIX: `outage-${randomBytes(4).toString('hex')}`,
  };
  let config: Config;
  let runtime: Runtime;
  let connection: Connection;
  let temporal: Client;
  let worker: ChildProcess;
  let workerLog = '';
  const forge = (...args: string[]) =>
    run(path.join(repoRoot, 'bin', 'forge'), args, {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: '',
        S3_BUCKET: '',
        FORGE_NAMESPACE: '',
        TEMPORAL_NAMESPACE: '',
        ...env,
      },
      timeout: 300_000,
    });

  before(async () => {
    // Postgres runs as its own user, which must be able to enter the home.
    chmodSync(home, 0o755);
    symlinkSync(stackLayout(loadConfig()).binDir, path.join(home, 'bin'));
    for (const name of [
      'FORGE_TEMPORAL_PORT',
      'FORGE_TEMPORAL_UI_PORT',
      'FORGE_MINIO_PORT',
      'FORGE_MINIO_CONSOLE_PORT',
      'FORGE_POSTGRES_PORT',
    ])
      env[name] = String(await freePort());
    await forge('dev', 'up');
    config = loadConfig(env);
    runtime = await createRuntime(config);
    connection = await Connection.connect({ address: config.temporalAddress });
    temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    worker = spawnForgeWorker(
      {
        ...process.env,
        DATABASE_URL: '',
        S3_BUCKET: '',
        FORGE_NAMESPACE: '',
        TEMPORAL_NAMESPACE: '',
        ...env,
      },
      ['ignore', 'ignore', 'pipe'],
    );
    worker.stderr!.on('data', (chunk: Buffer) => {
      workerLog += chunk.toString();
    });
  });

  after(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await connection?.close().catch(() => {});
    await runtime?.close().catch(() => {});
    await forge('dev', 'down').catch(() => {});
    rmSync(home, { recursive: true, force: true });
  });

  /** Polls Postgres, which may itself be the service that is down: errors mean "not yet". */
  async function roundEnd(roundId: string, timeoutMs: number) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const row = await runtime.database.db
        .select()
        .from(rounds)
        .where(eq(rounds.id, roundId))
        .then((r) => r[0])
        .catch(() => undefined);
      if (row?.finishedAt) return row;
      await sleep(500);
    }
    throw new Error(`round ${roundId} did not end in ${timeoutMs / 1000}s`);
  }

  async function finished(roundId: string): Promise<number> {
    const r = await runtime.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM tasks WHERE round_id = ${roundId} AND status <> 'running'`,
    );
    return r.rows[0]!.n;
  }

  async function outage(
    service: ServiceName,
    downMs: number,
    t: { diagnostic(m: string): void },
    // One task at a time by default; two in flight per skill run as batches of two (FORGE_TASK_BATCH).
    shape = { tasksPerSkill: TASKS_PER_SKILL, taskConcurrency: 1 },
  ) {
    const logFrom = workerLog.length;
    const deps = { config, database: runtime.database, temporal };
    const started = await startRound(deps, {
      skills: SKILLS,
      ...shape,
      window: 2,
      seed: Math.floor(Math.random() * 1e9),
    });
    const planned = SKILLS.length * shape.tasksPerSkill;
    // Mid-round: one task has finished, the others are still to come.
    while ((await finished(started.roundId)) < 1) await sleep(100);
    const svc = localServices.find((s) => s.name === service)!;
    const pid = readStackRecord(stackLayout(config).stackFile).services[service]!.pid;
    process.kill(pid, 'SIGKILL');
    while (processAlive(pid, svc.processMatch)) await sleep(50);
    await sleep(downMs);
    // The stack's own restart (what `forge dev up` runs), in this process to spare a CLI start-up.
    await stackUp(config);
    const restartedAt = Date.now();
    assert.equal(worker.exitCode, null, `the worker process lived through the ${service} outage`);
    const row = await roundEnd(started.roundId, 600_000);
    t.diagnostic(
      `${service} down ${downMs / 1000}s: round ${started.roundId} ended ${row.status} ` +
        `${((Date.now() - restartedAt) / 1000).toFixed(1)}s after the restart`,
    );
    assert.equal(worker.exitCode, null, 'the same worker process is still running');

    const progress = row.progress as RoundProgress;
    assert.equal(row.status, 'completed', JSON.stringify(progress));
    const { db } = runtime.database;
    const slots = await db.execute<{ status: string; n: number }>(sql`
      SELECT status, count(*)::int AS n FROM tasks WHERE round_id = ${started.roundId} GROUP BY status`);
    const byStatus = Object.fromEntries(slots.rows.map((r) => [r.status, r.n]));
    assert.equal((byStatus.accepted ?? 0) + (byStatus.rejected ?? 0), planned, JSON.stringify(byStatus));
    assert.equal(byStatus.failed, undefined, 'no task failed');
    const packaged = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM packages WHERE round_id = ${started.roundId}`,
    );
    assert.equal(packaged.rows[0]!.n, byStatus.accepted ?? 0, 'accepted = packaged');
    const billedTwice = await db.execute<{ request_hash: string }>(sql`
      SELECT request_hash FROM llm_calls
      WHERE round_id = ${started.roundId} AND NOT cache_hit AND outcome = 'ok'
      GROUP BY request_hash HAVING count(*) > 1`);
    assert.deepEqual(billedTwice.rows, [], 'no request billed twice');
    const ledger = await db.execute<{
      calls: number;
      usd: number;
      rolled_calls: number;
      rolled_usd: number;
    }>(sql`
      SELECT
        (SELECT count(*) FROM llm_calls WHERE round_id = ${started.roundId})::int AS calls,
        (SELECT coalesce(sum(usd), 0) FROM llm_calls WHERE round_id = ${started.roundId})::float8 AS usd,
        (SELECT coalesce(sum(calls), 0) FROM llm_cost_rollup WHERE round_id = ${started.roundId})::int AS rolled_calls,
        (SELECT coalesce(sum(usd), 0) FROM llm_cost_rollup WHERE round_id = ${started.roundId})::float8 AS rolled_usd`);
    const l = ledger.rows[0]!;
    assert.ok(l.calls > 0, 'the round made LLM calls');
    assert.equal(l.rolled_calls, l.calls, 'ledger calls = rollup calls');
    assert.ok(Math.abs(l.rolled_usd - l.usd) < 1e-9, 'ledger USD = rollup USD');
    const statusRollup = await db.execute<{ n: number }>(
      sql`SELECT coalesce(sum(tasks), 0)::int AS n FROM task_status_rollup WHERE round_id = ${started.roundId}`,
    );
    assert.equal(statusRollup.rows[0]!.n, planned, 'task rollup = task rows');

    // One line when the service went away and one when it came back, not a flood. "Back" comes from
    // the worker's next probe (every 3 s, 5 s timeout), which a quick round can finish before.
    for (
      let waited = 0;
      waited < 15_000 && !workerLog.slice(logFrom).includes(`forge worker: ${service} is back`);
      waited += 250
    )
      await sleep(250);
    const lines = workerLog.slice(logFrom).split('\n');
    // The worker and its extra LLM process (FORGE_PIPELINE_WORKER_PROCESSES) each watch the services.
    const said = (what: string, who = 'forge worker') =>
      lines.filter((x) => x.includes(`${who}: ${service} ${what}`)).length;
    const children = new Set(lines.flatMap((x) => /forge worker \(llm, pid \d+\)/.exec(x) ?? []));
    t.diagnostic(`worker said: ${lines.filter((x) => / is (unavailable|back)/.test(x)).join(' | ')}`);
    assert.equal(said('is unavailable'), 1, lines.join('\n'));
    assert.equal(said('is back'), 1, lines.join('\n'));
    for (const child of children) {
      assert.ok(said('is unavailable', child) <= 1, lines.join('\n'));
      assert.ok(said('is back', child) <= 1, lines.join('\n'));
    }
  }

  test('Postgres SIGKILLed for 15 s', async (t) => {
    await outage('postgres', 15_000, t);
  });

  test('Postgres SIGKILLed for 15 s while tasks run in batches', async (t) => {
    await outage('postgres', 15_000, t, { tasksPerSkill: 4, taskConcurrency: 2 });
  });

  test('MinIO SIGKILLed for 15 s', async (t) => {
    await outage('minio', 15_000, t);
  });

  test('Temporal SIGKILLed for 15 s', async (t) => {
    await outage('temporal', 15_000, t);
  });

  test('MinIO SIGKILLed for 60 s', async (t) => {
    await outage('minio', 60_000, t);
  });
});
