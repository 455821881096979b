import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  cancelSignal,
  generationRound,
  progressQuery,
  type RoundWorkflowInput,
  resumeSignal,
  roundWorkflowId,
} from '../../workflows/round.ts';
import { skillWorkflowId } from '../../workflows/skill.ts';
import {
  type FakeRound,
  maxOverlap,
  newRound,
  startWorkflowWorld,
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

const skills = (n: number, tasks = 1) =>
  Array.from({ length: n }, (_, i) => ({ skillId: `calc.test.skill-${i}`, specVersion: 1, tasks }));

function start(round: FakeRound, input: Partial<RoundWorkflowInput> = {}) {
  return world.client.workflow.start(generationRound, {
    workflowId: roundWorkflowId(round.roundId),
    taskQueue: world.queues.prepare,
    args: [
      {
        roundId: round.roundId,
        window: 2,
        taskConcurrency: 1,
        queues: world.queues,
        progressEverySeconds: 1,
        ...input,
      },
    ],
  });
}

/** When each skill workflow ran, as the server recorded it (the latest run of each id). */
async function childIntervals(round: FakeRound) {
  return Promise.all(
    round.plan.map(async (p) => {
      const d = await world.client.workflow.getHandle(skillWorkflowId(round.roundId, p.skillId)).describe();
      return {
        skillId: p.skillId,
        status: d.status.name,
        start: d.startTime.getTime(),
        close: d.closeTime?.getTime() ?? Number.POSITIVE_INFINITY,
      };
    }),
  );
}

const skillsBegun = (round: FakeRound) => new Set(round.gateCalls.map((g) => g.input.skillId));

describe('generationRound on a real Temporal dev server', { timeout: 120_000 }, () => {
  test('runs every skill of the plan, never more than `window` skill workflows at once', async () => {
    const round = newRound(skills(7), { stageMs: 80 });
    const progress = await (await start(round, { window: 3 })).result();
    assert.equal(progress.status, 'completed');
    assert.deepEqual(round.finishRound, ['completed']);
    assert.equal(round.done.size, 7);
    const children = await childIntervals(round);
    assert.ok(
      children.every((c) => c.status === 'COMPLETED'),
      JSON.stringify(children),
    );
    assert.equal(maxOverlap(children), 3, 'the window is full while work remains, and never over');
  });

  test('continues as new past its history limit and still runs each skill exactly once', async () => {
    const round = newRound(skills(9), { stageMs: 1 });
    const handle = await start(round, { window: 2, maxHistoryEvents: 40 });
    const progress = await handle.result();
    assert.equal(progress.status, 'completed');
    assert.deepEqual(round.finishRound, ['completed']);
    const runs = new Map<string, number>();
    for (const g of round.gateCalls)
      if (g.gate === 'run') runs.set(g.input.skillId, (runs.get(g.input.skillId) ?? 0) + 1);
    assert.deepEqual([...runs].sort(), round.plan.map((p) => [p.skillId, 1]).sort());
    // A later run reads the plan from where the previous one stopped.
    assert.ok(
      round.planReads.length >= 2 && round.planReads.some((r) => r.offset > 0),
      JSON.stringify(round.planReads),
    );
    const first = await world.client.workflow
      .getHandle(handle.workflowId, handle.firstExecutionRunId)
      .describe();
    assert.equal(first.status.name, 'CONTINUED_AS_NEW');
  });

  test('the typed cancel signal stops the round, cancels the skills in flight, starts no more', async () => {
    let release = false;
    const round = newRound(skills(6, 3), {
      stage: async (stage) => {
        if (stage === 'judgeTask') while (!release) await sleep(20);
        return { ok: true };
      },
    });
    const handle = await start(round, { window: 2 });
    await until(
      'both skills of the window to reach the judge',
      () => new Set(round.stageCalls.filter((c) => c.stage === 'judgeTask').map((c) => c.taskId)).size === 2,
    );
    await handle.signal(cancelSignal);
    const progress = await handle.result();
    release = true;
    assert.equal(progress.status, 'cancelled');
    assert.deepEqual(round.finishRound, ['cancelled']);
    assert.equal(skillsBegun(round).size, 2, 'no skill started after the cancel');
    assert.deepEqual(
      round.finishTasks.map((f) => f.outcome),
      ['cancelled', 'cancelled'],
    );
    for (const [i, p] of round.plan.entries()) {
      const child = world.client.workflow.getHandle(skillWorkflowId(round.roundId, p.skillId));
      if (i < 2) assert.equal((await child.describe()).status.name, 'COMPLETED', `${p.skillId} ended`);
      else await assert.rejects(child.describe(), WorkflowNotFoundError, `${p.skillId} never started`);
    }
  });

  test('stops starting skills when a skill reports the budget spent, and drains the window', async () => {
    let runs = 0;
    const round = newRound(skills(6, 2), {
      gate: () => (++runs > 3 ? 'budget_exhausted' : undefined),
    });
    const progress = await (await start(round, { window: 2 })).result();
    assert.equal(progress.status, 'budget_exhausted');
    assert.deepEqual(round.finishRound, ['budget_exhausted']);
    assert.equal(round.done.size, 3, 'the tasks the gate let through finished');
    assert.ok(skillsBegun(round).size <= 3, `skills begun: ${[...skillsBegun(round)].join(', ')}`);
  });

  test('pauses on a high error rate until the typed resume signal, then finishes the paused skills', async () => {
    // Until the resume, the judge rejects every task of skill-0; after two rejections the gate
    // pauses the round, as the real gate does when the error rate of recent tasks passes the setting.
    const round = newRound(skills(3, 3), {
      stage: async (stage, task, r) => {
        await sleep(10);
        if (stage === 'judgeTask' && task.skillId.endsWith('-0') && !r.statusWrites.includes('running')) {
          const rejected = [...r.done.values()].filter((v) => v === 'rejected').length;
          if (rejected + 1 >= 2) r.status = 'paused_error_rate';
          return { ok: false, reason: 'judge_rejected', node: 'verify_judge', detail: 'the total is wrong' };
        }
        return { ok: true };
      },
    });
    const handle = await start(round, { window: 2 });
    await until('the round to pause', () => round.statusWrites.includes('paused_error_rate'));
    await sleep(300);
    const doneWhilePaused = round.done.size;
    const progress = await handle.query(progressQuery);
    assert.equal(progress?.status, 'paused_error_rate');
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    await sleep(500);
    assert.equal(round.done.size, doneWhilePaused, 'nothing runs while paused');

    await handle.signal(resumeSignal);
    const final = await handle.result();
    assert.equal(final.status, 'completed');
    assert.deepEqual(round.statusWrites, ['paused_error_rate', 'running']);
    // Every task of every skill ended, the paused ones after the resume.
    assert.equal(round.done.size, 9);
    assert.deepEqual(round.finishRound, ['completed']);
  });

  test('a cancel through Temporal (UI or CLI) also ends the round as cancelled and records it', async () => {
    let release = false;
    const round = newRound(skills(4, 2), {
      stage: async (stage) => {
        if (stage === 'judgeTask') while (!release) await sleep(20);
        return { ok: true };
      },
    });
    const handle = await start(round, { window: 2 });
    await until(
      'both skills of the window to reach the judge',
      () => new Set(round.stageCalls.filter((c) => c.stage === 'judgeTask').map((c) => c.taskId)).size === 2,
    );
    await handle.cancel();
    const progress = await handle.result();
    release = true;
    assert.equal(progress.status, 'cancelled');
    assert.deepEqual(round.finishRound, ['cancelled'], 'the round row is closed, not left running');
    assert.equal(skillsBegun(round).size, 2, 'no skill started after the cancel');
    // The cancel reaches the skill workflows too: each records its task in flight as cancelled.
    await until('both skills to record their task as cancelled', () => round.finishTasks.length === 2);
    assert.deepEqual(
      round.finishTasks.map((f) => f.outcome),
      ['cancelled', 'cancelled'],
    );
  });
});
