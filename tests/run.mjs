// Runs Node's test runner over one group of tests (unit | integration | browser | all), or only
// the named files of that group: `node tests/run.mjs integration tests/integration/round.test.ts`.
// Node 20's --test takes no glob, so the *.test.ts files are collected here.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
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

function run(group) {
  const files = collect(path.join(root, 'tests', group))
    .map((f) => path.relative(root, f))
    .filter((f) => only.length === 0 || only.includes(f));
  if (files.length === 0) {
    console.log(`tests/${group}: no test files`);
    return 0;
  }
  console.log(`tests/${group}: ${files.length} files`);
  const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=1200000', ...files];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
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
if (!isolate) {
  for (const group of selected) {
    code = run(group);
    if (code !== 0) process.exit(code);
  }
  process.exit(0);
}
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
  for (const group of selected) {
    code = run(group);
    if (code !== 0) break;
  }
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
