import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, thresholds } from '../../taxonomy/classify.ts';
import { expansionTargets } from '../../taxonomy/expansion/targets.ts';
import { feedbackLineSchema } from '../../taxonomy/feedback.ts';
import { computeStats } from '../../taxonomy/stats.ts';
import { wilsonInterval } from '../../taxonomy/wilson.ts';

const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 0.005, `${a} ≉ ${b}`);

describe('feedback statistics', () => {
  test('Wilson interval matches known values and stays inside [0, 1]', () => {
    const a = wilsonInterval(5, 10);
    near(a.low, 0.2366);
    near(a.high, 0.7634);
    const z = wilsonInterval(0, 10);
    assert.equal(z.low, 0);
    near(z.high, 0.2775);
    const f = wilsonInterval(10, 10);
    near(f.low, 0.7225);
    assert.equal(f.high, 1);
    assert.deepEqual(wilsonInterval(0, 0), { low: 0, high: 1 });
  });

  const even = (tasks: number, runs: number, successes: number) => {
    const perTask = Array.from({ length: tasks }, (_, i) => ({
      runs,
      successSum: Math.floor(successes / tasks) + (i < successes % tasks ? 1 : 0),
    }));
    return { attempts: tasks * runs, successSum: successes, acceptedTasks: tasks, perTask };
  };

  test('classes by the documented thresholds', () => {
    assert.equal(classify({ ...even(3, 4, 12), difficulty: 1 }).class, 'saturated');
    assert.equal(classify({ ...even(3, 4, 0), difficulty: 3 }).class, 'too_hard');
    assert.equal(classify({ ...even(3, 4, 5), difficulty: 2 }).class, 'learnable');
    assert.equal(classify({ ...even(1, 3, 3), difficulty: 1 }).class, 'unmeasured');
    assert.equal(thresholds.minAttempts, 4);
  });

  test('suspect: an easy skill the oracle solves but the student never does, or tasks that disagree wildly', () => {
    const easy = classify({ ...even(3, 4, 0), difficulty: 1 });
    assert.equal(easy.class, 'suspect');
    assert.match(easy.reason, /never/);
    const split = classify({
      attempts: 12,
      successSum: 6,
      difficulty: 3,
      acceptedTasks: 3,
      perTask: [
        { runs: 6, successSum: 6 },
        { runs: 6, successSum: 0 },
      ],
    });
    assert.equal(split.class, 'suspect');
    assert.match(split.reason, /disagree/);
  });

  test('stats per skill, category and app, with mean steps', () => {
    const info = [
      { skillId: 'calc.f.sum', apps: ['calc'], category: 'f', difficulty: 1, acceptedTasks: 2 },
      { skillId: 'calc.g.avg', apps: ['calc'], category: 'g', difficulty: 2, acceptedTasks: 1 },
      { skillId: 'multi.x.y', apps: ['calc', 'writer'], category: 'z', difficulty: 3, acceptedTasks: 1 },
    ];
    const rows = [
      { taskId: 't1', skillId: 'calc.f.sum', success: 1, steps: 10 },
      { taskId: 't1', skillId: 'calc.f.sum', success: 0.5, steps: 20 },
      { taskId: 't2', skillId: 'calc.f.sum', success: 0, steps: null },
      { taskId: 't3', skillId: 'calc.g.avg', success: 1, steps: 6 },
    ];
    const s = computeStats('r', info, rows);
    const sum = s.skills.find((x) => x.skillId === 'calc.f.sum')!;
    assert.equal(sum.attempts, 3);
    near(sum.passRate, 0.5);
    assert.equal(sum.meanSteps, 15);
    assert.equal(sum.tasksAttempted, 2);
    assert.equal(sum.class, 'unmeasured');
    assert.deepEqual(
      s.apps.map((a) => [a.key, a.attempts]),
      [
        ['calc', 4],
        ['calc-writer', 0],
      ],
    );
    assert.deepEqual(
      s.categories.map((c) => c.key),
      ['calc-writer/z', 'calc/f', 'calc/g'],
    );
    near(s.apps[0]!.passRate, 2.5 / 4);
    assert.equal(s.apps[1]!.meanSteps, null);
  });

  test('expansion targets: too hard split first, weak learnable siblings, saturated harder (+ retire when solved)', () => {
    const mk = (skillId: string, cls: string, passRate: number) =>
      ({ skillId, class: cls, passRate, attempts: 12, difficulty: 3 }) as never;
    const t = expansionTargets(
      [
        mk('a', 'saturated', 1),
        mk('b', 'learnable', 0.3),
        mk('c', 'too_hard', 0),
        mk('d', 'learnable', 0.7),
        mk('e', 'suspect', 0),
        mk('f', 'saturated', 0.85),
      ],
      10,
    );
    assert.deepEqual(
      t.map((x) => [x.skillId, x.action, x.allowed.join('+')]),
      [
        ['c', 'split', 'split'],
        ['b', 'sibling', 'sibling'],
        ['a', 'harder', 'harder+retire'],
        ['f', 'harder', 'harder'],
      ],
    );
    assert.equal(expansionTargets([mk('a', 'saturated', 1), mk('c', 'too_hard', 0)], 1).length, 1);
  });

  test('feedback line schema: required fields, ranges, no unknown keys', () => {
    const ok = {
      task_id: '6f27683a-15da-48ff-8961-c63191f47479',
      student_run_id: 'run-1',
      success: 0.5,
      steps: 3,
    };
    assert.ok(feedbackLineSchema.safeParse(ok).success);
    assert.ok(feedbackLineSchema.safeParse({ ...ok, failure_tags: ['x'], tokens: 10 }).success);
    assert.equal(feedbackLineSchema.safeParse({ ...ok, success: 1.5 }).success, false);
    assert.equal(feedbackLineSchema.safeParse({ ...ok, task_id: 'nope' }).success, false);
    assert.equal(feedbackLineSchema.safeParse({ ...ok, extra: 1 }).success, false);
    assert.equal(feedbackLineSchema.safeParse({ ...ok, steps: undefined }).success, false);
  });
});
