/**
 * The export gate's cost per task: tasks of every skill (offline model, one per level) go through the
 * prepare stage's in-memory work (taskcore/prepareCore.ts), and the gate's node run (verify_export)
 * is set against the whole stage. BENCH_RUNS passes over the library; each pass prints its medians,
 * then the median of the passes. BENCH_LEVELS (e.g. `goal`) narrows the levels. BENCH_TASK_CONCURRENCY tasks are prepared at once, as a worker's
 * batch does, so concurrent tasks share Python starts. Usage: npm run bench:gate
 */
import { loadavg } from 'node:os';
import { loadSkillLibrary } from '../skills/load.ts';
import { authorTask } from '../skills/run/author.ts';
import { prepareInMemory } from '../taskcore/prepareCore.ts';
import { offlineCaller } from '../tests/support/offlineAuthor.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const concurrency = Number(process.env.BENCH_TASK_CONCURRENCY ?? 6);
const levels = (process.env.BENCH_LEVELS ?? 'explicit,natural,goal').split(',') as (
  | 'explicit'
  | 'natural'
  | 'goal'
)[];
const specs = [...loadSkillLibrary().values()].map((l) => l.spec);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

interface Pass {
  tasks: number;
  gateMs: number;
  prepareMs: number;
  gateSharePct: number;
  wallPerTaskMs: number;
  /** Mutants applied and probed per task, on average (the adversary's share of the stage). */
  mutantsPerTask: number;
}
const passes: Pass[] = [];
for (let r = 0; r < runs; r++) {
  const jobs = specs.flatMap((spec) => levels.map((level) => ({ spec, level })));
  const gate: number[] = [];
  const prepare: number[] = [];
  let mutants = 0;
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { spec, level } = jobs[next++]!;
      const a = await authorTask(spec, 11 + r, offlineCaller, { level, roundId: `bench-${r}`, taskIndex: 0 });
      if (!a.ok) continue;
      const p = await prepareInMemory(spec, 'file', a.context);
      if (!p.ok) throw new Error(`${spec.id} ${level}: ${p.reason}: ${p.detail.slice(0, 300)}`);
      gate.push(p.runs.find((x) => x.nodeId === 'verify_export')?.durationMs ?? 0);
      prepare.push(p.runs.reduce((n, x) => n + x.durationMs, 0));
      mutants += p.stats.mutants?.tried ?? 0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = performance.now() - started;
  const pass = {
    tasks: gate.length,
    gateMs: median(gate),
    prepareMs: median(prepare),
    gateSharePct: (100 * gate.reduce((a, b) => a + b, 0)) / prepare.reduce((a, b) => a + b, 0),
    wallPerTaskMs: wall / gate.length,
    mutantsPerTask: mutants / gate.length,
  };
  passes.push(pass);
  console.log(`pass ${r + 1}: ${JSON.stringify(pass)}`);
}
const pick = (k: keyof Pass) => median(passes.map((p) => p[k]));
console.log(
  `export gate, ${specs.length} skills x ${levels.length} levels, ${concurrency} tasks at once, load ${loadavg()[0]!.toFixed(2)}: ` +
    `gate median ${pick('gateMs').toFixed(1)} ms of a ${pick('prepareMs').toFixed(1)} ms prepare stage (${pick('gateSharePct').toFixed(1)}% of stage time), ` +
    `${pick('wallPerTaskMs').toFixed(1)} ms wall per task`,
);
process.exit(0);
