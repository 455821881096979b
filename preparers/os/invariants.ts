import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import { parentDirs } from '../paths.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { formatMode } from './schema.ts';
import { HomeTree, type Node } from './state.ts';

/**
 * "Nothing else changed" in the home directory: every file, directory and symlink of the task's
 * own tree that the oracle left alone keeps its type, mode and (files) content hash.
 */
export interface EntrySnap {
  type: Node['type'];
  mode: string;
  sha256?: string;
  target?: string;
}

function snapNode(node: Node): EntrySnap {
  return {
    type: node.type,
    mode: formatMode(node.mode),
    ...(node.type === 'file'
      ? {
          sha256: createHash('sha256')
            .update(node.data ?? new Uint8Array())
            .digest('hex'),
        }
      : {}),
    ...(node.target !== undefined ? { target: node.target } : {}),
  };
}

const same = (a: EntrySnap | undefined, b: EntrySnap) => a !== undefined && jsonEqual(a, b);

export async function osInvariants(initial: FileMap, solved: FileMap, files: string[]): Promise<unknown[]> {
  if (files.length === 0) return [];
  const before = HomeTree.fromFiles(initial);
  const after = HomeTree.fromFiles(solved);
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f);
    for (const p of parentDirs(f)) paths.add(p);
  }
  const entries: Record<string, EntrySnap> = {};
  for (const path of [...paths].sort()) {
    const a = before.get(path);
    const b = after.get(path);
    if (!a || !b) continue;
    const snap = snapNode(a);
    if (same(snapNode(b), snap)) entries[path] = snap;
  }
  return [{ kind: 'os.unchanged', entries }];
}

/** `os.unchanged`: each listed path exists with that type, mode, content hash and link target. */
export function probeOsUnchanged(tree: HomeTree, check: { entries: Record<string, EntrySnap> }): ProbeResult {
  const problems: unknown[] = [];
  let changed = 0;
  // Paths in sorted order, as the checker walks them (the payload's key order is not kept).
  for (const [path, want] of Object.entries(check.entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const node = tree.get(path);
    const got = node ? snapNode(node) : undefined;
    if (same(got, want)) continue;
    changed++;
    if (problems.length < 8) problems.push({ path, was: want, now: got ?? null });
  }
  return {
    pass: changed === 0,
    observed: changed === 0 ? { kept: Object.keys(check.entries).length } : { changed, examples: problems },
  };
}
