import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

export { materializeHome } from '../../preparers/home/materialize.ts';

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
