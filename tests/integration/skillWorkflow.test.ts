import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import { type SkillWorkflowInput, skillWorkflow, skillWorkflowId } from '../../workflows/skill.ts';
import {
  type FakeRound,
  newRound,
  startWorkflowWorld,
  taskIdOf,
  until,
  type WorkflowWorld,
} from '../support/workflowWorld.ts';

let world: WorkflowWorld;
before(async () => {
  world = await startWorkflowWorld();
});
after(async () => {
  await world?.close();
});

const SKILL = 'calc.formulas.sum-column';

function start(round: FakeRound, input: Partial<SkillWorkflowInput> = {}) {
  return world.client.workflow.start(skillWorkflow, {
    workflowId: skillWorkflowId(round.roundId, SKILL),
    taskQueue: world.queues.prepare,
    args: [
      {
        roundId: round.roundId,
        skillId: SKILL,
        specVersion: 1,
        tasks: 4,
        taskConcurrency: 1,
        queues: world.queues,
        ...input,
      },
    ],
  });
}

/** The gate's "run" answers per task index: each index runs once unless the test says otherwise. */
const runsPerIndex = (round: FakeRound) => {
  const runs = new Map<number, number>();
  for (const g of round.gateCalls)
    if (g.gate === 'run') runs.set(g.input.taskIndex, (runs.get(g.input.taskIndex) ?? 0) + 1);
  return runs;
};

