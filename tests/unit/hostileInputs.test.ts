import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { relativePathProblem } from '../../preparers/paths.ts';
import { parseDoc } from '../../preparers/registry.ts';
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
