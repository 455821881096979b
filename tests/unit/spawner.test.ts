import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { type RunError, runProgram } from '../../infra/spawner.ts';

test('a program run through the helper gives back its output, byte for byte, to the caller that asked', async () => {
  const many = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      runProgram('sh', ['-c', 'printf "%s\\377" "$1"; printf err >&2', 'sh', `job ${i}`]),
    ),
  );
  for (const [i, r] of many.entries()) {
    assert.deepEqual(r.stdout, Buffer.concat([Buffer.from(`job ${i}`), Buffer.from([0xff])]));
    assert.equal(r.stderr.toString(), 'err');
  }
  const env = await runProgram('sh', ['-c', 'printf %s "$ONLY"'], {
    env: { ONLY: 'this', PATH: '/usr/bin:/bin' },
  });
  assert.equal(env.stdout.toString(), 'this');
  // Without an environment of its own, a program sees none of this process's secrets.
  process.env.DATABASE_URL = 'postgres://secret';
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
  const bare = await runProgram('sh', ['-c', 'printf "%s|%s" "${DATABASE_URL-unset}" "${PATH:+path}"']);
  delete process.env.DATABASE_URL;
  assert.equal(bare.stdout.toString(), 'unset|path');
  // Started by the helper, not forked from this (large) process.
  const parent = Number((await runProgram('sh', ['-c', 'echo $PPID'])).stdout.toString());
  assert.ok(parent > 0 && parent !== process.pid, `the program's parent ${parent} is the helper`);
});

test('a failing, missing or overrunning program rejects with its exit status, output and cause', async () => {
  const failed = (await runProgram('sh', ['-c', 'printf out; printf bad >&2; exit 3']).catch(
    (e) => e,
  )) as RunError;
  assert.equal(failed.code, 3);
  assert.equal(failed.stdout.toString(), 'out');
  assert.equal(failed.stderr.toString(), 'bad');

  const missing = (await runProgram('/nonexistent/program', []).catch((e) => e)) as RunError;
  assert.equal(missing.code, 'ENOENT');

  const slow = (await runProgram('sleep', ['5'], { timeout: 200, killSignal: 'SIGKILL' }).catch(
    (e) => e,
  )) as RunError;
  assert.equal(slow.signal, 'SIGKILL');
  assert.equal(slow.killed, true);
});

test('an idle helper does not keep its parent alive', () => {
  const script =
    "import { runProgram } from './infra/spawner.ts'; const r = await runProgram('echo', ['done']); process.stdout.write(r.stdout);";
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(r.signal, null, 'the parent ended on its own');
  assert.equal(r.stdout, 'done\n');
});
