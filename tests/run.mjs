// Runs Node's test runner over one group of tests (unit | integration | browser | all).
// Node 20's --test takes no glob, so the *.test.ts files are collected here.
import { spawnSync } from 'node:child_process';
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
  const files = collect(path.join(root, 'tests', group)).map((f) => path.relative(root, f));
  if (files.length === 0) {
    console.log(`tests/${group}: no test files`);
    return 0;
  }
  console.log(`tests/${group}: ${files.length} files`);
  const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', ...files];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const which = process.argv[2] ?? 'all';
if (which !== 'all' && !groups.includes(which)) {
  console.error(`usage: node tests/run.mjs [${groups.join('|')}|all]`);
  process.exit(2);
}
for (const group of which === 'all' ? groups : [which]) {
  const code = run(group);
  if (code !== 0) process.exit(code);
}
