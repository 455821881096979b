import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { relativePathProblem } from '../../preparers/paths.ts';
import { parseDoc } from '../../preparers/registry.ts';
import { readSkillLibrary, skillsDir } from '../../skills/load.ts';
import { feedbackLineSchema } from '../../taxonomy/feedback.ts';

describe('hostile names, modes and numbers are refused with the reason', () => {
  test('bidi and zero-width characters in file names', () => {
    // "invoice\u202Efdp.exe" displays as "invoiceexe.pdf".
    for (const name of ['Documents/invoice\u202Efdp.sh', 'Desktop/re\u200bport.txt', 'a\u2066b/c.txt'])
      assert.equal(
        relativePathProblem(name),
        'contains an invisible format character (bidi control or zero-width)',
        JSON.stringify(name),
      );
    assert.equal(relativePathProblem('Documents/ünïcødé 数据.txt'), null);
  });

  test('setuid and setgid modes in an OS doc', () => {
    assert.throws(
      () => parseDoc('os', { entries: [{ path: 'bin-tools/run', content: '#!/bin/sh\n', mode: '4755' }] }),
      /os doc spec: entries\.0\.mode: setuid and setgid bits are not allowed/,
    );
    assert.throws(
      () => parseDoc('os', { entries: [{ path: 'shared', type: 'dir', mode: '2775' }] }),
      /setuid and setgid bits are not allowed/,
    );
    assert.doesNotThrow(() =>
      parseDoc('os', { entries: [{ path: 'notes.txt', content: 'x', mode: '0640' }] }),
    );
  });

  test('feedback integers beyond the database column are a 400-style line error, not a failed insert', () => {
    const line = {
      task_id: '6f1c2a5e-8a7b-4c1d-9e2f-3a4b5c6d7e8f',
      student_run_id: 'run-1',
      success: 1,
      steps: 2 ** 31,
    };
    const r = feedbackLineSchema.safeParse(line);
    assert.equal(r.success, false);
    assert.match(r.error!.issues[0]!.message, /<=2147483647/);
    assert.equal(feedbackLineSchema.safeParse({ ...line, steps: 12 }).success, true);
  });
});

describe('skills validate', () => {
  test('reports every bad file, an alias bomb included, and still loads the good ones', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forge-skills-'));
    try {
      mkdirSync(path.join(dir, 'os'));
      const good = readFileSync(path.join(skillsDir, 'os', 'os.files.backup-copy.yaml'), 'utf8');
      writeFileSync(path.join(dir, 'os', 'os.files.backup-copy.yaml'), good);
      const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 0; i < 9; i++)
        bomb.push(
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
        );
      writeFileSync(path.join(dir, 'os', 'os.files.bomb.yaml'), `${bomb.join('\n')}\n`);
      writeFileSync(path.join(dir, 'os', 'os.files.broken.yaml'), 'id: os.files.broken\ntitle: [unclosed\n');
      const { specs, errors } = readSkillLibrary(dir);
      assert.deepEqual([...specs.keys()], ['os.files.backup-copy']);
      assert.equal(errors.length, 2);
      assert.match(
        errors.map((e) => e.message).join('\n'),
        /os\.files\.bomb\.yaml: invalid skill spec\n {2}at \(root\): .*alias/i,
      );
      assert.match(errors.map((e) => e.message).join('\n'), /os\.files\.broken\.yaml: invalid skill spec/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
