import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ResidentOffice, residentOptions } from '../../preparers/office/index.ts';
import { appOfPath, probeCheck } from '../../preparers/registry.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { draftTask, exportGate } from '../../taskcore/verify/exportGate.ts';
import { madeInLibreOffice } from '../support/madeInLibreOffice.ts';
import { offlineTask } from '../support/offlineTasks.ts';

/**
 * Correct end states made by LibreOffice itself, for every skill that edits an office file: the
 * oracle's edits are replayed in the resident office over UNO (each app's uno_ops.py: the cell's
 * formula typed, the built-in style applied, the slide added with a layout LibreOffice offers...),
 * saved by LibreOffice in the task's format, and graded with the TypeScript probes and with the
 * export gate (the OSWorld config played into a scratch home, the shipped checker run as written).
 * Edits LibreOffice can't be driven to make are named with the reason in <app>/libreOffice.ts and
 * applied by our own writer.
 */
const office = new ResidentOffice(residentOptions({ processes: 2 }));
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
  const specs = [...loadSkillLibrary().values()]
    .map((l) => l.spec)
    .filter((s) => s.apps.some((a) => OFFICE.has(a)) && s.expected !== 'infeasible' && s.id.startsWith(ONLY))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const one = async (spec: SkillSpec) => {
    // The task as authored and built (the rubric's own proof is the round's business, not this test's).
    const task = await offlineTask(spec);
    const checks = [...task.checks, ...task.invariants];
    skills++;
    const made = await madeInLibreOffice(spec.id, task.initial, task.edits as never, office).catch(
      (e: Error) => e,
    );
    if (made instanceof Error) {
      failures.push(`${spec.id}: ${made.message}`);
      return;
    }
    for (const op of made.driven) driven.set(op, (driven.get(op) ?? 0) + 1);
    for (const { op, why } of made.applied) applied.set(op, why);
    if (made.applied.length === 0) fully++;
    const probes = await Promise.all(checks.map((c) => probeCheck(made.files, c)));
    for (const [i, v] of probes.entries())
      if (!v.pass)
        failures.push(`${spec.id}: ${checks[i]!.kind} fails: ${JSON.stringify(v.observed).slice(0, 300)}`);
    const draft = await draftTask({
      spec,
      ctx: task.context,
      fields: {
        instruction: task.instruction,
        items: [{ text: 'as instructed', weight: 1, checks: checks.map((_, i) => i) }],
        checks,
        edits: task.edits,
        prepares: task.prepares,
      },
      initial: task.initial,
      solved: task.solved,
      appOf: appOfPath,
      verdicts: { initial: [], solved: [] },
    });
    const gate = await exportGate(draft, [
      { name: 'made in LibreOffice', files: made.files, expect: 'pass', probes },
    ]);
    if (!gate.ok) failures.push(`${spec.id}: export gate: ${gate.detail.slice(0, 400)}`);
  };
  // Two at a time, one per office process.
  let next = 0;
  const worker = async () => {
    while (next < specs.length) await one(specs[next++]!);
  };
  await Promise.all([worker(), worker()]);
  failures.sort();
  console.log(
    `${skills} office skills; ${fully} made wholly by LibreOffice; ops driven: ${[...driven]
      .map(([op, n]) => `${op}×${n}`)
      .join(
        ', ',
      )}; applied by our writer: ${[...applied].map(([op, why]) => `${op} (${why})`).join('; ') || 'none'}`,
  );
  assert.deepEqual(failures, []);
});
