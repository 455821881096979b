import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import type { FileMap } from '../../preparers/types.ts';

export { materializeHome };

import { type CheckerVerdict, SYSTEM_PYTHON } from '../../preparers/checker/runner.ts';

const run = promisify(execFile);

export {
  type CheckerVerdict,
  SYSTEM_PATH,
  SYSTEM_PYTHON,
} from '../../preparers/checker/runner.ts';

/** Runs the checker once over many (home, checks) states; one verdict list per state. */
export async function runCheckerBatch(
  checker: string,
  jobsFile: string,
  jobs: { home: string; checks: unknown[] }[],
): Promise<CheckerVerdict[][]> {
  await writeFile(jobsFile, JSON.stringify(jobs));
  const { stdout } = await run(SYSTEM_PYTHON, [checker, jobsFile, '--batch'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout) as CheckerVerdict[][];
}

/**
 * The shipped checker's verdicts on named states, each laid out as a home of its own: one batch,
 * one verdict list per state, in the states' order. The scratch folder is removed afterwards.
 */
export async function shippedVerdicts(
  states: Record<string, FileMap>,
  checks: unknown[],
): Promise<CheckerVerdict[][]> {
  const work = await mkdtemp(path.join(tmpdir(), 'forge-shipped-'));
  try {
    const checker = path.join(work, 'forge_check.py');
    await writeFile(checker, checkerSource().text);
    const jobs = [];
    for (const [name, files] of Object.entries(states)) {
      const home = path.join(work, name);
      await materializeHome(home, files);
      jobs.push({ home, checks });
    }
    return await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Asserts each named state's verdicts, check by check, with our probe and then with the shipped
 * checker: both must give exactly `want[state]`.
 */
export async function assertVerdicts<C>(
  states: Record<string, FileMap>,
  checks: C[],
  want: Record<string, boolean[]>,
  probe: (files: FileMap, check: C) => Promise<{ pass: boolean }>,
): Promise<void> {
  for (const [name, files] of Object.entries(states))
    assert.deepEqual(
      await Promise.all(checks.map(async (c) => (await probe(files, c)).pass)),
      want[name],
      name,
    );
  const verdicts = await shippedVerdicts(states, checks);
  assert.deepEqual(
    verdicts.map((v) => v.map((x) => x.pass)),
    Object.keys(states).map((name) => want[name]),
    'the shipped checker agrees',
  );
}
