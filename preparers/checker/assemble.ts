import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { preparers } from '../registry.ts';
import { APPS } from '../types.ts';

/**
 * The portable checker as one file: the shared core (OOXML access, JavaScript-compatible string
 * and regex helpers, the kind registry), then each app's part in APPS order (its preparer owns it:
 * `Preparer.checkerPart`), then the entry point. Standard-library Python 3 only, so it runs on the
 * OSWorld VM's own python3.
 */
const CORE = new URL('./core.py', import.meta.url);
const MAIN = new URL('./main.py', import.meta.url);

let cached: { text: string; sha256: string } | undefined;

export function checkerSource(): { text: string; sha256: string } {
  if (!cached) {
    const parts = [CORE, ...APPS.map((app) => preparers[app].checkerPart), MAIN];
    const text = parts.map((u) => readFileSync(u, 'utf8')).join('');
    cached = { text, sha256: createHash('sha256').update(text).digest('hex') };
  }
  return cached;
}

/** The file name the checker is shipped under. */
export const CHECKER_FILE = 'forge_check.py';
