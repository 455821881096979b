import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { OS_MANIFEST_PATH, osManifestOf } from '../../preparers/os/manifest.ts';
import type { FileMap } from '../../preparers/types.ts';

const run = promisify(execFile);

/** The distribution's python3, as on the OSWorld VM (a version manager's shim on PATH adds ~0.5 s per start). */
export const SYSTEM_PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** PATH with the system directories first, so `python3` in a command means the system one. */
export const SYSTEM_PATH = `/usr/bin:/bin:${process.env.PATH ?? ''}`;

/** Lays a FileMap out under `home` as the VM would hold it: files, then the OS manifest's dirs, links and modes. */
export async function materializeHome(home: string, files: FileMap): Promise<void> {
  await mkdir(home, { recursive: true });
  for (const [rel, bytes] of Object.entries(files)) {
    if (rel === OS_MANIFEST_PATH) continue;
    const target = path.join(home, rel);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  const manifest = osManifestOf(files);
  for (const e of manifest.entries) {
    const target = path.join(home, e.path);
    if (e.type === 'dir') await mkdir(target, { recursive: true });
    else if (e.type === 'symlink' && e.target) {
      await mkdir(path.dirname(target), { recursive: true });
      await symlink(e.target, target).catch(() => {});
    }
  }
  // Deepest first, so a restrictive directory mode never blocks setting the ones below it.
  const modes = manifest.entries.filter((e) => e.mode && e.type !== 'symlink');
  for (const e of modes.sort((a, b) => b.path.length - a.path.length)) {
    await chmod(path.join(home, e.path), Number.parseInt(e.mode!, 8));
  }
}

export interface CheckerVerdict {
  pass: boolean;
  observed: unknown;
}

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
