import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../../infra/childEnv.ts';
import { FILTERS, type OfficeFormat } from './formats.ts';
import type { OfficeProfile } from './profile.ts';

/** One file of a conversion group; `name` is only used in error messages. */
export interface ConversionInput {
  name: string;
  bytes: Uint8Array;
}

export type ConversionOutcome = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

export interface ConversionGroup {
  format: OfficeFormat;
  target: 'same' | 'pdf';
  files: ConversionInput[];
}

export class OfficeTimeoutError extends Error {
  override name = 'OfficeTimeoutError';
}

/**
 * Converts every file of the group in ONE soffice invocation (input files are renamed to
 * `f<i>.<ext>` so names from tasks never reach the command line). A file LibreOffice cannot
 * convert gets its own error; only a crash or timeout of soffice itself fails the whole group.
 */
export async function convertGroup(
  soffice: string,
  profile: OfficeProfile,
  group: ConversionGroup,
  timeoutMs: number,
): Promise<ConversionOutcome[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'cua-forge-office-batch-'));
  try {
    const inDir = path.join(work, 'in');
    const outDir = path.join(work, 'out');
    await mkdir(inDir);
    await mkdir(outDir);
    const inputs = group.files.map((_, i) => path.join(inDir, `f${i}.${group.format}`));
    await Promise.all(group.files.map((f, i) => writeFile(inputs[i], f.bytes)));
    const filters = FILTERS[group.format];
    const convertTo = group.target === 'pdf' ? 'pdf' : filters.roundTrip;
    const args = [
      profile.arg,
      '--headless',
      '--invisible',
      '--nologo',
      '--nodefault',
      '--nolockcheck',
      '--norestore',
      `--infilter=${filters.input}`,
      '--convert-to',
      convertTo,
      '--outdir',
      outDir,
      ...inputs,
    ];
    const log = await run(soffice, args, timeoutMs);
    const outExt = group.target === 'pdf' ? 'pdf' : group.format;
    return Promise.all(
      group.files.map(async (f, i): Promise<ConversionOutcome> => {
        try {
          const bytes = await readFile(path.join(outDir, `f${i}.${outExt}`));
          if (bytes.length === 0) throw new Error('empty output');
          return { ok: true, bytes: new Uint8Array(bytes) };
        } catch {
          const said = log
            .split('\n')
            .filter(
              (l) =>
                (l.includes(`f${i}.${group.format}`) && /error/i.test(l)) || l.startsWith('soffice exited'),
            )
            .join('; ');
          return {
            ok: false,
            error: `LibreOffice could not convert ${f.name} (${group.format} → ${outExt})${said ? `: ${said}` : ''}`,
          };
        }
      }),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs soffice in its own process group and kills the whole group on timeout. */
function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv({ pass: ['SAL_USE_VCLPLUGIN'] }),
    });
    let log = '';
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start LibreOffice (${command}): ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new OfficeTimeoutError(`LibreOffice did not finish within ${timeoutMs} ms; killed`));
      } else {
        // A non-zero exit still leaves the files it did convert; each file is judged by its output.
        resolve(code === 0 ? log : `${log}\nsoffice exited with ${code ?? signal}`);
      }
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
