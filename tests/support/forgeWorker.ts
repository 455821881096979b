import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../infra/paths.ts';

/** `forge worker` (every queue, or those named) as a process of its own, as a user starts it. */
export function spawnForgeWorker(
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions,
  queues: readonly string[] = [],
): ChildProcess {
  return spawn(
    process.execPath,
    [
      ...(process.env.TESTS_WORKER_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TESTS_WORKER_PROFILE}`]
        : []),
      '--import',
      'tsx',
      path.join(repoRoot, 'cli', 'forge.ts'),
      'worker',
      ...queues,
    ],
    {
      cwd: repoRoot,
      env,
      stdio,
    },
  );
}
