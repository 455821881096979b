import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { checkKinds } from '../../preparers/checker/kinds.ts';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { closeOffice, officeFormatOf, roundTripOfficeSettled } from '../../preparers/office/index.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import {
  type CheckerVerdict,
  materializeHome,
  runCheckerBatch,
  SYSTEM_PYTHON,
} from '../support/checkerHome.ts';
import { type OfflineTask, offlineTask } from '../support/offlineTasks.ts';

/**
 * The contract between the two implementations of every rubric check: the TypeScript probes that
 * verify tasks here and the Python checker that grades them inside an OSWorld VM. For one task of
 * every skill, the initial state, the oracle state, the oracle state as LibreOffice saves it again,
 * and every wrong solution the skill declares go through both, with the skill's checks and the
 * "nothing else changed" invariants a round derives, and every verdict and observed value must agree.
 */
describe('the portable checker agrees with the TypeScript probes', () => {
  let work: string;
  let checker: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-conformance-'));
    checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
  });
  after(async () => {
    await closeOffice();
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

  test('every skill: initial, oracle, LibreOffice-resaved oracle and wrong states give identical verdicts', async () => {
    const library = loadSkillLibrary();
    const tasks: OfflineTask[] = [];
    for (const { spec } of [...library.values()].sort((a, b) => (a.spec.id < b.spec.id ? -1 : 1))) {
      tasks.push(await offlineTask(spec));
    }
    // One LibreOffice batch for every office file of every oracle state.
    const office = tasks.flatMap((t, i) =>
      Object.entries(t.solved).flatMap(([file, bytes]) => {
        const format = officeFormatOf(file);
        return format ? [{ task: i, file, office: { name: `${t.skillId}:${file}`, bytes, format } }] : [];
      }),
    );
    const saved = await roundTripOfficeSettled(office.map((o) => o.office));
    const resaved: FileMap[] = tasks.map((t) => ({ ...t.solved }));
    for (const [j, o] of office.entries()) {
      const r = saved[j]!;
      assert.ok(r.ok, `LibreOffice could not save ${o.office.name}: ${r.ok ? '' : r.error}`);
      resaved[o.task]![o.file] = r.bytes;
    }

    const states: { label: string; files: FileMap; checks: { kind: string }[] }[] = [];
    for (const [i, t] of tasks.entries()) {
      // The declared checks and the invariants a round derives ("nothing else changed").
      const checks = [...t.checks, ...t.invariants];
      states.push({ label: `${t.skillId} initial`, files: t.initial, checks });
      states.push({ label: `${t.skillId} oracle`, files: t.solved, checks });
      states.push({ label: `${t.skillId} oracle resaved`, files: resaved[i]!, checks });
      for (const w of t.wrong) states.push({ label: `${t.skillId} wrong ${w.name}`, files: w.files, checks });
    }
    const jobs = [];
    for (const [i, s] of states.entries()) {
      const home = path.join(work, `home-${i}`);
      await materializeHome(home, s.files);
      jobs.push({ home, checks: s.checks });
    }
    const python = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);

    const mismatches: string[] = [];
    const exercised = new Set<string>();
    let compared = 0;
    for (const [i, s] of states.entries()) {
      const ours = await Promise.all(s.checks.map((c) => probeCheck(s.files, c)));
      for (const [k, check] of s.checks.entries()) {
        exercised.add(check.kind);
        compared++;
        const py: CheckerVerdict | undefined = python[i]?.[k];
        // Observed values too, as JSON (through the wire, as the checker's are) with keys in any order.
        const observed = JSON.parse(JSON.stringify(ours[k]!.observed ?? null));
        if (py?.pass !== ours[k]!.pass || !jsonEqual(observed, py?.observed)) {
          mismatches.push(
            `${s.label} #${k + 1} ${check.kind}: probe ${ours[k]!.pass} ${JSON.stringify(ours[k]!.observed).slice(0, 300)} / checker ${py?.pass} ${JSON.stringify(py?.observed).slice(0, 300)}`,
          );
        }
      }
    }
    const unexercised = checkKinds().filter((k) => !exercised.has(k));
    console.log(
      `${tasks.length} skills, ${states.length} states, ${compared} verdicts and observations compared, ${mismatches.length} disagree; ` +
        `kinds no skill uses (not compared): ${unexercised.join(', ') || 'none'}`,
    );
    assert.deepEqual(mismatches, [], `${mismatches.length} verdicts or observed values disagree`);
  });
});
