import { createHash } from 'node:crypto';
import { heldFolders, parentDirs } from '../paths.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import type { VlcCheck } from './schema.ts';
import { activeNames, effectiveValue, PREFS, sameValue, VLCRC_PATH } from './vlcrc.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));
const byPath = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** The names, not hidden, of a folder's direct entries in a FileMap (files and the folders they imply). */
export function childNames(files: FileMap, dir: string): string[] {
  const names = new Set<string>();
  for (const p of Object.keys(files)) {
    if (!p.startsWith(`${dir}/`)) continue;
    const name = p.slice(dir.length + 1).split('/')[0]!;
    if (!name.startsWith('.')) names.add(name);
  }
  return [...names].sort();
}

/**
 * Options VLC applies only while one of these (boolean) options is on: with all of them off in the
 * oracle's state, how they are set changes nothing (enqueueing in one-instance mode, once that
 * mode is off), so they are not held.
 */
const ONLY_UNDER: Record<string, string[]> = {
  'playlist-enqueue': ['one-instance', 'one-instance-when-started-from-file'],
};

/** The options whose value changes nothing in a vlcrc of this text (ONLY_UNDER), so no invariant holds them. */
export function untrackedOptions(after: string | undefined): Set<string> {
  return new Set(
    Object.entries(ONLY_UNDER).flatMap(([key, parents]) =>
      parents.every((p) => effectiveValue(after, p) === 0) ? [key] : [],
    ),
  );
}

/**
 * "Nothing else changed": the task's media and playlists the oracle left alone keep their bytes;
 * the vlcrc is held by what VLC reads from it (VLC rewrites the whole file when it saves, so its
 * bytes say nothing): every known option the oracle left alone keeps its value, and no option is
 * set that neither the start nor the oracle set; the task's folders gain no entry the oracle did
 * not leave there.
 */
export function vlcInvariants(initial: FileMap, solved: FileMap, files: string[]): VlcCheck[] {
  if (files.length === 0) return [];
  const pinned: Record<string, string> = {};
  for (const f of [...files].sort()) {
    if (f === VLCRC_PATH) continue;
    const a = initial[f];
    const b = solved[f];
    if (a !== undefined && b !== undefined && sha(a) === sha(b)) pinned[f] = sha(a);
  }
  let prefs: { file: string; keep: Record<string, number | string>; active: string[] } | undefined;
  if (files.includes(VLCRC_PATH) && solved[VLCRC_PATH] !== undefined) {
    const before = text(initial[VLCRC_PATH]);
    const after = text(solved[VLCRC_PATH]);
    const keep: Record<string, number | string> = {};
    const untracked = untrackedOptions(after);
    for (const [key, info] of Object.entries(PREFS)) {
      if (untracked.has(key)) continue;
      const was = effectiveValue(before, key);
      if (sameValue(info, was, effectiveValue(after, key))) keep[key] = was;
    }
    const active = [...new Set([...activeNames(before ?? ''), ...activeNames(after ?? '')])].sort();
    prefs = { file: VLCRC_PATH, keep, active };
  }
  const dirs = new Set<string>();
  // Hidden folders are the apps' own (VLC writes its Qt state beside the vlcrc): not held. Every
  // other folder of the home is, not only the task's own: an output made twice, a snapshot left on
  // the Desktop, show there (paths.ts heldFolders says which).
  for (const f of files) for (const d of parentDirs(f)) if (!/(^|\/)\./.test(d)) dirs.add(d);
  for (const d of heldFolders([...Object.keys(initial), ...Object.keys(solved)])) dirs.add(d);
  const children: Record<string, string[]> = {};
  for (const d of [...dirs].sort()) {
    const names = [...new Set([...childNames(initial, d), ...childNames(solved, d)])].sort();
    if (names.length > 0) children[d] = names;
  }
  // Folders the oracle makes hold what it puts there.
  for (const f of Object.keys(solved))
    for (const d of parentDirs(f))
      if (!(d in children) && childNames(initial, d).length === 0 && parentDirs(d).some((p) => dirs.has(p)))
        children[d] = childNames(solved, d);
  return [{ kind: 'vlc.unchanged', files: pinned, ...(prefs ? { prefs } : {}), children }];
}

export function probeVlcUnchanged(
  files: FileMap,
  check: Extract<VlcCheck, { kind: 'vlc.unchanged' }>,
): ProbeResult {
  const changed: string[] = [];
  for (const [path, want] of Object.entries(check.files).sort(byPath)) {
    const b = files[path];
    if (b === undefined || sha(b) !== want) changed.push(path);
  }
  const prefs: string[] = [];
  if (check.prefs) {
    const t = text(files[check.prefs.file]);
    for (const [key, want] of Object.entries(check.prefs.keep).sort(byPath)) {
      const info = PREFS[key];
      if (info === undefined || !sameValue(info, effectiveValue(t, key), want)) prefs.push(key);
    }
    for (const name of activeNames(t ?? '').sort())
      if (!(name in PREFS) && !check.prefs.active.includes(name)) prefs.push(name);
  }
  const added: string[] = [];
  for (const [dir, names] of Object.entries(check.children).sort(byPath)) {
    for (const name of childNames(files, dir)) if (!names.includes(name)) added.push(`${dir}/${name}`);
  }
  const pass = changed.length === 0 && prefs.length === 0 && added.length === 0;
  return {
    pass,
    observed: pass
      ? { kept: Object.keys(check.files).length }
      : {
          ...(changed.length > 0 ? { changed: changed.slice(0, 8) } : {}),
          ...(prefs.length > 0 ? { prefs: prefs.slice(0, 8) } : {}),
          ...(added.length > 0 ? { added: added.slice(0, 8) } : {}),
        },
  };
}