describe('skillWorkflow on a real Temporal dev server', { timeout: 120_000 }, () => {
  test('runs every task through the pipeline, each stage on its own queue', async () => {
    const round = newRound([], {
      // Even tasks have office files; task 3 is rejected by the judge.
      stage: async (stage, task) => {
        await sleep(5);
        if (stage === 'prepareTask') return { ok: true, office: task.taskIndex % 2 === 0 };
        if (stage === 'judgeTask' && task.taskIndex === 3)
          return { ok: false, reason: 'judge_rejected', node: 'verify_judge', detail: 'rubric item 2 fails' };
        return { ok: true };
      },
    });
    const summary = await (await start(round, { tasks: 4 })).result();
    assert.deepEqual(summary, {
      skillId: SKILL,
      stopped: 'completed',
      started: 4,
      outcomes: { accepted: 3, rejected: 1, failed: 0, cancelled: 0 },
    });
    const stagesOf = (i: number) =>
      round.stageCalls.filter((c) => c.taskId === taskIdOf(round.roundId, SKILL, i)).map((c) => c.stage);
    assert.deepEqual(stagesOf(0), ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask', 'packageTask']);
    assert.deepEqual(stagesOf(1), ['authorTask', 'prepareTask', 'judgeTask', 'packageTask']);
    assert.deepEqual(stagesOf(3), ['authorTask', 'prepareTask', 'judgeTask']);
    const queueOf = {
      authorTask: 'pipeline',
      judgeTask: 'pipeline',
      prepareTask: 'prepare',
      // Judge and package are one activity on the pipeline queue (workflows/skill.ts).
      packageTask: 'pipeline',
      officeVerify: 'office',
    } as const;
    for (const c of round.stageCalls)
      assert.equal(c.queue, world.queues[queueOf[c.stage]], `${c.stage} ran on ${c.queue}`);
  });

  test('fused stages: one activity per task on the pipeline queue, office files leave it after prepare', async () => {
    const round = newRound([], {
      // Even tasks have office files; task 3 is rejected by the judge, task 5 by prepare.
      stage: async (stage, task) => {
        if (stage === 'prepareTask' && task.taskIndex === 5)
          return { ok: false, reason: 'oracle_fails_rubric', node: 'verify_solved', detail: 'check 0' };
        if (stage === 'prepareTask') return { ok: true, office: task.taskIndex % 2 === 0 };
        if (stage === 'judgeTask' && task.taskIndex === 3)
          return { ok: false, reason: 'judge_rejected', node: 'verify_judge', detail: 'rubric item 2 fails' };
        return { ok: true };
      },
    });
    const handle = await start(round, { tasks: 6, stages: 'fused' });
    const summary = await handle.result();
    assert.deepEqual(summary.outcomes, { accepted: 4, rejected: 2, failed: 0, cancelled: 0 });
    const stagesOf = (i: number) =>
      round.stageCalls.filter((c) => c.taskId === taskIdOf(round.roundId, SKILL, i)).map((c) => c.stage);
    assert.deepEqual(stagesOf(0), ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask', 'packageTask']);
    assert.deepEqual(stagesOf(1), ['authorTask', 'prepareTask', 'judgeTask', 'packageTask']);
    assert.deepEqual(stagesOf(3), ['authorTask', 'prepareTask', 'judgeTask']);
    assert.deepEqual(stagesOf(5), ['authorTask', 'prepareTask']);
    for (const c of round.stageCalls)
      assert.equal(
        c.queue,
        c.stage === 'officeVerify' ? world.queues.office : world.queues.pipeline,
        c.stage,
      );
    // The history holds the activities a task needed: one for a task without office files, three
    // with them (fused, office, judge with package); the round gate is a local activity (a marker).
    const history = await handle.fetchHistory();
    const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).length;
    assert.equal(scheduled, 3 + 3 * 3);
    const markers = history.events!.filter((e) => e.markerRecordedEventAttributes).length;
    assert.ok(markers >= 6, `${markers} markers for 6 gates`);
  });

  test('batched fused stages: one activity for several tasks, each going on by itself', async () => {
    const round = newRound([], {
      // In the first batch: task 1's prepare throws for good (inside the batch and again when it runs
      // alone), task 2 has office files. Task 4 is rejected by the judge; the rest are accepted.
      stage: async (stage, task) => {
        if (stage === 'prepareTask' && task.taskIndex === 1)
          throw ApplicationFailure.nonRetryable('workbook template is missing', 'SpecBroken');
        if (stage === 'prepareTask') return { ok: true, office: task.taskIndex === 2 };
        if (stage === 'judgeTask' && task.taskIndex === 4)
          return { ok: false, reason: 'judge_rejected', node: 'verify_judge', detail: 'rubric item 2 fails' };
        return { ok: true };
      },
    });
    const handle = await start(round, { tasks: 7, taskConcurrency: 3, taskBatch: 3, stages: 'fused' });
    const summary = await handle.result();
    assert.deepEqual(summary.outcomes, { accepted: 5, rejected: 1, failed: 1, cancelled: 0 });
    assert.equal(summary.started, 7);
    // The first batch takes every slot; later ones take what has freed (a batch of one is a task of
    // its own), never more than the batch size, and no slot twice.
    assert.deepEqual(round.batches[0], [0, 1, 2]);
    assert.ok(
      round.batches.every((b) => b.length >= 2 && b.length <= 3),
      JSON.stringify(round.batches),
    );
    const batched = round.batches.flat();
    assert.equal(new Set(batched).size, batched.length);
    const alone = [0, 1, 2, 3, 4, 5, 6].filter((i) => !batched.includes(i));
    const stagesOf = (i: number) =>
      round.stageCalls.filter((c) => c.taskId === taskIdOf(round.roundId, SKILL, i)).map((c) => c.stage);
    for (const i of [0, 3, 5, 6])
      assert.deepEqual(stagesOf(i), ['authorTask', 'prepareTask', 'judgeTask', 'packageTask'], `task ${i}`);
    assert.deepEqual(stagesOf(2), ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask', 'packageTask']);
    assert.deepEqual(stagesOf(4), ['authorTask', 'prepareTask', 'judgeTask']);
    // The task that threw ran twice (in the batch, then alone), and only it failed.
    assert.deepEqual(stagesOf(1), ['authorTask', 'prepareTask', 'authorTask', 'prepareTask']);
    assert.deepEqual(
      round.finishTasks.map((f) => [f.taskId, f.outcome]),
      [[taskIdOf(round.roundId, SKILL, 1), 'failed']],
    );
    assert.match(round.finishTasks[0]!.detail ?? '', /workbook template is missing/);
    const history = await handle.fetchHistory();
    const types = history
      .events!.filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    assert.equal(types.filter((t) => t === 'authorToPackageBatch').length, round.batches.length);
    // Besides the batches: task 2's office round trip and judge with package, task 1 run alone and
    // the record of its failure, and one activity for each task that had a slot to itself.
    const count = (name: string) => types.filter((t) => t === name).length;
    assert.equal(count('authorToPackage'), 1 + alone.length);
    assert.deepEqual([count('officeVerify'), count('judgeAndPackage'), count('finishTask')], [1, 1, 1]);
    assert.equal(types.length, round.batches.length + 1 + alone.length + 3);
  });

  test('never runs more than taskConcurrency tasks at once, and does use them', async () => {
    const round = newRound([], { stageMs: 60 });
    const summary = await (await start(round, { tasks: 8, taskConcurrency: 3 })).result();
    assert.equal(summary.outcomes.accepted, 8);
    assert.equal(round.maxTasksInFlight, 3);
  });

  test('continues as new past its history limit, carrying the next index and the counts', async () => {
    const round = newRound([], { stageMs: 1 });
    const handle = await start(round, { tasks: 12, taskConcurrency: 2, maxHistoryEvents: 40 });
    const summary = await handle.result();
    assert.deepEqual(summary.outcomes, { accepted: 12, rejected: 0, failed: 0, cancelled: 0 });
    assert.equal(summary.started, 12);
    assert.deepEqual(
      [...runsPerIndex(round)].sort((a, b) => a[0] - b[0]),
      Array.from({ length: 12 }, (_, i) => [i, 1]),
    );
    const first = await world.client.workflow
      .getHandle(handle.workflowId, handle.firstExecutionRunId)
      .describe();
    assert.equal(first.status.name, 'CONTINUED_AS_NEW');
    const last = await handle.describe();
    assert.notEqual(last.runId, handle.firstExecutionRunId);
    assert.equal(last.status.name, 'COMPLETED');
  });

  test('stops starting tasks when the gate says the budget is spent', async () => {
    const round = newRound([], {
      gate: (input) => (input.taskIndex >= 3 ? 'budget_exhausted' : undefined),
    });
    const summary = await (await start(round, { tasks: 10, taskConcurrency: 1 })).result();
    assert.equal(summary.stopped, 'budget_exhausted');
    assert.equal(summary.started, 3);
    assert.equal(summary.outcomes.accepted, 3);
    // One task at a time: the refused index is the last one the gate saw.
    assert.deepEqual(
      round.gateCalls.map((g) => [g.input.taskIndex, g.gate]),
      [
        [0, 'run'],
        [1, 'run'],
        [2, 'run'],
        [3, 'stop'],
      ],
    );
  });

  test('a task already accepted or rejected is skipped, not run again', async () => {
    const round = newRound();
    round.done.set(taskIdOf(round.roundId, SKILL, 1), 'accepted');
    round.done.set(taskIdOf(round.roundId, SKILL, 2), 'rejected');
    const summary = await (await start(round, { tasks: 4 })).result();
    assert.equal(summary.started, 2);
    assert.deepEqual([...runsPerIndex(round).keys()].sort(), [0, 3]);
  });

  test('a stage that fails for good marks the task failed with its error and goes on', async () => {
    const round = newRound([], {
      stage: async (stage, task) => {
        if (stage === 'prepareTask' && task.taskIndex === 1)
          throw ApplicationFailure.nonRetryable('workbook template is missing', 'SpecBroken');
        return { ok: true };
      },
    });
    const summary = await (await start(round, { tasks: 3 })).result();
    assert.deepEqual(summary.outcomes, { accepted: 2, rejected: 0, failed: 1, cancelled: 0 });
    assert.equal(round.finishTasks.length, 1);
    assert.equal(round.finishTasks[0]!.taskId, taskIdOf(round.roundId, SKILL, 1));
    assert.equal(round.finishTasks[0]!.outcome, 'failed');
    // The record names the error that explains the failure, not only the wrapper around it.
    assert.match(round.finishTasks[0]!.detail ?? '', /workbook template is missing/);
  });

  test('cancel: the task in flight is recorded as cancelled and no task starts after it', async () => {
    let release = false;
    const round = newRound([], {
      stage: async (stage) => {
        if (stage === 'judgeTask') while (!release) await sleep(20);
        return { ok: true };
      },
    });
    const handle = await start(round, { tasks: 5, taskConcurrency: 1 });
    await until('the first task to reach the judge', () =>
      round.stageCalls.some((c) => c.stage === 'judgeTask'),
    );
    await handle.cancel();
    const summary = await handle.result();
    release = true;
    assert.equal(summary.stopped, 'cancelled');
    assert.deepEqual(summary.outcomes, { accepted: 0, rejected: 0, failed: 0, cancelled: 1 });
    assert.deepEqual(
      round.finishTasks.map((f) => [f.taskId, f.outcome]),
      [[taskIdOf(round.roundId, SKILL, 0), 'cancelled']],
    );
    assert.match(round.finishTasks[0]!.detail ?? '', /cancel/i);
    assert.equal(round.gateCalls.length, 1, 'no task was begun after the cancel');
  });
});
