import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { rounds, studentResults, tasks } from '../../infra/db/schema.ts';
import { ingestOsworldResults } from '../../taxonomy/osworldResults.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

const round = `osworld-results-${randomUUID()}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'forge-osworld-results-'));
const [calcTask, osTask, mailTask, rejectedTask] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
let svc: TestServices;

before(async () => {
  svc = await testServices();
  await svc.database.db.insert(rounds).values({
    id: round,
    status: 'completed',
    seed: 1,
    settings: {},
    workflowId: `round-${round}`,
  });
  const row = (id: string, i: number, status: string) => ({
    id,
    roundId: round,
    skillId: 'calc.formulas.sum-column',
    specVersion: 1,
    taskIndex: i,
    seed: i,
    apps: ['calc'],
    status,
  });
  await svc.database.db
    .insert(tasks)
    .values([
      row(calcTask, 0, 'accepted'),
      row(osTask, 1, 'accepted'),
      row(mailTask, 2, 'accepted'),
      row(rejectedTask, 3, 'rejected'),
    ]);
});

after(async () => {
  const ids = [calcTask, osTask, mailTask, rejectedTask];
  await svc.database.db.delete(studentResults).where(inArray(studentResults.taskId, ids));
  await svc.database.db.delete(tasks).where(inArray(tasks.id, ids));
  await svc.database.db.delete(rounds).where(eq(rounds.id, round));
  await closeTestServices();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes one task folder as OSWorld's runner does: result.txt with the score, traj.jsonl beside it. */
function taskFolder(root: string, model: string, domain: string, id: string, score?: string, steps = 0) {
  const folder = path.join(root, 'pyautogui', 'screenshot', model, domain, id);
  mkdirSync(folder, { recursive: true });
  if (score !== undefined) writeFileSync(path.join(folder, 'result.txt'), score);
  if (steps > 0) {
    const lines = Array.from({ length: steps }, (_, i) =>
      JSON.stringify({ step_num: i + 1, action: 'click' }),
    );
    writeFileSync(path.join(folder, 'traj.jsonl'), `${lines.join('\n')}\n`);
  }
  return folder;
}

function goodTree(root: string): void {
  taskFolder(root, 'student-a', 'libreoffice_calc', calcTask, '1.0\n', 7);
  taskFolder(root, 'student-a', 'os', osTask, '0.0\n');
  // The run never finished this one: no result.txt, only a screenshot.
  const unfinished = taskFolder(root, 'student-a', 'thunderbird', mailTask);
  writeFileSync(path.join(unfinished, 'step_1.png'), 'png');
  taskFolder(root, 'student-b', 'libreoffice_calc', calcTask, '0.5', 3);
  writeFileSync(path.join(root, 'pyautogui', 'args.json'), '{}');
}

const stored = async () =>
  svc.database.db.select().from(studentResults).where(eq(studentResults.roundId, round));

test('a results tree with a malformed result.txt, an unknown and a rejected task imports nothing and names each path', async () => {
  const root = path.join(dir, 'bad');
  goodTree(root);
  const malformed = path.join(taskFolder(root, 'student-c', 'os', osTask, 'score: high'), 'result.txt');
  const unknown = path.join(taskFolder(root, 'student-c', 'os', randomUUID(), '1'), 'result.txt');
  const rejected = path.join(taskFolder(root, 'student-c', 'os', rejectedTask, '1'), 'result.txt');
  const notATask = taskFolder(root, 'student-c', 'os', 'notes');

  const r = await ingestOsworldResults(svc.database, round, root);
  assert.equal(r.ok, false);
  if (r.ok) return;
  const bySource = new Map(r.errors.map((e) => [e.source, e.message]));
  assert.match(bySource.get(malformed) ?? '', /not a score in \[0, 1\]/);
  assert.match(bySource.get(unknown) ?? '', /unknown task id/);
  assert.match(bySource.get(rejected) ?? '', /was not accepted/);
  assert.match(bySource.get(notATask) ?? '', /not a task id/);
  assert.equal(r.errors.length, 4, JSON.stringify(r.errors));
  assert.deepEqual(await stored(), [], 'nothing half-imported');
});

test('a results tree imports one student run per model folder, steps from the trajectory, and skips unfinished tasks', async () => {
  const root = path.join(dir, 'good');
  goodTree(root);
  const r = await ingestOsworldResults(svc.database, round, root);
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.imported, 3);
  assert.equal(r.lines, 3);
  assert.deepEqual(r.missing, [
    path.join(root, 'pyautogui', 'screenshot', 'student-a', 'thunderbird', mailTask),
  ]);
  const rows = (await stored())
    .map((s) => ({ task: s.taskId, run: s.studentRunId, success: s.success, steps: s.steps }))
    .sort((a, b) => (`${a.run}${a.task}` < `${b.run}${b.task}` ? -1 : 1));
  assert.deepEqual(
    rows,
    [
      { task: calcTask, run: 'pyautogui/screenshot/student-a', success: 1, steps: 7 },
      { task: osTask, run: 'pyautogui/screenshot/student-a', success: 0, steps: 0 },
      { task: calcTask, run: 'pyautogui/screenshot/student-b', success: 0.5, steps: 3 },
    ].sort((a, b) => (`${a.run}${a.task}` < `${b.run}${b.task}` ? -1 : 1)),
  );
  const again = await ingestOsworldResults(svc.database, round, root);
  assert.ok(again.ok && again.imported === 0 && again.unchanged === 3, JSON.stringify(again));
  await assert.rejects(
    ingestOsworldResults(svc.database, round, path.join(dir, 'nowhere')),
    /is not a directory/,
  );
});
