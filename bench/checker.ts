/**
 * The portable checker's size and run time per task: for tasks of every skill (offline model,
 * BENCH_SEEDS seeds each), the oracle state is laid out in a scratch home and the checker runs as
 * the OSWorld evaluator runs it (one python3 process over the task's whole rubric). Prints the
 * checker's size, the median and the slowest task. Usage: npm run bench:checker
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../infra/childEnv.ts';
import { checkerSource } from '../preparers/checker/assemble.ts';
import { loadSkillLibrary } from '../skills/load.ts';
import { materializeHome, SYSTEM_PATH } from '../tests/support/checkerHome.ts';
import { offlineTask } from '../tests/support/offlineTasks.ts';

const seeds = Number(process.env.BENCH_SEEDS ?? 3);
const work = mkdtempSync(path.join(tmpdir(), 'forge-bench-checker-'));
const { text } = checkerSource();
const checker = path.join(work, 'forge_check.py');
writeFileSync(checker, text);
const load = loadavg()[0]!.toFixed(2);
const times: { skill: string; seed: number; ms: number; cpuMs: number; bytes: number; checks: number }[] = [];
try {
  for (const { spec } of loadSkillLibrary().values()) {
    for (let s = 0; s < seeds; s++) {
      const task = await offlineTask(spec, 1 + s * 10);
      const home = path.join(work, `${spec.id}-${s}`);
      await materializeHome(home, task.solved);
      const checks = path.join(home, 'checks.json');
      writeFileSync(checks, JSON.stringify({ checks: task.checks }));
      const bytes = Object.values(task.solved).reduce((n, b) => n + b.byteLength, 0);
      // bash's `time` gives the wall time and the CPU time of the evaluator's command (sh + python3).
      const timed = execFileSync(
        'bash',
        [
          '-c',
          'TIMEFORMAT="%R %U %S"; { time sh -c \'exec python3 "$0" "$1"\' "$0" "$1" > "$2"; } 2>&1',
          checker,
          checks,
          `${checks}.out`,
        ],
        { env: childEnv({ extra: { HOME: home, PATH: SYSTEM_PATH } }) },
      ).toString();
      const [wall = 0, user = 0, sys = 0] = timed.trim().split(/\s+/).map(Number);
      const ms = wall * 1000;
      const cpuMs = (user + sys) * 1000;
      const out = readFileSync(`${checks}.out`, 'utf8');
      if (out !== 'PASS') throw new Error(`${spec.id} seed ${task.seed}: the oracle state gave ${out}`);
      times.push({ skill: spec.id, seed: task.seed, ms, cpuMs, bytes, checks: task.checks.length });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
times.sort((a, b) => a.ms - b.ms);
const median = times[Math.floor(times.length / 2)]!;
const slowest = times.at(-1)!;
const cpu = times.map((t) => t.cpuMs).sort((a, b) => a - b);
const largest = [...times].sort((a, b) => a.bytes - b.bytes).at(-1)!;
console.log(
  [
    `checker: ${text.length} bytes, ${text.split('\n').length} lines (standard-library Python)`,
    `${times.length} tasks (oracle state, whole rubric, sh + the system python3, as the evaluator runs it); load average at start ${load}`,
    `wall: median ${median.ms.toFixed(0)} ms; slowest ${slowest.ms.toFixed(0)} ms (${slowest.skill}, seed ${slowest.seed}, ${slowest.checks} checks, ${(slowest.bytes / 1024).toFixed(0)} KiB of files)`,
    `CPU (user+sys): median ${cpu[Math.floor(cpu.length / 2)]!.toFixed(0)} ms, max ${cpu.at(-1)!.toFixed(0)} ms`,
    `largest task: ${largest.skill} seed ${largest.seed}, ${(largest.bytes / 1024).toFixed(0)} KiB, ${largest.ms.toFixed(0)} ms wall, ${largest.cpuMs.toFixed(0)} ms CPU`,
  ].join('\n'),
);
