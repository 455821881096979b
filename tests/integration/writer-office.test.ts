import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { writerPreparer } from '../../preparers/writer/index.ts';
import { sampleWriterDoc, writerScenario } from '../../preparers/writer/sample.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';
import { describeOfficeRoundTrip } from '../support/officeRoundTrip.ts';
import { offlineTask } from '../support/offlineTasks.ts';

const FILE = 'Documents/report.docx';

describeOfficeRoundTrip({
  app: 'writer',
  preparer: writerPreparer,
  file: FILE,
  format: 'docx',
  scenario: writerScenario(FILE),
  typical: () => sampleWriterDoc(10),
});

/**
 * A picture inserted by the oracle survives LibreOffice: the skill's oracle document, opened and
 * saved again as .docx by soffice, still has the photo's very bytes at the paragraph (our probe
 * and the shipped checker both pass it), so a person who saves from Writer is graded as the oracle.
 */
describe('writer.pictures.insert-photo: the oracle re-saved by LibreOffice keeps the picture', () => {
  test('the rubric check passes on the re-saved document, with the probe and the checker', async () => {
    const spec = [...loadSkillLibrary().values()].find(
      (s) => s.spec.id === 'writer.pictures.insert-photo',
    )!.spec;
    const task = await offlineTask(spec);
    const file = (task.checks[0] as unknown as { file: string }).file;
    const work = mkdtempSync(path.join(tmpdir(), 'forge-writer-picture-lo-'));
    try {
      writeFileSync(path.join(work, 'oracle.docx'), task.solved[file]!);
      execFileSync(
        'soffice',
        [
          `-env:UserInstallation=file://${path.join(work, 'profile')}`,
          '--headless',
          '--convert-to',
          'docx',
          '--outdir',
          path.join(work, 'out'),
          path.join(work, 'oracle.docx'),
        ],
        { timeout: 120_000, stdio: 'ignore' },
      );
      const back: FileMap = {
        ...task.solved,
        [file]: new Uint8Array(readFileSync(path.join(work, 'out', 'oracle.docx'))),
      };
      assert.notDeepEqual(
        Buffer.from(back[file]!),
        Buffer.from(task.solved[file]!),
        'LibreOffice wrote its own file',
      );
      const ours = await Promise.all(task.checks.map((c) => probeCheck(back, c)));
      assert.ok(
        ours.every((r) => r.pass),
        JSON.stringify(ours.map((r) => r.observed)),
      );
      const checker = path.join(work, 'forge_check.py');
      writeFileSync(checker, checkerSource().text);
      const home = path.join(work, 'home');
      await materializeHome(home, back);
      const [theirs] = await runCheckerBatch(checker, path.join(work, 'jobs.json'), [
        { home, checks: task.checks },
      ]);
      assert.deepEqual(
        theirs,
        ours.map((r) => ({ pass: r.pass, observed: r.observed })),
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
