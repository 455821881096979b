/**
 * What finding the gold comparisons a correct alternative fails costs the prepare stage
 * (taskcore/verify/offGold.ts): one offline task per skill, its correct alternatives built once, then
 * only `comparisonsOffGold` timed. BENCH_RUNS passes; prints each pass's mean ms per task and the median.
 * Usage: npx tsx bench/offGold.ts
 */
import { loadSkillLibrary } from '../skills/load.ts';
import { materializeTask } from '../skills/run/materialize.ts';
import { comparisonsOffGold } from '../taskcore/verify/offGold.ts';
import { correctAlternatives } from '../taskcore/verify/rubricProof.ts';
import { offlineTask } from '../tests/support/offlineTasks.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const tasks = [];
for (const { spec } of loadSkillLibrary().values()) {
  const task = await offlineTask(spec);
  const files = { initial: task.initial, solved: task.solved };
  const rights = (await correctAlternatives(await materializeTask(spec, task.context), files)).flatMap((r) =>
    r.files ? [{ name: r.name, files: r.files }] : [],
  );
  tasks.push({ checks: task.checks, solved: task.solved, rights });
}
const passes: number[] = [];
for (let r = 0; r < runs; r++) {
  const started = performance.now();
  for (const t of tasks) await comparisonsOffGold(t.checks, t.solved, t.rights);
  passes.push((performance.now() - started) / tasks.length);
  console.log(`pass ${r + 1}: ${passes.at(-1)!.toFixed(2)} ms per task (${tasks.length} tasks)`);
}
const median = [...passes].sort((a, b) => a - b)[Math.floor(passes.length / 2)]!;
console.log(
  JSON.stringify({
    tasks: tasks.length,
    rights: tasks.reduce((n, t) => n + t.rights.length, 0),
    medianMsPerTask: Number(median.toFixed(2)),
  }),
);
process.exit(0);
