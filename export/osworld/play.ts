import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { childEnv } from '../../infra/childEnv.ts';
import { type RunError, runProgram } from '../../infra/spawner.ts';
import { VM_HOME } from './vm.ts';

/** Steps of a task's `config` that act on the screen only: a home directory has nothing to do for them. */
const SCREEN_ONLY = new Set(['open', 'launch', 'sleep', 'activate_window', 'close_window']);

/**
 * The programs an exported config runs through `execute`, each with the argument shape the exporter
 * writes (export/osworld/task.ts, setupStep). They are run for real, with their VM paths moved into
 * the scratch home; anything else in a config is refused rather than run on a worker.
 */
const PROGRAMS: Record<string, (args: string[]) => boolean> = {
  mkdir: (a) => a[0] === '-p' && a.length > 1,
  chmod: (a) => a.length === 2 && /^[0-7]{3,4}$/.test(a[0]!),
  ln: (a) => a[0] === '-sfnr' && a[1] === '--' && a.length === 4,
  tar: (a) =>
    a.length === 6 && a[0] === '-xz' && a[1] === '--recursive-unlink' && a[2] === '-f' && a[4] === '-C',
};

export class ConfigPlayError extends Error {
  override name = 'ConfigPlayError';
}

/**
 * A VM path moved into the scratch home that stands for /home/user (the gate's choice over a
 * private mount namespace: no privileges needed, and the checker reads `$HOME`, which the gate sets
 * to the same directory). A path outside the VM home, or one with `..`, is refused.
 */
export function inScratchHome(home: string, vmPath: string): string {
  if (vmPath !== VM_HOME && !vmPath.startsWith(`${VM_HOME}/`))
    throw new ConfigPlayError(`the config names ${vmPath}, which is outside ${VM_HOME}`);
  if (vmPath.split('/').includes('..'))
    throw new ConfigPlayError(`the config names ${vmPath}, which holds ..`);
  return home + vmPath.slice(VM_HOME.length);
}

const run = (cmd: string, args: string[]) =>
  runProgram(cmd, args, { env: childEnv(), timeout: 60_000 }).then(
    () => undefined,
    (err: RunError) => {
      throw new ConfigPlayError(`${cmd} ${args.join(' ')}: ${err.stderr?.toString() || err.message}`);
    },
  );

export type ConfigStep = { type: string; parameters?: Record<string, unknown> };

/**
 * Plays an OSWorld config into `home` as the harness plays it into the VM: uploads (bytes from the
 * pack, by their `local_path`) and the exporter's commands, in order. `only`: play just the steps
 * that touch these VM paths (the checker's upload into a state laid out by other means).
 */
export async function playConfig(
  steps: ConfigStep[],
  home: string,
  packFile: (packPath: string) => Uint8Array | undefined,
  only?: (vmPath: string) => boolean,
): Promise<void> {
  for (const step of steps) {
    const p = step.parameters ?? {};
    if (SCREEN_ONLY.has(step.type)) continue;
    if (step.type === 'upload_file') {
      for (const f of p.files as { local_path: string; path: string }[]) {
        if (only && !only(f.path)) continue;
        const bytes = packFile(f.local_path);
        if (!bytes)
          throw new ConfigPlayError(`upload_file names ${f.local_path}, which the pack does not hold`);
        const target = inScratchHome(home, f.path);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes);
      }
    } else if (step.type === 'execute' || step.type === 'command') {
      const [cmd, ...args] = p.command as string[];
      if (!cmd || !PROGRAMS[cmd]?.(args))
        throw new ConfigPlayError(
          `the config runs ${JSON.stringify(p.command).slice(0, 200)}, which no exporter step writes`,
        );
      const paths = args.filter((a) => a.startsWith('/'));
      if (only && !paths.some(only)) continue;
      const moved = (a: string) => inScratchHome(home, a.replace(/\/$/, ''));
      // mkdir -p and an octal chmod are done here, as the programs do them (mode 0777 less the
      // umask for new folders): a worker's process start costs ~4 ms of its CPU, and every task
      // plays these. ln -r and tar resolve paths in ways worth leaving to the programs themselves.
      if (cmd === 'mkdir' || cmd === 'chmod') {
        try {
          if (cmd === 'mkdir') for (const a of args.slice(1)) await mkdir(moved(a), { recursive: true });
          else await chmod(moved(args[1]!), Number.parseInt(args[0]!, 8));
        } catch (err) {
          throw new ConfigPlayError(`${cmd} ${args.join(' ')}: ${(err as Error).message}`);
        }
        continue;
      }
      await run(
        cmd,
        args.map((a) => (a.startsWith('/') ? moved(a) + (a.endsWith('/') ? '/' : '') : a)),
      );
    } else if (step.type === 'download') {
      throw new ConfigPlayError('the config downloads files: the gate grades packs that ship them');
    } else
      throw new ConfigPlayError(`the config has a step of type ${step.type}, which OSWorld would not know`);
  }
}
