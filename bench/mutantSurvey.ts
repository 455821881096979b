/**
 * The mutation adversary over the whole library, outside a round: one offline task per skill, its
 * mutants (activities/verify/mutants.ts) applied and probed with the rubric and the derived
 * invariants; prints each survivor and the totals. `npx tsx bench/mutantSurvey.ts [skill-id prefix]`.
 */
import { deriveMutants, mutantState, sameFiles } from '../activities/verify/mutants.ts';
import { applyEdits, probeCheck } from '../preparers/registry.ts';
import { loadSkillLibrary } from '../skills/load.ts';
import { offlineTask } from '../tests/support/offlineTasks.ts';

const only = process.argv[2] ?? '';
const totals = {
  tasks: 0,
  nondeterministic: 0,
  probed: 0,
  survivors: 0,
  sameAsOracle: 0,
  sameAsInitial: 0,
  inapplicable: 0,
};
const started = Date.now();
for (const { spec } of [...loadSkillLibrary().values()].sort((a, b) => (a.spec.id < b.spec.id ? -1 : 1))) {
  if (!spec.id.startsWith(only) || spec.expected === 'infeasible') continue;
  const task = await offlineTask(spec);
  totals.tasks++;
  const checks = [...task.checks, ...task.invariants];
  // The same edits must give the same bytes, or a mutant equal to the oracle looks like a survivor.
  if (!sameFiles(await applyEdits(task.initial, task.edits), task.solved)) {
    totals.nondeterministic++;
    console.log(`nondeterministic ${spec.id}`);
  }
  for (const m of (await deriveMutants(task.edits, task.initial, task.free)).mutants) {
    const files = await mutantState(task.initial, m);
    if (!files) totals.inapplicable++;
    else if (sameFiles(files, task.solved)) totals.sameAsOracle++;
    else if (sameFiles(files, task.initial)) totals.sameAsInitial++;
    else {
      totals.probed++;
      const probes = await Promise.all(checks.map((c) => probeCheck(files, c)));
      if (probes.every((p) => p.pass)) {
        totals.survivors++;
        console.log(`survivor ${spec.id}: ${m.name}`);
      }
    }
  }
}
console.log(JSON.stringify({ ...totals, seconds: (Date.now() - started) / 1000 }));
