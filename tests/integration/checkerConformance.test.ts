import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { checkKinds } from '../../preparers/checker/kinds.ts';
import { SYSTEM_PYTHON } from '../support/checkerHome.ts';

/**
 * The contract between the two implementations of every rubric check: the TypeScript probes that
 * verify tasks here and the Python checker that grades them inside an OSWorld VM. Every kind has a
 * checker function (below). That they agree — verdict and observed value, on the initial state, the
 * oracle, every wrong and correct alternative and the LibreOffice-resaved states — is proved for every
 * task by the export gate (taskcore/verify/exportGate.ts), which the whole-library round runs on
 * three tasks of every skill (tests/integration/skillLibrary.test.ts), and on shuffled and canonical
 * payloads by tests/unit/keyOrder.property.test.ts.
 */
describe('the portable checker agrees with the TypeScript probes', () => {
  let work: string;
  let checker: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-conformance-'));
    checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
  });
  after(() => {
    rmSync(work, { recursive: true, force: true });
  });

  test('every check kind of every preparer has a checker function', () => {
    const ported = new Set(
      JSON.parse(execFileSync(SYSTEM_PYTHON, [checker, '--kinds'], { encoding: 'utf8' })),
    );
    const unported = checkKinds().filter((k) => !ported.has(k));
    assert.deepEqual(
      unported,
      [],
      `check kinds the Python checker does not implement: ${unported.join(', ')}`,
    );
  });
});
