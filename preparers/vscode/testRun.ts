import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileMap } from '../types.ts';

/**
 * `vscode.tests_pass` on a state that is only bytes: the folder's files are written to a scratch
 * directory and the fixed command `python3 -m unittest discover` runs there, in a network-less
 * user namespace (`unshare -rn`), with a scrubbed environment, no byte-code written and a time
 * limit. The test code comes from a skill spec, so it never runs outside that box: where user
 * namespaces are unavailable the check fails with that reason rather than run the code bare.
 */
const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 200_000;

let isolation: boolean | undefined;
function canIsolate(): boolean {
  isolation ??= spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' }).status === 0;
  return isolation;
}

export interface TestRun {
  ran: number;
  ok: boolean;
  exit: number | null;
  tail: string;
}

/** Parses unittest's summary ("Ran 3 tests", "OK" / "FAILED (failures=1)"); the checker reads it the same way. */
export function unittestSummary(output: string, exit: number | null): TestRun {
  const ran = /^Ran (\d+) tests? in /m.exec(output);
  const count = ran ? Number(ran[1]) : 0;
  const ok = /^OK\b/m.test(output) && exit === 0 && count > 0;
  return { ran: count, ok, exit, tail: output.trim().split('\n').slice(-3).join(' | ').slice(0, 300) };
}

export async function runUnittest(files: FileMap, dir: string): Promise<TestRun | { error: string }> {
  if (!canIsolate())
    return { error: 'tests are run only in a network-less user namespace, which this host lacks' };
  const own = Object.entries(files).filter(([p]) => p.startsWith(`${dir}/`));
  if (own.length === 0) return { error: `${dir} holds no files` };
  const scratch = await mkdtemp(join(tmpdir(), 'forge-vscode-tests-'));
  try {
    for (const [p, bytes] of own) {
      const to = join(scratch, p.slice(dir.length + 1));
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, bytes);
    }
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: scratch,
      LANG: 'C.UTF-8',
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONHASHSEED: '0',
    };
    return await new Promise((resolve) => {
      const child = spawn('unshare', ['-rn', 'python3', '-m', 'unittest', 'discover'], {
        cwd: scratch,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      const take = (chunk: Buffer) => {
        if (output.length < MAX_OUTPUT) output += chunk.toString('utf8');
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, TIMEOUT_MS);
      child.on('error', (err) => {
        clearTimeout(timer);
        resolve({ error: `could not run python3: ${err.message}` });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(unittestSummary(output, code));
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
