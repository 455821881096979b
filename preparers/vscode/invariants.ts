import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import type { FileMap } from '../types.ts';
import { normalizeChord } from './keys.ts';
import { isSettingsFile, USER_DIR, USER_KEYBINDINGS } from './paths.ts';
import { canonicalBinding, countedInListing, readKeybindings, readSettings } from './probe.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The deepest folder holding every workspace file (not the user configuration), or undefined at home level. */
export function workspaceRoot(paths: string[]): string | undefined {
  const own = paths.filter((p) => !p.startsWith(`${USER_DIR}/`)).map((p) => p.split('/').slice(0, -1));
  if (own.length === 0) return undefined;
  let common = own[0]!;
  for (const segs of own.slice(1)) {
    let i = 0;
    while (i < common.length && i < segs.length && common[i] === segs[i]) i++;
    common = common.slice(0, i);
  }
  // A workspace's .vscode/ folder is inside it, not the folder itself.
  const at = common.indexOf('.vscode');
  if (at >= 0) common = common.slice(0, at);
  return common.length === 0 ? undefined : common.join('/');
}

const INDENT_KEYS = new Set(['editor.tabSize', 'editor.insertSpaces']);
const DETECT_INDENT = 'editor.detectIndentation';

/**
 * "Nothing else changed": every settings key, keybinding and workspace file the oracle left alone
 * keeps its value, and the workspace gains no file the oracle does not leave there (a setting
 * written to the workspace's .vscode/settings.json instead of the user's shows up as one).
 */
export async function vscodeInvariants(
  initial: FileMap,
  solved: FileMap,
  files: string[],
): Promise<unknown[]> {
  if (files.length === 0) return [];
  const checks: unknown[] = [];
  const settingsFiles = [...new Set([...files, ...Object.keys(solved)])].filter(isSettingsFile).sort();
  for (const file of settingsFiles) {
    if (!(file in initial) && !(file in solved)) continue;
    const before = readSettings(initial, file);
    const after = readSettings(solved, file);
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((k) => !jsonEqual(before[k], after[k]));
    // Indentation detection overrides the tab settings in files already indented otherwise, so
    // turning it off is part of changing them.
    if (changed.some((k) => INDENT_KEYS.has(k)) && !changed.includes(DETECT_INDENT))
      changed.push(DETECT_INDENT);
    const ignore = changed.sort();
    const expect = Object.fromEntries(Object.entries(after).filter(([k]) => !ignore.includes(k)));
    checks.push({ kind: 'vscode.settings_unchanged', file, ignore, expect });
  }
  if (USER_KEYBINDINGS in initial || USER_KEYBINDINGS in solved) {
    const before = readKeybindings(initial, USER_KEYBINDINGS);
    const after = readKeybindings(solved, USER_KEYBINDINGS);
    const count = (list: unknown[]) => {
      const m = new Map<string, number>();
      for (const e of list) m.set(canonicalBinding(e), (m.get(canonicalBinding(e)) ?? 0) + 1);
      return m;
    };
    const a = count(before);
    const b = count(after);
    // The key/command pairs whose entries the oracle added or removed.
    const touched = new Map<string, { key: string; command: string }>();
    for (const e of [...before, ...after]) {
      const c = canonicalBinding(e);
      if (
        (a.get(c) ?? 0) !== (b.get(c) ?? 0) &&
        isObj(e) &&
        typeof e.key === 'string' &&
        typeof e.command === 'string'
      )
        touched.set(JSON.stringify([normalizeChord(e.key), e.command]), { key: e.key, command: e.command });
    }
    const isTouched = (e: unknown) =>
      isObj(e) &&
      typeof e.key === 'string' &&
      touched.has(JSON.stringify([normalizeChord(e.key), e.command]));
    const entries = after
      .filter((e) => !isTouched(e))
      .filter(isObj)
      .map((e) => ({
        key: String(e.key),
        command: String(e.command),
        ...(typeof e.when === 'string' ? { when: e.when } : {}),
      }));
    checks.push({ kind: 'vscode.keybindings_unchanged', touched: [...touched.values()], entries });
  }
  const root = workspaceRoot(files);
  if (root !== undefined) {
    const kept: Record<string, string> = {};
    for (const path of files.filter((p) => p.startsWith(`${root}/`) && !isSettingsFile(p)).sort()) {
      const a = initial[path];
      const b = solved[path];
      if (a !== undefined && b !== undefined && Buffer.compare(a, b) === 0) kept[path] = sha(a);
    }
    const listing = [...new Set([...Object.keys(initial), ...Object.keys(solved)])]
      .filter((p) => p in solved && countedInListing(root, p))
      .sort();
    checks.push({ kind: 'vscode.files_unchanged', dir: root, files: kept, listing });
  }
  return checks;
}
