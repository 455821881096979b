import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allocate, skillWeight } from '../../taxonomy/allocate.ts';

describe('allocation from feedback', () => {
  test('weights: more where the student fails but can learn, little when saturated, none when retired or suspect', () => {
    assert.equal(
      skillWeight({ skillId: 'a', status: 'active', class: 'learnable', passRate: 0.2 }).weight,
      1 + 2 * 0.8,
    );
    assert.ok(
      skillWeight({ skillId: 'a', status: 'active', class: 'learnable', passRate: 0.2 }).weight >
        skillWeight({ skillId: 'b', status: 'active', class: 'learnable', passRate: 0.7 }).weight,
    );
    assert.equal(
      skillWeight({ skillId: 'a', status: 'active', class: 'saturated', passRate: 0.95 }).weight,
      0.25,
    );
    assert.equal(
      skillWeight({ skillId: 'a', status: 'retired', class: 'learnable', passRate: 0.1 }).weight,
      0,
    );
    assert.equal(skillWeight({ skillId: 'a', status: 'active', class: 'suspect', passRate: 0 }).weight, 0);
  });

  test('the total is kept, candidates get their share, retired skills none', () => {
    const plan = allocate(
      [
        { skillId: 'weak', status: 'active', class: 'learnable', passRate: 0.3 },
        { skillId: 'ok', status: 'active', class: 'learnable', passRate: 0.7 },
        { skillId: 'done', status: 'active', class: 'saturated', passRate: 0.9 },
        { skillId: 'gone', status: 'retired', class: 'saturated', passRate: 1 },
        { skillId: 'hard', status: 'active', class: 'too_hard', passRate: 0.05 },
        { skillId: 'new1', status: 'candidate' },
        { skillId: 'new2', status: 'candidate' },
      ],
      40,
    );
    const by = Object.fromEntries(plan.map((e) => [e.skillId, e.tasks]));
    assert.equal(
      plan.reduce((a, e) => a + e.tasks, 0),
      40,
    );
    assert.equal(by.gone, 0);
    assert.equal(by.new1, 5);
    assert.equal(by.new2, 5);
    assert.ok(
      by.weak! > by.ok! && by.ok! > by.hard! && by.hard! >= by.done! && by.done! >= 1,
      JSON.stringify(by),
    );
  });

  test('candidates get at least the minimum even when the share is small; every positive weight gets a task', () => {
    const plan = allocate(
      [
        { skillId: 'a', status: 'active', class: 'saturated', passRate: 0.9 },
        { skillId: 'b', status: 'active', class: 'learnable', passRate: 0.1 },
        { skillId: 'c1', status: 'candidate' },
        { skillId: 'c2', status: 'candidate' },
        { skillId: 'c3', status: 'candidate' },
      ],
      8,
    );
    const by = Object.fromEntries(plan.map((e) => [e.skillId, e.tasks]));
    assert.deepEqual(by, { a: 1, b: 1, c1: 2, c2: 2, c3: 2 });
  });

  test('a measured candidate is allocated by its class, not the candidate share', () => {
    const [e] = allocate([{ skillId: 'c', status: 'candidate', class: 'learnable', passRate: 0.5 }], 6);
    assert.equal(e!.tasks, 6);
    assert.match(e!.reason, /learnable/);
  });
});
