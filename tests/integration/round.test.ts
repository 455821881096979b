import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { RoundProgress } from '../../activities/types.ts';
import { cancelRound, getRound, waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { llmCalls, packages, taskNodeRuns, tasks } from '../../infra/db/schema.ts';
import { parseTaskPackage } from '../../taskpack/taskPackage.ts';
import { skillWorkflowId } from '../../workflows/skill.ts';
import { taskStatusCounts, waitFor } from '../support/roundQueries.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

/** Tasks are deterministic per seed, so a fresh seed keeps earlier runs' tasks from being duplicates. */
const freshSeed = () => Math.floor(Date.now() % 1_000_000_000);

describe('generation round on the real Temporal, MinIO and Postgres', () => {
  let forge: TestForge;
  before(async () => {
    forge = await startTestForge();
  });
  after(async () => {
    await forge?.close();
  });

  test('one skill workflow per skill accepts verified tasks, packages them and ledgers every call', async () => {
    const started = await startRound(forge.deps, {
      skills: ['calc.formulas.sum-column'],
      tasksPerSkill: 3,
      seed: freshSeed(),
    });
    const progress: RoundProgress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.tasksPlanned, 3);
    assert.equal(progress.accepted, 3, JSON.stringify(progress.rejectedByReason));

    const { db } = forge.runtime.database;
    const desc = await forge.temporal.client.workflow
      .getHandle(skillWorkflowId(started.roundId, 'calc.formulas.sum-column'))
      .describe();
    assert.equal(desc.status.name, 'COMPLETED');

    const rows = await db.select().from(tasks).where(eq(tasks.roundId, started.roundId));
    assert.deepEqual(rows.map((r) => r.taskIndex).sort(), [0, 1, 2]);
    assert.equal(new Set(rows.map((r) => r.instruction)).size, 3, 'instructions differ per task');
    for (const row of rows) {
      const pkgRow = (await db.select().from(packages).where(eq(packages.taskId, row.id)))[0]!;
      const pkg = parseTaskPackage(
        (await forge.runtime.store.getObject(pkgRow.taskJsonKey)).toString('utf8'),
        pkgRow.taskJsonKey,
      );
      assert.equal(pkg.id, row.id);
      assert.equal(pkg.instruction, row.instruction);
      assert.ok(pkg.artifacts.some((a) => a.role === 'initial' && a.vmPath.endsWith('.xlsx')));
      assert.ok(pkg.artifacts.some((a) => a.role === 'solved'));
      assert.ok(pkg.setup.some((s) => s.type === 'open'));
      const setupSh = (await forge.runtime.store.getObject(pkgRow.setupKey)).toString('utf8');
      assert.match(setupSh, /^#!\/usr\/bin\/env bash/);
      const calls = await db.select().from(llmCalls).where(eq(llmCalls.taskId, row.id));
      assert.deepEqual([...new Set(calls.map((c) => c.nodeId))].sort(), [
        'content',
        'instruction',
        'scenario',
        'verify_judge',
      ]);
      assert.ok(
        calls.every((c) => c.model === 'offline' && c.usd === 0 && (c.cacheHit || c.promptTokens > 0)),
      );
      const nodes = await db.select().from(taskNodeRuns).where(eq(taskNodeRuns.taskId, row.id));
      for (const n of [
        'workbook',
        'solution',
        'verify_initial_fails',
        'verify_solved_passes',
        'verify_office',
        'verify_judge',
        'package',
      ]) {
        assert.ok(
          nodes.some((x) => x.nodeId === n && x.status === 'ok'),
          `node run ${n} recorded`,
        );
      }
    }
  });

  test('a round begun before the pipeline queue had its name (its input names `llm`) still finishes', async () => {
    // The input a round started by the previous release carries: the pipeline queue under its old key
    // and name. Its activities are scheduled there, which the pipeline worker also polls.
    const { client } = forge.temporal;
    const legacy = Object.create(client) as typeof client;
    const start = client.workflow.start.bind(client.workflow);
    Object.defineProperty(legacy, 'workflow', {
      value: Object.assign(Object.create(client.workflow), {
        start: ((type, options) => {
          const [input] = options.args as [{ queues: { pipeline: string; prepare: string; office: string } }];
          const { pipeline, ...rest } = input.queues;
          const queues = { ...rest, llm: pipeline.replace(/-pipeline$/, '-llm') };
          return start(type, { ...options, args: [{ ...input, queues }] } as typeof options);
        }) as typeof client.workflow.start,
      }),
    });
    const started = await startRound(
      { ...forge.deps, temporal: legacy },
      { skills: ['calc.formulas.sum-column'], tasksPerSkill: 1, seed: freshSeed() },
    );
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.accepted, 1, JSON.stringify(progress.rejectedByReason));
    const history = await client.workflow
      .getHandle(skillWorkflowId(started.roundId, 'calc.formulas.sum-column'))
      .fetchHistory();
    const queuesUsed = new Set(
      (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.taskQueue?.name ?? []),
    );
    assert.ok(
      [...queuesUsed].some((q) => q.endsWith('-llm')),
      `activities ran on the old queue name: ${[...queuesUsed]}`,
    );
  });

  test('cancel stops the round cleanly: nothing left running, packages only for accepted tasks', async () => {
    const started = await startRound(forge.deps, {
      skills: ['calc.formulas.sum-column'],
      tasksPerSkill: 40,
      taskConcurrency: 2,
      seed: freshSeed(),
    });
    await waitFor(
      'a first accepted task',
      async () => (await taskStatusCounts(forge.runtime.database, started.roundId)).accepted,
    );
    await cancelRound(forge.deps, started.roundId);
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'cancelled');
    const counts = await taskStatusCounts(forge.runtime.database, started.roundId);
    assert.equal(counts.running ?? 0, 0);
    assert.ok((counts.accepted ?? 0) < 40, 'the round stopped before finishing');
    const { db } = forge.runtime.database;
    const orphans = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM packages p JOIN tasks t ON t.id = p.task_id
      WHERE p.round_id = ${started.roundId} AND t.status <> 'accepted'`);
    assert.equal(orphans.rows[0]!.n, 0);
    const pk = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM packages WHERE round_id = ${started.roundId}`,
    );
    assert.equal(pk.rows[0]!.n, counts.accepted ?? 0);
    assert.equal((await getRound(forge.deps, started.roundId)).status, 'cancelled');
  });
});
