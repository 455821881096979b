import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { spawnForgeWorker } from '../support/forgeWorker.ts';
import { taskStatusCounts, waitFor } from '../support/roundQueries.ts';

const env = { ...process.env, FORGE_TASK_QUEUE_PREFIX: `crash-${randomBytes(4).toString('hex')}` };
const children: ChildProcess[] = [];

function startWorkerProcess(): ChildProcess {
  const child = spawnForgeWorker(env, ['ignore', 'ignore', 'inherit']);
  children.push(child);
  return child;
}

after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

test('SIGKILL of the worker mid-round: the round completes, each task index once, no request billed twice', async () => {
  const config = loadConfig(env);
  const runtime = await createRuntime(config);
  const temporal = await connectTemporal(config);
  try {
    const deps = { config, database: runtime.database, temporal: temporal.client };
    let worker = startWorkerProcess();
    const started = await startRound(deps, {
      skills: ['calc.formulas.sum-column', 'os.files.backup-copy'],
      tasksPerSkill: 6,
      window: 2,
      taskConcurrency: 2,
      seed: Math.floor(Date.now() % 1_000_000_000),
    });
    await waitFor(
      'two accepted tasks',
      async () => ((await taskStatusCounts(runtime.database, started.roundId)).accepted ?? 0) >= 2,
      180_000,
    );
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    const atKill = await taskStatusCounts(runtime.database, started.roundId);
    assert.ok((atKill.accepted ?? 0) < 12, 'the kill happened mid-round');
    worker = startWorkerProcess();
    const progress = await waitForRound(deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.tasksDone, 12);

    const { db } = runtime.database;
    const perIndex = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM tasks WHERE round_id = ${started.roundId} GROUP BY skill_id, task_index`);
    assert.equal(perIndex.rows.length, 12);
    assert.ok(perIndex.rows.every((r) => r.n === 1));
    const billedTwice = await db.execute<{ request_hash: string }>(sql`
      SELECT request_hash FROM llm_calls
      WHERE round_id = ${started.roundId} AND NOT cache_hit AND outcome = 'ok'
      GROUP BY request_hash HAVING count(*) > 1`);
    assert.deepEqual(billedTwice.rows, []);
    const packaged = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM packages WHERE round_id = ${started.roundId}`,
    );
    assert.equal(packaged.rows[0]!.n, progress.accepted);
  } finally {
    await temporal.close();
    await runtime.close();
  }
});
