import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import { heldFolders, parentDirs } from '../paths.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { formatMode } from './schema.ts';
import { HomeTree, type Node } from './state.ts';

/**
 * "Nothing else changed" in the home directory: every file, directory and symlink of the task's
 * own tree that the oracle left alone keeps its type, mode and (files) content hash; one it touched
 * keeps what the oracle did not change (an edited file its mode, a chmod-ed file its content).
 */
export interface EntrySnap {
  type: Node['type'];
  mode?: string;
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

/** `got` has every attribute `want` holds (a touched entry's snapshot holds only some). */
const same = (got: EntrySnap | undefined, want: EntrySnap) =>
  got !== undefined && (Object.keys(want) as (keyof EntrySnap)[]).every((k) => jsonEqual(got[k], want[k]));

/** What of `was` the oracle kept in `now`: undefined unless the type and one more attribute stay. */
function keptOf(was: EntrySnap, now: EntrySnap): EntrySnap | undefined {
  if (was.type !== now.type) return undefined;
  const kept: EntrySnap = { type: was.type };
  for (const k of ['mode', 'sha256', 'target'] as const)
    if (was[k] !== undefined && was[k] === now[k]) kept[k] = was[k];
  return Object.keys(kept).length > 1 ? kept : undefined;
}

export async function osInvariants(initial: FileMap, solved: FileMap, files: string[]): Promise<unknown[]> {
  // Even with no file of its own (only folders in the manifest), the home's folders are held.
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
    const kept = keptOf(snapNode(a), snapNode(b));
    if (kept) entries[path] = kept;
  }
  // The task's folders hold what was there or the oracle leaves there, nothing more: a folder made,
  // a file copied or written in the wrong place shows as a new entry (hidden names are an app's own).
  const children: Record<string, string[]> = {};
  // Folders the oracle makes hold what it puts there (absent, the check skips them): visible ones,
  // and hidden ones it makes for its own output (a ~/.backups it copies into).
  const visible = (p: string) => !p.split('/').some((seg) => seg.startsWith('.'));
  const outputs = new Set(
    [...after.nodes.keys()].filter((p) => before.get(p) === undefined).flatMap((p) => parentDirs(p)),
  );
  // A hidden folder counts only under a hidden root the oracle makes: inside one that was there
  // (~/.thunderbird, ~/.config) the app keeps its own files (the real Thunderbird writes an .msf
  // beside a mail folder the task makes).
  const hiddenRoot = (p: string) => {
    const segments = p.split('/');
    const at = segments.findIndex((seg) => seg.startsWith('.'));
    return segments.slice(0, at + 1).join('/');
  };
  const made = [...after.nodes.entries()].flatMap(([p, n]) =>
    n.type === 'dir' &&
    before.get(p) === undefined &&
    (visible(p) ||
      (outputs.has(p) && before.get(hiddenRoot(p)) === undefined) ||
      parentDirs(p).some((d) => paths.has(d)))
      ? [p]
      : [],
  );
  for (const path of made) children[path] = childNames(after, path);
  // Every visible folder of the home holds its entries too, not only the task's own: a copy filed
  // in a neighbouring folder as well is collateral (paths.ts heldFolders says which).
  const held = new Set([...paths, ...heldFolders([...before.nodes.keys(), ...after.nodes.keys()])]);
  for (const path of [...held].sort())
    if (before.get(path)?.type === 'dir' && after.get(path)?.type === 'dir')
      children[path] = [...new Set([...childNames(before, path), ...childNames(after, path)])].sort();
  return [{ kind: 'os.unchanged', entries, children }];
}

/** The names, not hidden, of a folder's direct entries, sorted. */
function childNames(tree: HomeTree, dir: string): string[] {
  const names: string[] = [];
  for (const p of tree.nodes.keys()) {
    if (!p.startsWith(`${dir}/`)) continue;
    const name = p.slice(dir.length + 1);
    if (!name.includes('/') && !name.startsWith('.')) names.push(name);
  }
  return names.sort();
}

/** `os.unchanged`: each listed path exists with that type, mode, content hash and link target. */
export function probeOsUnchanged(
  tree: HomeTree,
  check: { entries: Record<string, EntrySnap>; children?: Record<string, string[]> },
): ProbeResult {
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
  const added: string[] = [];
  for (const [dir, names] of Object.entries(check.children ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    if (tree.get(dir)?.type !== 'dir') continue;
    for (const name of childNames(tree, dir)) if (!names.includes(name)) added.push(`${dir}/${name}`);
  }
  const pass = changed === 0 && added.length === 0;
  return {
    pass,
    observed: pass
      ? { kept: Object.keys(check.entries).length }
      : { changed, examples: problems, ...(added.length > 0 ? { added: added.slice(0, 8) } : {}) },
  };
}
