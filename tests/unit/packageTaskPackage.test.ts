import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTaskPackage, parseTaskPackage, TASK_FORMAT } from '../../taskpack/taskPackage.ts';
import { calcPackageInput } from './packageFixtures.ts';

/** Rebuilds an object with its keys in reverse order at every level. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}

test('the same package in any key or artifact order gives the same bytes', () => {
  const { input } = calcPackageInput({ id: '0b5a3e3c-7a8e-4d5e-9f3a-2b1c0d9e8f7a' });
  const a = buildTaskPackage(input);
  const shuffled = reverseKeys({ ...input, artifacts: [...input.artifacts].reverse() });
  const b = buildTaskPackage(shuffled);
  assert.equal(a.taskJsonText, b.taskJsonText);
  assert.equal(a.setupSh, b.setupSh);
  assert.equal(a.sha256, b.sha256);
  assert.equal(a.taskJson.format, TASK_FORMAT);
  assert.deepEqual(
    a.taskJson.artifacts.map((x) => x.role),
    ['initial', 'solved'],
  );
});

test('stored task.json parses back to the same package', () => {
  const built = buildTaskPackage(calcPackageInput().input);
  assert.deepEqual(parseTaskPackage(built.taskJsonText, 'task.json'), built.taskJson);
});

test('errors name the field and the source', () => {
  const { input } = calcPackageInput();
  assert.throws(() => buildTaskPackage({ ...input, id: 'not-a-uuid' }), /id/);
  assert.throws(() => buildTaskPackage({ ...input, difficulty: 9 }), /difficulty/);
  assert.throws(
    () => parseTaskPackage('{"id":', 'packs/x/task.json'),
    /packs\/x\/task\.json: not valid JSON/,
  );
  assert.throws(() => parseTaskPackage('{}', 'a.json'), /a\.json: not a cua-forge\/task@1 package/);
  const wrongHash = structuredClone(input);
  const step = wrongHash.setup[0];
  if (step?.type !== 'download' || !step.files[0]) throw new Error('fixture changed');
  step.files[0].sha256 = '0'.repeat(64);
  assert.throws(() => buildTaskPackage(wrongHash), /has a different sha256/);
  const solvedDownload = structuredClone(input);
  const solved = solvedDownload.artifacts.find((x) => x.role === 'solved');
  if (!solved) throw new Error('fixture changed');
  solvedDownload.setup.push({
    type: 'download',
    files: [{ artifactKey: solved.key, sha256: solved.sha256, vmPath: 'Desktop/answer.xlsx' }],
  });
  assert.throws(() => buildTaskPackage(solvedDownload), /a solved artifact/);
});
