import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from './childEnv.ts';

/**
 * Runs programs from a small helper process instead of this one. Node forks the whole process to
 * start a program: from a worker holding a gigabyte of heap, every checker batch, ffprobe and metric
 * command copied its page tables and then took copy-on-write faults (a whole-library round spent
 * ~65 s of main-thread time in spawn alone, and most of its system time). The helper is a bare
 * `node` of a few tens of megabytes, started once, whose forks cost next to nothing.
 *
 * The same contract as `child_process.execFile` for the options used here; if the helper cannot
 * be started, programs are run directly.
 */
export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeout?: number;
  maxBuffer?: number;
  killSignal?: NodeJS.Signals;
}

export interface RunError extends Error {
  /** The exit status, or an errno name (ENOENT) when the program could not start. */
  code: number | string | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stdout: Buffer;
  stderr: Buffer;
}

export interface RunResult {
  stdout: Buffer;
  stderr: Buffer;
}

type Reply = {
  id: number;
  error: {
    message: string;
    code: number | string | null;
    signal: NodeJS.Signals | null;
    killed: boolean;
  } | null;
  stdout: Uint8Array;
  stderr: Uint8Array;
};

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'spawnerProcess.mjs');

let helper: ChildProcess | undefined;
let broken = false;
let nextId = 0;
const pending = new Map<
  number,
  { resolve: (r: RunResult) => void; reject: (e: Error) => void; what: string }
>();

function started(): ChildProcess | undefined {
  if (helper || broken) return helper;
  try {
    const child = spawn(process.execPath, [CHILD], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      // The helper passes each program the environment it is given, and needs none of its own.
      env: { PATH: process.env.PATH ?? '' },
    });
    child.on('message', (m: Reply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      idle();
      const stdout = Buffer.from(m.stdout.buffer, m.stdout.byteOffset, m.stdout.byteLength);
      const stderr = Buffer.from(m.stderr.buffer, m.stderr.byteOffset, m.stderr.byteLength);
      if (!m.error) p.resolve({ stdout, stderr });
      else p.reject(Object.assign(new Error(m.error.message), { ...m.error, stdout, stderr }));
    });
    const gone = (why: string) => {
      if (helper === child) helper = undefined;
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new Error(`${p.what}: the process that ran it ${why}`));
      }
    };
    child.on('error', (err) => {
      broken = true;
      gone(`failed (${err.message})`);
    });
    child.on('exit', (code, signal) => gone(`exited (${signal ?? code})`));
    child.unref();
    helper = child;
    idle();
  } catch {
    broken = true;
  }
  return helper;
}

/** An idle helper does not keep this process alive; one with work in flight does. */
function idle(): void {
  const channel = helper?.channel as { ref(): void; unref(): void } | undefined;
  if (pending.size === 0) channel?.unref();
  else channel?.ref();
}

function direct(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) =>
    execFile(
      file,
      args,
      { ...options, env: options.env ?? childEnv(), encoding: 'buffer' },
      (err, stdout, stderr) =>
        err ? reject(Object.assign(err, { stdout, stderr })) : resolve({ stdout, stderr }),
    ),
  );
}

/**
 * Runs a program to its end: its output, or a RunError (exit status, signal, output) when it fails.
 * Without `env` the program gets childEnv()'s, never this process's secrets.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const child = started();
  if (!child?.connected) return direct(file, args, options);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, what: `${file} ${args.slice(0, 3).join(' ')}` });
    idle();
    child.send({ id, file, args, options: { ...options, env: options.env ?? childEnv() } }, (err) => {
      // The helper went between the check and the send: run it here instead.
      if (!err || !pending.delete(id)) return;
      idle();
      direct(file, args, options).then(resolve, reject);
    });
  });
}
