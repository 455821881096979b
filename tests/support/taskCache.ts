import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { forgeHome, repoRoot } from '../../infra/paths.ts';

/**
 * A content-addressed cache, on disk, of what several test files build the same way (the offline
 * task of a skill, the oracle's edits made in LibreOffice): the first file to need an entry builds
 * it and the others, in the same run or a later one, read it. An entry's address is a hash of
 * everything its value is made from: the inputs the caller names and a digest of every source file
 * of the repository (tests/support included, the test files themselves not), the lockfile and the
 * Node version. Change any of them and the entry is built again; nothing stale is ever read.
 * TESTS_CACHE=off builds everything afresh.
 */

const SKIP_DIRS = new Set(['node_modules', 'out', 'test-artifacts', 'docs', 'bench']);

let digest: string | undefined;
/** Every file under the repository root but generated, documentation and test-file folders. */
export function sourceDigest(): string {
  if (digest) return digest;
  const h = createHash('sha256').update(process.version);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      const rel = path.relative(repoRoot, full);
      // The tests' own files do not make what is cached; their support code does.
      if (rel === 'tests' || rel.startsWith(`tests${path.sep}`)) {
        if (!(rel === 'tests' || rel.startsWith(path.join('tests', 'support')))) continue;
      }
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) h.update(rel).update('\0').update(readFileSync(full)).update('\0');
    }
  };
  walk(repoRoot);
  digest = h.digest('hex').slice(0, 24);
  return digest;
}

const enabled = () => process.env.TESTS_CACHE !== 'off';

let pruned = false;
/** Entries made from other sources are dropped an hour after their last write (a run still using them is long over). */
function cacheDir(): string {
  const root = path.join(forgeHome(), 'cache', 'tests');
  const dir = path.join(root, sourceDigest());
  mkdirSync(dir, { recursive: true });
  if (!pruned) {
    pruned = true;
    const hourAgo = Date.now() - 3600 * 1000;
    for (const other of readdirSync(root)) {
      const full = path.join(root, other);
      try {
        if (full !== dir && statSync(full).mtimeMs < hourAgo) rmSync(full, { recursive: true, force: true });
      } catch {
        // Another process pruned it first.
      }
    }
  }
  return dir;
}

/** A stable hash of a value made of JSON-like parts and byte arrays. */
export function keyOf(parts: unknown): string {
  const h = createHash('sha256');
  const feed = (v: unknown): void => {
    if (v instanceof Uint8Array) h.update(`b${v.byteLength}:`).update(v);
    else if (Array.isArray(v)) {
      h.update(`a${v.length}[`);
      for (const x of v) feed(x);
      h.update(']');
    } else if (v instanceof Map || v instanceof Set) {
      h.update(`${v.constructor.name}(`);
      feed([...v]);
      h.update(')');
    } else if (
      v !== null &&
      typeof v === 'object' &&
      Object.getPrototypeOf(v) !== Object.prototype &&
      Object.getPrototypeOf(v) !== null
    ) {
      // A RegExp, a Date: their text is their value.
      h.update(`${v.constructor?.name}:${String(v)}`);
    } else if (typeof v === 'function') {
      h.update(`f${String(v)}`);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort();
      h.update(`o${keys.length}{`);
      for (const k of keys) {
        h.update(JSON.stringify(k));
        feed((v as Record<string, unknown>)[k]);
      }
      h.update('}');
    } else h.update(`v${JSON.stringify(v) ?? 'undefined'}`);
  };
  feed(parts);
  return h.digest('hex').slice(0, 32);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The cached value for `parts` (under `kind`), built by `build` when absent. Concurrent processes
 * that need the same entry build it once: one takes a lock file, the others wait for the entry
 * (or for the lock's owner to die). Entries are written to a temporary name and renamed into place,
 * so a reader never sees half of one. A value v8 cannot serialize is returned without being stored.
 */
export async function cached<T>(kind: string, parts: unknown, build: () => Promise<T>): Promise<T> {
  if (!enabled()) return build();
  const dir = cacheDir();
  const file = path.join(dir, `${kind}-${keyOf(parts)}.bin`);
  const lock = `${file}.lock`;
  const read = (): T | undefined => {
    try {
      return deserialize(readFileSync(file)) as T;
    } catch {
      return undefined;
    }
  };
  const waitUntil = Date.now() + 15 * 60_000;
  for (;;) {
    if (existsSync(file)) {
      const hit = read();
      if (hit !== undefined) return hit;
    }
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      // Someone else is building it: wait, unless they died or took too long.
      const owner = Number(readFileSafe(lock));
      if (owner > 0 && !alive(owner)) rmSync(lock, { force: true });
      else if (Date.now() > waitUntil) return build();
      else await sleep(100);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      // It may have appeared between the check above and taking the lock.
      const late = existsSync(file) ? read() : undefined;
      if (late !== undefined) return late;
      const value = await build();
      let bytes: Buffer | undefined;
      try {
        bytes = serialize(value);
      } catch {
        bytes = undefined;
      }
      if (bytes) {
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, bytes);
        renameSync(tmp, file);
      }
      return value;
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // Removed as stale by a process that thought this one dead.
      }
    }
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
