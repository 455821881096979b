import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnv } from '../childEnv.ts';

export interface LaunchSpec {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Run as this user (Postgres refuses to run as root). */
  uid?: number;
  gid?: number;
}

/**
 * Starts a process in its own session with output appended to a log file, and lets the CLI exit
 * without taking it down: the stack outlives the `forge dev up` that started it.
 */
export function spawnDetached(spec: LaunchSpec, logPath: string): number {
  mkdirSync(path.dirname(logPath), { recursive: true });
  const log = openSync(logPath, 'a');
  try {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: childEnv({ extra: spec.env }),
      detached: true,
      stdio: ['ignore', log, log],
      uid: spec.uid,
      gid: spec.gid,
    });
    if (child.pid === undefined) throw new Error(`could not start ${spec.command}`);
    child.on('error', () => {});
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/**
 * True when pid is a live (not zombie) process running the executable named `executable`, so a
 * recycled pid belonging to some other program is not mistaken for ours.
 */
export function processAlive(pid: number, executable: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
    return path.basename(argv0) === executable;
  } catch {
    return false;
  }
}

/** Asks politely, then insists: `signal`, and SIGKILL if still running after `graceMs`. */
export async function stopProcess(
  pid: number,
  executable: string,
  signal: NodeJS.Signals,
  graceMs: number,
): Promise<'stopped' | 'killed' | 'not running'> {
  if (!processAlive(pid, executable)) return 'not running';
  try {
    process.kill(pid, signal);
  } catch {
    return 'not running';
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!processAlive(pid, executable)) return 'stopped';
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return 'stopped';
  }
  while (processAlive(pid, executable)) await sleep(50);
  return 'killed';
}

/** True when nothing listens on host:port (we can bind it ourselves). */
export function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Polls `check` until it returns true or the deadline passes; `stillRunning` lets a crashed start fail fast. */
export async function waitUntil(
  check: () => Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; stillRunning?: () => boolean },
): Promise<'ready' | 'timeout' | 'exited'> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await check()) return 'ready';
    if (options.stillRunning && !options.stillRunning()) return 'exited';
    if (Date.now() > deadline) return 'timeout';
    await sleep(options.intervalMs ?? 250);
  }
}
