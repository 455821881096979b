import { execFile, execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { osworldPackContext } from '../../export/osworld/packContext.ts';
import { type OsworldResult, toOsworldTask } from '../../export/osworld/task.ts';
import type { TaskPackage } from '../../taskpack/taskPackage.ts';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One metric call of an evaluator as OSWorld's own function scored it (tests/support/osworld_metrics.py). */
export type MetricScore =
  | { func: string; score: number }
  | { func: string; skipped: string }
  | { func: string; error: string };

export interface MetricJob {
  evaluator: Record<string, unknown>;
  /** The directory standing for /home/user (vm_file getters read from it). */
  home: string;
  /** The task's OSWorld cache directory (cache_file getters read from it). */
  cache: string;
  cloud: Record<string, string>;
}

/**
 * The venv's python with desktop-env installed, made by scripts/osworld-venv.sh on first use
 * (a minute or so; instant once made).
 */
export function osworldPython(): string {
  const out = execFileSync(path.join(root, 'scripts/osworld-venv.sh'), {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return path.resolve(root, out.trim());
}

/** Scores every job's evaluator, call by call, in one Python process. */
export async function scoreMetrics(
  python: string,
  jobsFile: string,
  jobs: MetricJob[],
): Promise<MetricScore[][]> {
  await writeFile(jobsFile, JSON.stringify(jobs));
  const { stdout } = await run(python, [path.join(root, 'tests/support/osworld_metrics.py'), jobsFile], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout) as MetricScore[][];
}

/** Exports a package as an OSWorld pack does, writing the pack's files under `packRoot`. */
export function exportToPack(
  pkg: TaskPackage,
  bytes: Map<string, Uint8Array>,
  packRoot: string,
): Promise<OsworldResult> {
  const put = async (packPath: string, data: Uint8Array) => {
    const target = path.join(packRoot, packPath);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data);
  };
  return toOsworldTask(
    pkg,
    osworldPackContext(pkg, {
      artifact: async (key, _sha, packPath) => {
        const data = bytes.get(key);
        if (!data) throw new Error(`${pkg.id}: no bytes for ${key}`);
        await put(packPath, data);
        return { packPath };
      },
      file: put,
    }),
  );
}
