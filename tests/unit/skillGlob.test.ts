import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectSkills } from '../../app/rounds/start.ts';
import { globToLike, matchGlob } from '../../infra/skillGlob.ts';
import { exportRequest, startRoundRequest } from '../../server/schemas.ts';

describe('skill globs match without backtracking, with caps', () => {
  test('the same answers as a shell glob', () => {
    const cases: [string, string, boolean][] = [
      ['calc.*', 'calc.formulas.sum-column', true],
      ['calc.*', 'writer.styles.heading', false],
      ['*.sum-*', 'calc.formulas.sum-column', true],
      ['calc.formulas.?um-column', 'calc.formulas.sum-column', true],
      ['calc.formulas.?um-column', 'calc.formulas.um-column', false],
      ['*', '', true],
      ['a*b*c', 'abc', true],
      ['a*b*c', 'acb', false],
      ['a*a', 'a', false],
      ['*ab*ab', 'xabyab', true],
      ['calc.(x)+', 'calc.(x)+', true],
      ['calc.[a]', 'calc.a', false],
    ];
    for (const [glob, id, want] of cases) assert.equal(matchGlob(glob, id), want, `${glob} ~ ${id}`);
  });

  test('the glob that blocked the API for minutes is refused by the round API and selectSkills', () => {
    const redos = '*a*a*a*a*a*a*a*a*a*a*a*b';
    assert.equal(redos.length, 24);
    const parsed = startRoundRequest.safeParse({ skills: [redos] });
    assert.equal(parsed.success, false);
    assert.match(parsed.error!.issues[0]!.message, /^skill glob has 12 wildcards \(at most 8\)$/);
    assert.throws(
      () => selectSkills([{ id: `${'a'.repeat(60)}`, status: 'active' }], [redos]),
      /skill glob "\*a\*a\*a\*a\*a\*a\*a\*a\*a\*a\*a\*b" has 12 wildcards \(at most 8\)/,
    );
    assert.equal(
      exportRequest.safeParse({ roundId: 'r1', format: 'jsonl', skills: 'x'.repeat(121) }).success,
      false,
    );
    assert.throws(() => globToLike('?'.repeat(9)), /skill glob "\?{9}" has 9 wildcards/);
  });

  test('a glob at the caps still answers (no exponential work) on a long id', () => {
    const id = 'a'.repeat(5000);
    assert.equal(matchGlob('*a*a*a*a*a*a*a*b', id), false);
    assert.equal(matchGlob('*a*a*a*a*a*a*a*a', id), true);
    assert.deepEqual(selectSkills([{ id: 'calc.x', status: 'active' }], ['calc.?']), ['calc.x']);
  });

  test('globs become LIKE patterns with LIKE metacharacters escaped', () => {
    assert.equal(globToLike('calc.*'), 'calc.%');
    assert.equal(globToLike('a_b%c\\?'), 'a\\_b\\%c\\\\_');
  });
});
