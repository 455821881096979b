import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';

/**
 * Every skill declares at least three wrong solutions of its own (`wrong:` next to `solve:`): the
 * generic ones (no-op, save-unchanged, delete-target, bulk-everything) prove little about a rubric,
 * the skill-specific ones are what a careless agent in that app would really leave.
 */
const MINIMUM = 3;

function declaredWrongSolutions(spec: SkillSpec): string[] {
  return spec.nodes.flatMap((n) => ('solve' in n ? n.wrong.map((w) => w.name) : []));
}

test(`every skill declares at least ${MINIMUM} wrong solutions of its own, with distinct names`, () => {
  const short: string[] = [];
  const duplicated: string[] = [];
  for (const { spec } of loadSkillLibrary().values()) {
    const names = declaredWrongSolutions(spec);
    if (names.length < MINIMUM) short.push(`${spec.id} (${names.length})`);
    if (new Set(names).size !== names.length) duplicated.push(spec.id);
  }
  assert.deepEqual(
    short.sort(),
    [],
    `skills with fewer than ${MINIMUM} declared wrong solutions: ${short.join(', ')}`,
  );
  assert.deepEqual(
    duplicated,
    [],
    `skills with two wrong solutions of the same name: ${duplicated.join(', ')}`,
  );
});
