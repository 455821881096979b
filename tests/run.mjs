// Runs Node's test runner over one group of tests (unit | integration | browser | all), or only
// the named files of that group: `node tests/run.mjs integration tests/integration/round.test.ts`.
// Node 20's --test takes no glob, so the *.test.ts files are collected here.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const groups = ['unit', 'integration', 'browser'];

function collect(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return collect(full);
      return entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

/** Files run at once: the machine has 2 cores, and most files spend their time on the CPU. */
const CONCURRENCY = Number(process.env.TESTS_CONCURRENCY ?? 2);
/** Each file's last wall time, so the next run can start the longest first. */
const durationsFile = path.join(
  process.env.FORGE_HOME ?? path.join(root, '.forge'),
  'cache',
  'test-durations.json',
);

/**
 * A file's last run: wall seconds and CPU seconds (its whole process tree as reaped). Older files
 * hold a bare number, the wall seconds.
 */
const timing = (v) => (typeof v === 'number' ? { wall: v } : (v ?? {}));

/** The last run's times over the committed ones (tests/durations.json), which order a first run. */
function readDurations(files = [path.join(root, 'tests', 'durations.json'), durationsFile]) {
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return {};
    }
  };
  return Object.fromEntries(
    Object.entries(Object.assign({}, ...files.map(read))).map(([f, v]) => [f, timing(v)]),
  );
}

function writeDurations(update) {
  // Merged with what is on file now (another run may have written since), then renamed into place.
  const all = { ...readDurations([durationsFile]), ...update };
  mkdirSync(path.dirname(durationsFile), { recursive: true });
  const tmp = `${durationsFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 1)}\n`);
  renameSync(tmp, durationsFile);
}

/**
 * CPU seconds of this process's reaped children (cutime + cstime of /proc/self/stat). Read when a
 * file's process is reaped, the growth since the last read is that file's tree: its own processes
 * and every descendant it waited for. Null where there is no /proc.
 */
function reapedCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields from the state (3rd) on: cutime and cstime are the 16th and 17th, in clock ticks.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
let reapedSoFar = reapedCpuSeconds();

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const args = ['--import', 'tsx', '--test', '--test-timeout=1200000', file];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    let cpu = null;
    child.on('exit', () => {
      const now = reapedCpuSeconds();
      if (now !== null && reapedSoFar !== null) cpu = now - reapedSoFar;
      reapedSoFar = now;
    });
    child.on('close', (code, signal) => {
      resolve({
        file,
        code: code ?? 1,
        signal,
        seconds: (Date.now() - started) / 1000,
        cpu,
        output: Buffer.concat(out),
      });
    });
  });
}

/**
 * A service test whose last run kept a core busy less than this share of its wall time mostly waits
 * (services stopped and started, backoff). Unit files never wait on services; their low ratios come
 * from programs that outlive the file's process tree (the program helper, infra/spawner.ts), whose
 * CPU is not reaped into it.
 */
const LIGHT = 0.3;

/**
 * The files of the selected groups, CONCURRENCY at a time, the longest (by the last run) first: the
 * whole-library round alone takes minutes, and started last it would run on after everything else
 * has finished. Files that mostly wait (services going down and coming back, retries' backoff) run
 * one at a time in a lane of their own beside those, since they leave the cores to the others.
 * Each file's output is printed whole when it ends, so concurrent files never interleave.
 */
