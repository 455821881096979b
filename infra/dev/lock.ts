import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One `forge dev up/down` at a time per stack home (several shells, test runners and workers may race).
 * A lock left by a dead process is taken over.
 */
export async function withStackLock<T>(
  lockFile: string,
  timeoutMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const holder = lockHolder(lockFile);
      if (holder !== undefined && !pidExists(holder)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the stack is locked by process ${holder ?? '?'} (${lockFile}); is another forge dev running?`,
        );
      }
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function lockHolder(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
