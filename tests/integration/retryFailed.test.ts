import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq, sql } from 'drizzle-orm';
import type { RoundProgress } from '../../activities/types.ts';
import { getRound, retryFailedRound, waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime } from '../../app/runtime.ts';
import { startWorkers } from '../../app/worker.ts';
import { summaryLines } from '../../cli/progress.ts';
import { loadConfig } from '../../infra/config.ts';
import { tasks } from '../../infra/db/schema.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { queueNames } from '../../infra/temporal/queues.ts';
import { startTestForge } from '../support/workers.ts';

test('a non-retryable failure ends the round completed_with_failures; retry-failed re-runs exactly those slots with their seeds', async () => {
  const prefix = `retry-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({ ...process.env, FORGE_TASK_QUEUE_PREFIX: prefix });
  // A worker whose pipeline queue has no LLM client: every author step throws, an error that is neither
  // an outage nor retryable for long, so the task ends failed after a few attempts.
  const broken = await createRuntime(config, { llm: false });
  const brokenWorkers = await startWorkers(broken, queueNames);
  const temporal = await connectTemporal(config);
  const deps = { config, database: broken.database, temporal: temporal.client };
  let good: Awaited<ReturnType<typeof startTestForge>> | undefined;
  try {
    const started = await startRound(deps, {
      skills: ['os.files.backup-copy', 'os.files.create-directory-tree'],
      tasksPerSkill: 2,
      window: 1,
      taskConcurrency: 1,
      seed: Math.floor(Math.random() * 1e9),
    });
    const count = async (status: string) =>
      (
        await broken.database.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM tasks WHERE round_id = ${started.roundId} AND status = ${status}`,
        )
      ).rows[0]!.n;
    while ((await count('failed')) < 1) await sleep(200);
    // Healthy workers take over: the rest of the round succeeds, the failed slot stays failed.
    await brokenWorkers.shutdown();
    good = await startTestForge({ FORGE_TASK_QUEUE_PREFIX: prefix });
    const first = await waitForRound(deps, started.roundId);
    assert.equal(first.status, 'completed_with_failures');
    assert.ok(first.failed >= 1 && first.failed < 4, `some but not all failed: ${first.failed}`);
    assert.equal(first.accepted + first.rejected + first.failed, 4);
    assert.equal(first.failedByReason.activity_failed, first.failed);
    const status = summaryLines(first).join('\n');
    assert.match(status, new RegExp(`failed: ${first.failed} \\(activity_failed ${first.failed}\\)`));
    assert.match(status, /forge round retry-failed/);

    const before = await broken.database.db
      .select()
      .from(tasks)
      .where(eq(tasks.roundId, started.roundId))
      .orderBy(asc(tasks.id));
    const failedIds = before.filter((t) => t.status === 'failed').map((t) => t.id);

    const { slots } = await retryFailedRound(deps, started.roundId);
    assert.equal(slots, first.failed);
    const second = await waitForRound(deps, started.roundId);
    assert.equal(second.status, 'completed', JSON.stringify(second));
    assert.equal(second.failed, 0);
    assert.equal(second.accepted + second.rejected, 4);

    const afterRows = await broken.database.db
      .select()
      .from(tasks)
      .where(eq(tasks.roundId, started.roundId))
      .orderBy(asc(tasks.id));
    assert.deepEqual(
      afterRows.map((t) => [t.id, t.seed]),
      before.map((t) => [t.id, t.seed]),
      'the same slots, with the same seeds',
    );
    for (const [i, t] of afterRows.entries()) {
      if (failedIds.includes(t.id)) assert.ok(['accepted', 'rejected'].includes(t.status), t.id);
      else assert.deepEqual(t.finishedAt, before[i]!.finishedAt, `${t.id} was not re-run`);
    }
    const round = await getRound(deps, started.roundId);
    assert.equal(round.status, 'completed');
    assert.equal((round.progress as RoundProgress).failed, 0);
    await assert.rejects(retryFailedRound(deps, started.roundId), RoundRequestError);
    await assert.rejects(retryFailedRound(deps, 'no-such-round'), /round no-such-round does not exist/);
  } finally {
    await good?.close();
    await brokenWorkers.shutdown().catch(() => {});
    await temporal.close();
    await broken.close();
  }
});