async function run(groups) {
  const files = groups
    .flatMap((group) => collect(path.join(root, 'tests', group)))
    .map((f) => path.relative(root, f))
    .filter((f) => only.length === 0 || only.includes(f));
  if (files.length === 0) {
    console.log(`tests/${groups.join(', ')}: no test files`);
    return 0;
  }
  const last = readDurations();
  const light = (f) =>
    !f.startsWith('tests/unit/') && last[f]?.cpu !== undefined && last[f].cpu < LIGHT * last[f].wall;
  // A file never timed goes first: it may be long, and next time its place is known.
  const longestFirst = (list) =>
    [...list].sort((a, b) => (last[b]?.wall ?? Infinity) - (last[a]?.wall ?? Infinity) || (a < b ? -1 : 1));
  const heavy = longestFirst(files.filter((f) => !light(f)));
  const waiting = longestFirst(files.filter(light));
  console.log(
    `tests/${groups.join(', ')}: ${files.length} files, ${CONCURRENCY} at a time, longest first${waiting.length > 0 ? `; ${waiting.length} that mostly wait beside them, one at a time` : ''}`,
  );
  const started = Date.now();
  const load = loadavg();
  const results = [];
  // The children reaped before (the namespace snapshot, the stack's start) belong to no file.
  reapedSoFar = reapedCpuSeconds();
  const lane = async (queue) => {
    while (queue.length > 0) {
      const r = await runFile(queue.shift());
      process.stdout.write(r.output);
      console.log(
        `# ${r.file}: ${r.code === 0 ? 'ok' : `FAILED (exit ${r.signal ?? r.code})`} in ${r.seconds.toFixed(1)} s${r.cpu === null ? '' : `, ${r.cpu.toFixed(1)} s CPU`}`,
      );
      results.push(r);
    }
  };
  await Promise.all([...Array.from({ length: CONCURRENCY }, () => lane(heavy)), lane(waiting)]);
  const tenths = (x) => Math.round(x * 10) / 10;
  writeDurations(
    Object.fromEntries(
      results.map((r) => [
        r.file,
        { wall: tenths(r.seconds), ...(r.cpu === null ? {} : { cpu: tenths(r.cpu) }) },
      ]),
    ),
  );
  const failed = results.filter((r) => r.code !== 0);
  console.log(
    [
      `# ${results.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s; load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      ...[...results]
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, 12)
        .map(
          (r) =>
            `#   ${r.seconds.toFixed(1).padStart(7)} s ${r.cpu === null ? '' : `${r.cpu.toFixed(0).padStart(5)} s CPU`}  ${r.file}`,
        ),
      failed.length > 0 ? `# failed: ${failed.map((r) => r.file).join(', ')}` : '# every file passed',
    ].join('\n'),
  );
  return failed.length > 0 ? 1 : 0;
}

function tsx(script, env) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${script} failed (exit ${r.status})`);
  return r.stdout;
}

/** The user's namespace, as a digest; compared before and after the suite. */
function snapshot(env) {
  return JSON.parse(tsx('tests/support/namespaceSnapshot.ts', env));
}

const which = process.argv[2] ?? 'all';
const only = process.argv.slice(3).map((f) => path.relative(root, path.resolve(f)));
if (which !== 'all' && !groups.includes(which)) {
  console.error(`usage: node tests/run.mjs [${groups.join('|')}|all]`);
  process.exit(2);
}
const selected = which === 'all' ? groups : [which];
// Tests that reach the services run in a namespace of their own (database, bucket, task queues,
// Temporal namespace), created here and dropped afterwards, so the user's data is never touched.
const isolate = selected.some((g) => g !== 'unit') && !process.env.FORGE_NAMESPACE;
let code = 0;
if (!isolate) process.exit(await run(selected));
const userEnv = { ...process.env };
const namespace = `test-${randomBytes(3).toString('hex')}`;
// Named outright: a TEMPORAL_NAMESPACE of the user's would otherwise be kept.
const testEnv = { ...process.env, FORGE_NAMESPACE: namespace, TEMPORAL_NAMESPACE: `forge-${namespace}` };
const before = snapshot(userEnv);
console.log(`tests run in namespace ${namespace}; the user's namespace is ${before.namespace}`);
const up = spawnSync(path.join(root, 'bin', 'forge'), ['dev', 'up'], {
  cwd: root,
  env: testEnv,
  stdio: 'inherit',
});
if (up.status !== 0) process.exit(up.status ?? 1);
process.env.FORGE_NAMESPACE = namespace;
process.env.TEMPORAL_NAMESPACE = testEnv.TEMPORAL_NAMESPACE;
try {
  // One pool for every group: the unit files fill the second lane while the long integration files run.
  code = await run(selected);
} finally {
  for (const k of ['FORGE_NAMESPACE', 'TEMPORAL_NAMESPACE']) {
    if (userEnv[k] === undefined) delete process.env[k];
    else process.env[k] = userEnv[k];
  }
  process.stdout.write(tsx('tests/support/dropNamespace.ts', testEnv));
}
const afterSnap = snapshot(userEnv);
const changed = Object.keys(before).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(afterSnap[k]));
if (changed.length > 0) {
  for (const k of changed)
    console.error(
      `the suite changed the user's ${k}: ${JSON.stringify(before[k])} → ${JSON.stringify(afterSnap[k])}`,
    );
  process.exit(1);
}
console.log(`the user's namespace is unchanged (${Object.keys(before).join(', ')})`);
process.exit(code);
