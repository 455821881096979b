import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { createRoundActivities } from '../../activities/round.ts';
import { createSegmentActivities } from '../../activities/segments.ts';
import { taskIdFor } from '../../activities/taskIdentity.ts';
import type { BeginTaskInput, Gate } from '../../activities/types.ts';
import { roundSkills, rounds, tasks } from '../../infra/db/schema.ts';
import { SpecStore } from '../../skills/store.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

/**
 * A batch of a skill's slots on the real Postgres: the round gate in one transaction against the
 * gate slot by slot (same answers in the same order, the budget counting each admitted slot as in
 * flight), and the batched fused activity's answers for tasks that have ended or that throw.
 */
// No such spec exists anywhere, so a task that reaches authoring always throws the same error.
const SKILL = 'test.batch.no-such-skill';
let svc: TestServices;
let gate: ReturnType<typeof createRoundActivities>;
let stages: ReturnType<typeof createSegmentActivities>;
const made: string[] = [];

before(async () => {
  svc = await testServices();
  const deps = {
    config: svc.config,
    database: svc.database,
    store: svc.store,
    specs: new SpecStore(svc.database),
  };
  gate = createRoundActivities(deps);
  stages = createSegmentActivities(deps);
});

after(async () => {
  await svc.database.db.delete(tasks).where(inArray(tasks.roundId, made));
  await svc.database.db.delete(roundSkills).where(inArray(roundSkills.roundId, made));
  await svc.database.db.delete(rounds).where(inArray(rounds.id, made));
  await closeTestServices();
});

/** A running round with a budget for three reserved tasks, one slot already accepted and one other task in flight. */
async function newRound(status = 'running'): Promise<string> {
  const id = `gate-${randomUUID()}`;
  made.push(id);
  const { db } = svc.database;
  await db.insert(rounds).values({
    id,
    status,
    seed: 7,
    budgetUsd: 0.035,
    settings: { tasksPerSkill: 10, window: 1, taskConcurrency: 6, reservationUsd: 0.01 },
    workflowId: `round-${id}`,
  });
  await db
    .insert(roundSkills)
    .values({ roundId: id, position: 0, skillId: SKILL, specVersion: 1, tasks: 10 });
  const row = (index: number, taskStatus: string) => ({
    id: taskIdFor(id, SKILL, index),
    roundId: id,
    skillId: SKILL,
    specVersion: 1,
    taskIndex: index,
    seed: index,
    apps: ['os'],
    status: taskStatus,
  });
  await db.insert(tasks).values([row(0, 'accepted'), row(9, 'running')]);
  return id;
}

const slots = (roundId: string, indices: number[]): BeginTaskInput[] =>
  indices.map((taskIndex) => ({ roundId, skillId: SKILL, specVersion: 1, taskIndex }));

/** A gate's answer without the round id (two rounds are compared). */
const shape = (g: Gate) =>
  g.status === 'run'
    ? { status: g.status, index: g.task.taskIndex, seed: g.task.taskSeed, level: g.task.level }
    : g.status === 'stop'
      ? { status: g.status, reason: g.reason }
      : { status: g.status };

