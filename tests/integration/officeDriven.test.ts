import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { prepareInMemory } from '../../activities/prepareCore.ts';
import { exportGate } from '../../activities/verify/exportGate.ts';
import { ResidentOffice, residentOptions } from '../../preparers/office/index.ts';
import { probeCheck } from '../../preparers/registry.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { madeInLibreOffice } from '../support/madeInLibreOffice.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Correct end states made by LibreOffice itself, for every skill that edits an office file: the
 * oracle's edits are replayed in the resident office over UNO (each app's uno_ops.py: the cell's
 * formula typed, the built-in style applied, the slide added with a layout LibreOffice offers...),
 * saved by LibreOffice in the task's format, and graded with the TypeScript probes and with the
 * export gate (the OSWorld config played into a scratch home, the shipped checker run as written).
 * Edits LibreOffice can't be driven to make are named with the reason in <app>/libreOffice.ts and
 * applied by our own writer.
 */
const office = new ResidentOffice(residentOptions({ processes: 1 }));
after(() => office.close());

const OFFICE = new Set(['calc', 'writer', 'impress']);
/** While working on one app's ops: `OFFICE_DRIVEN_ONLY=calc.` runs the skills whose id starts so. */
const ONLY = process.env.OFFICE_DRIVEN_ONLY ?? '';

test('every office skill: the oracle made in LibreOffice passes the exported evaluator', async () => {
  const failures: string[] = [];
  const driven = new Map<string, number>();
  const applied = new Map<string, string>();
  let skills = 0;
  let fully = 0;
  for (const { spec } of [...loadSkillLibrary().values()].sort((a, b) => (a.spec.id < b.spec.id ? -1 : 1))) {
    if (!spec.apps.some((a) => OFFICE.has(a)) || spec.expected === 'infeasible') continue;
    if (!spec.id.startsWith(ONLY)) continue;
    let p: Awaited<ReturnType<typeof prepareInMemory>> | undefined;
    for (let seed = 1; seed <= 5 && !p?.ok; seed++) {
      const a = await authorTask(spec, seed, offlineCaller, { roundId: 'office-driven', taskIndex: 0 });
      if (a.ok) p = await prepareInMemory(spec, 'file', a.context);
    }
    assert.ok(p?.ok, `${spec.id}: no seed prepares (${p && !p.ok ? `${p.reason}: ${p.detail}` : 'no task'})`);
    skills++;
    const made = await madeInLibreOffice(spec.id, p.initial, p.m.edits as never, office).catch(
      (e: Error) => e,
    );
    if (made instanceof Error) {
      failures.push(`${spec.id}: ${made.message}`);
      continue;
    }
    for (const op of made.driven) driven.set(op, (driven.get(op) ?? 0) + 1);
    for (const { op, why } of made.applied) applied.set(op, why);
    if (made.applied.length === 0) fully++;
    const probes = await Promise.all(p.checks.map((c) => probeCheck(made.files, c)));
    for (const [i, v] of probes.entries())
      if (!v.pass)
        failures.push(`${spec.id}: ${p.checks[i]!.kind} fails: ${JSON.stringify(v.observed).slice(0, 300)}`);
    const gate = await exportGate(p.draft, [
      { name: 'made in LibreOffice', files: made.files, expect: 'pass', probes },
    ]);
    if (!gate.ok) failures.push(`${spec.id}: export gate: ${gate.detail.slice(0, 400)}`);
  }
  console.log(
    `${skills} office skills; ${fully} made wholly by LibreOffice; ops driven: ${[...driven]
      .map(([op, n]) => `${op}×${n}`)
      .join(
        ', ',
      )}; applied by our writer: ${[...applied].map(([op, why]) => `${op} (${why})`).join('; ') || 'none'}`,
  );
  assert.deepEqual(failures, []);
});
