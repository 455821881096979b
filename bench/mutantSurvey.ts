/**
 * The mutation adversary over the whole library, outside a round: one offline task per skill, its
 * mutants (taskcore/verify/mutants.ts) applied and probed with the rubric and the derived
 * invariants; prints each survivor, each oracle edit no check the untouched state passes caught a
 * mutant of, and the totals. `npx tsx bench/mutantSurvey.ts [skill-id prefix]`.
 */

import { applyEdits, probeCheck } from '../preparers/registry.ts';
import { loadSkillLibrary } from '../skills/load.ts';
import { attackRubric, deriveMutants, sameFiles } from '../taskcore/verify/mutants.ts';
import { offlineTask } from '../tests/support/offlineTasks.ts';

const only = process.argv[2] ?? '';
const totals = {
  tasks: 0,
  nondeterministic: 0,
  tried: 0,
  discriminating: 0,
  undone: 0,
  survivors: 0,
  sameAsOracle: 0,
  sameAsInitial: 0,
  inapplicable: 0,
  edits: 0,
  editsWithoutDiscriminatingKill: 0,
};
const started = Date.now();
for (const { spec } of [...loadSkillLibrary().values()].sort((a, b) => (a.spec.id < b.spec.id ? -1 : 1))) {
  if (!spec.id.startsWith(only) || spec.expected === 'infeasible') continue;
  const task = await offlineTask(spec);
  totals.tasks++;
  // The same edits must give the same bytes, or a mutant equal to the oracle looks like a survivor.
  if (!sameFiles(await applyEdits(task.initial, task.edits), task.solved)) {
    totals.nondeterministic++;
    console.log(`nondeterministic ${spec.id}`);
  }
  const checks = [...task.checks, ...task.invariants];
  const before = await Promise.all(checks.map((c) => probeCheck(task.initial, c)));
  const { mutants } = await deriveMutants(task.edits, task.initial, task.free);
  const { report } = await attackRubric({
    edits: task.edits,
    initial: task.initial,
    solved: task.solved,
    checks,
    before,
    mutants,
  });
  for (const k of [
    'tried',
    'discriminating',
    'undone',
    'sameAsOracle',
    'sameAsInitial',
    'inapplicable',
  ] as const)
    totals[k] += report[k];
  totals.survivors += report.survivors.length;
  totals.edits += task.edits.length;
  totals.editsWithoutDiscriminatingKill += report.editsWithoutDiscriminatingKill.length;
  for (const s of report.survivors) console.log(`survivor ${spec.id}: ${s}`);
  for (const e of report.editsWithoutDiscriminatingKill)
    console.log(`no discriminating kill ${spec.id}: edit #${e} ${task.edits[e - 1]!.op}`);
}
console.log(JSON.stringify({ ...totals, seconds: (Date.now() - started) / 1000 }));