describe('round gate: a batch of slots in one transaction', () => {
  test('answers as the gate slot by slot does: done, admitted while the budget holds, then stopped', async () => {
    const [batched, single] = [await newRound(), await newRound()];
    const indices = [0, 1, 2, 3, 4];
    const answers = await gate.beginTasks(slots(batched, indices));
    const oneByOne: Gate[] = [];
    for (const input of slots(single, indices)) oneByOne.push(await gate.beginTask(input));
    // Budget 0.035 at 0.01 reserved per task, one task already in flight: two more fit.
    assert.deepEqual(
      answers.map((g) => g.status),
      ['done', 'run', 'run', 'stop', 'stop'],
    );
    assert.deepEqual(
      answers.filter((g) => g.status === 'stop').map((g) => g.status === 'stop' && g.reason),
      ['budget_exhausted', 'budget_exhausted'],
    );
    // Same seed for both rounds, so the admitted tasks have the same seeds and levels too.
    assert.deepEqual(answers.map(shape), oneByOne.map(shape));
    const running = await svc.database.db
      .select({ index: tasks.taskIndex })
      .from(tasks)
      .where(eq(tasks.roundId, batched));
    assert.deepEqual(running.map((r) => r.index).sort(), [0, 1, 2, 9]);
  });

  test('a cancelled round stops every open slot; ended slots still answer done', async () => {
    const roundId = await newRound('cancelled');
    const answers = await gate.beginTasks(slots(roundId, [0, 1, 2]));
    assert.deepEqual(answers.map(shape), [
      { status: 'done' },
      { status: 'stop', reason: 'cancelled' },
      { status: 'stop', reason: 'cancelled' },
    ]);
  });

  test('slots of two rounds in one call are refused, naming the rule', async () => {
    const [a, b] = [await newRound(), await newRound()];
    await assert.rejects(
      gate.beginTasks([...slots(a, [1]), ...slots(b, [1])]),
      /one gate transaction serves one round/,
    );
  });

  test("the round's status is read at every gate, though its seed and settings once", async () => {
    const roundId = await newRound();
    assert.equal((await gate.beginTasks(slots(roundId, [1])))[0]?.status, 'run');
    await svc.database.db.update(rounds).set({ status: 'cancelled' }).where(eq(rounds.id, roundId));
    assert.deepEqual((await gate.beginTasks(slots(roundId, [2]))).map(shape), [
      { status: 'stop', reason: 'cancelled' },
    ]);
  });

  test('a round that does not exist is named, and not remembered as missing once it does', async () => {
    const roundId = `gate-${randomUUID()}`;
    await assert.rejects(gate.beginTasks(slots(roundId, [1])), new RegExp(`round ${roundId} does not exist`));
    made.push(roundId);
    await svc.database.db.insert(rounds).values({
      id: roundId,
      status: 'running',
      seed: 7,
      settings: { tasksPerSkill: 10, window: 1, taskConcurrency: 6 },
      workflowId: `round-${roundId}`,
    });
    assert.equal((await gate.beginTasks(slots(roundId, [1])))[0]?.status, 'run');
  });

  test('the error rate counts the last finished tasks since the round resumed, and pauses it with the reason', async () => {
    const roundId = `gate-${randomUUID()}`;
    made.push(roundId);
    const { db } = svc.database;
    await db.insert(rounds).values({
      id: roundId,
      status: 'running',
      seed: 7,
      settings: { tasksPerSkill: 20, window: 1, taskConcurrency: 6, pauseWindow: 5, pauseRejectRate: 0.5 },
      workflowId: `round-${roundId}`,
    });
    const finished = (index: number, status: string, minutesAgo: number) => ({
      id: taskIdFor(roundId, SKILL, index),
      roundId,
      skillId: SKILL,
      specVersion: 1,
      taskIndex: index,
      seed: index,
      apps: ['os'],
      status,
      rejectReason: status === 'accepted' ? null : 'service_unavailable:minio',
      finishedAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    // Newest first: three failures, then two accepted, then older accepted ones outside the window.
    await db
      .insert(tasks)
      .values([
        finished(0, 'failed', 1),
        finished(1, 'failed', 2),
        finished(2, 'rejected', 3),
        finished(3, 'accepted', 4),
        finished(4, 'accepted', 5),
        ...[5, 6, 7, 8, 9].map((i) => finished(i, 'accepted', 10 + i)),
      ]);
    assert.deepEqual((await gate.beginTasks(slots(roundId, [10, 11]))).map(shape), [
      { status: 'stop', reason: 'paused_error_rate' },
      { status: 'stop', reason: 'paused_error_rate' },
    ]);
    const [paused] = await db.select().from(rounds).where(eq(rounds.id, roundId));
    assert.ok(paused);
    assert.equal(paused.status, 'paused_error_rate');
    assert.match(
      String((paused.progress as { pauseReason?: string }).pauseReason),
      /minio unavailable: 3 of 3/,
    );
    // Resumed now: the failures before it no longer count, and too few tasks have finished since.
    await db
      .update(rounds)
      .set({ status: 'running', progress: { resumedAt: new Date().toISOString() } })
      .where(eq(rounds.id, roundId));
    assert.deepEqual(
      (await gate.beginTasks(slots(roundId, [10, 11]))).map((g) => g.status),
      ['run', 'run'],
    );
  });
});

describe('the batched fused activity', () => {
  test('answers ended tasks from their records and a throwing task with its error, the others untouched', async () => {
    const roundId = await newRound();
    await svc.database.db.insert(tasks).values({
      id: taskIdFor(roundId, SKILL, 3),
      roundId,
      skillId: SKILL,
      specVersion: 1,
      taskIndex: 3,
      seed: 3,
      apps: ['os'],
      status: 'rejected',
    });
    const ref = (taskIndex: number) => ({
      roundId,
      skillId: SKILL,
      specVersion: 1,
      taskIndex,
      taskId: taskIdFor(roundId, SKILL, taskIndex),
      taskSeed: taskIndex,
    });
    // 0 accepted and 3 rejected earlier (a retried batch); 9 is running, and its authoring throws:
    // its skill has no spec.
    const answers = await stages.authorToPackageBatch([ref(0), ref(3), ref(9)]);
    assert.deepEqual(answers[0], { ok: true });
    assert.deepEqual(answers[1], {
      ok: false,
      reason: 'rejected',
      node: 'workflow',
      detail: 'the task had already ended rejected',
    });
    assert.ok(answers[2] && 'error' in answers[2], JSON.stringify(answers[2]));
    assert.match(answers[2].error, /skill spec test\.batch\.no-such-skill version 1 is not in the database/);
    const [running] = await svc.database.db
      .select({ status: tasks.status })
      .from(tasks)
      .where(eq(tasks.id, taskIdFor(roundId, SKILL, 9)));
    assert.equal(running?.status, 'running');
  });
});
