import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskRef } from '../../activities/types.ts';
import {
  afterFused,
  runFusedPipeline,
  runInProcess,
  runTaskPipeline,
  type StageName,
  type TaskStages,
} from '../../taskcore/pipeline.ts';

type Stage = StageName | 'judgeAndPackage' | 'fused';

const task: TaskRef = {
  roundId: 'r1',
  skillId: 'calc.formulas.sum-column',
  specVersion: 1,
  taskIndex: 0,
  taskId: 't-0',
  taskSeed: 42,
};

/** Stages that record their calls; `verdicts` says which stage rejects and whether prepare asks for office. */
function recordingStages(verdicts: { reject?: Stage; office?: boolean; fail?: Stage } = {}) {
  const calls: Stage[] = [];
  const stage =
    (name: Stage) =>
    async (t: TaskRef): Promise<{ ok: boolean; office?: boolean }> => {
      assert.equal(t, task, `${name} received another task`);
      calls.push(name);
      if (verdicts.fail === name) throw new Error(`${name} crashed`);
      const ok = verdicts.reject !== name;
      return name === 'prepareTask' ? { ok, office: verdicts.office ?? false } : { ok };
    };
  const stages: TaskStages<TaskRef> = {
    authorTask: stage('authorTask'),
    prepareTask: stage('prepareTask'),
    officeVerify: stage('officeVerify'),
    judgeTask: stage('judgeTask'),
    packageTask: stage('packageTask'),
  };
  return { stages, calls };
}

describe('task pipeline', () => {
  test('an office task runs every stage in order and is accepted', async () => {
    const { stages, calls } = recordingStages({ office: true });
    assert.equal(await runTaskPipeline({ stages }, task), 'accepted');
    assert.deepEqual(calls, ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask', 'packageTask']);
  });

  test('a task without office files skips the LibreOffice round trip', async () => {
    const { stages, calls } = recordingStages({ office: false });
    assert.equal(await runTaskPipeline({ stages }, task), 'accepted');
    assert.deepEqual(calls, ['authorTask', 'prepareTask', 'judgeTask', 'packageTask']);
  });

  const cases: { reject: Stage; office: boolean; ran: Stage[] }[] = [
    { reject: 'authorTask', office: true, ran: ['authorTask'] },
    { reject: 'prepareTask', office: true, ran: ['authorTask', 'prepareTask'] },
    { reject: 'officeVerify', office: true, ran: ['authorTask', 'prepareTask', 'officeVerify'] },
    {
      reject: 'judgeTask',
      office: true,
      ran: ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask'],
    },
    { reject: 'judgeTask', office: false, ran: ['authorTask', 'prepareTask', 'judgeTask'] },
    {
      reject: 'packageTask',
      office: true,
      ran: ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask', 'packageTask'],
    },
  ];
  for (const c of cases) {
    test(`a rejection at ${c.reject}${c.office ? '' : ' (no office files)'} stops the pipeline there`, async () => {
      const { stages, calls } = recordingStages(c);
      assert.equal(await runTaskPipeline({ stages }, task), 'rejected');
      assert.deepEqual(calls, c.ran);
    });
  }

  test('a stage that throws propagates the error (the workflow records the task as failed)', async () => {
    const { stages, calls } = recordingStages({ fail: 'judgeTask', office: true });
    await assert.rejects(runTaskPipeline({ stages }, task), /judgeTask crashed/);
    assert.deepEqual(calls, ['authorTask', 'prepareTask', 'officeVerify', 'judgeTask']);
  });

  test('a runner that answers the finish segment in one call makes that call instead of judge and package', async () => {
    for (const [ok, outcome] of [
      [true, 'accepted'],
      [false, 'rejected'],
    ] as const) {
      const { stages, calls } = recordingStages({ office: true });
      const finish = async () => {
        calls.push('judgeAndPackage');
        return { ok };
      };
      assert.equal(await runTaskPipeline({ stages, segments: { finish } }, task), outcome);
      assert.deepEqual(calls, ['authorTask', 'prepareTask', 'officeVerify', 'judgeAndPackage']);
    }
  });

  test('in process, the stages run up to the office check and hand the task over there', async () => {
    const office = recordingStages({ office: true });
    assert.deepEqual(await runInProcess(office.stages, task), { ok: true, office: true });
    assert.deepEqual(office.calls, ['authorTask', 'prepareTask']);
    const plain = recordingStages({ office: false });
    assert.deepEqual(await runInProcess(plain.stages, task), { ok: true });
    assert.deepEqual(plain.calls, ['authorTask', 'prepareTask', 'judgeTask', 'packageTask']);
    const rejected = recordingStages({ office: false, reject: 'judgeTask' });
    assert.deepEqual(await runInProcess(rejected.stages, task), { ok: false });
    assert.deepEqual(rejected.calls, ['authorTask', 'prepareTask', 'judgeTask']);
  });

  test('the fused composition runs the stages in the same order as the split one', async () => {
    for (const office of [true, false]) {
      const split = recordingStages({ office });
      await runTaskPipeline({ stages: split.stages }, task);
      // The in-process call and the stages after the handover share one record of calls.
      const fused = recordingStages({ office });
      const outcome = await runFusedPipeline(
        { stages: fused.stages },
        (t) => runInProcess(fused.stages, t),
        task,
      );
      assert.equal(outcome, 'accepted');
      assert.deepEqual(fused.calls, split.calls);
    }
  });

  test('after a fused call, only an office task goes on, from the office check', async () => {
    const { stages, calls } = recordingStages({ office: true });
    assert.equal(await afterFused({ stages }, task, { ok: false }), 'rejected');
    assert.equal(await afterFused({ stages }, task, { ok: true }), 'accepted');
    assert.deepEqual(calls, []);
    assert.equal(await afterFused({ stages }, task, { ok: true, office: true }), 'accepted');
    assert.deepEqual(calls, ['officeVerify', 'judgeTask', 'packageTask']);
  });
});
