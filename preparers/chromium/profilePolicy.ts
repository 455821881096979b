import type { NamedPath, ProfileEntry, ProfilePolicy } from '../types.ts';
import { CHROMIUM_DIR, isPageUrl, type Json, PREFS, type PrefPath, prefValueProblem } from './prefs.ts';
import { engineProblem, SEARCH_PREF } from './searchEngines.ts';

/** Chrome's own user-data directories: Chromium never reads them, and no spec may write there. */
const CHROME_DIRS = ['.config/google-chrome', '.config/google-chrome-beta', '.config/google-chrome-unstable'];

function leaves(value: Json, prefix: string, out: [string, Json][]): void {
  // An empty object is a leaf too: `{"extensions": {}}` names a setting as much as a value does.
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    prefix !== SEARCH_PREF &&
    Object.keys(value).length > 0
  ) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, value]);
}

function preferencesProblem(text: string): string | null {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return 'Preferences is not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'Preferences is not a JSON object';
  const out: [string, Json][] = [];
  leaves(value, '', out);
  for (const [path, v] of out) {
    if (path === SEARCH_PREF) {
      const problem = engineProblem(v);
      if (problem) return problem;
    } else if (!(path in PREFS))
      return `Preferences sets ${path}, which is not a setting tasks may set (extensions, policies, handlers and the like are refused)`;
    else {
      const problem = prefValueProblem(path as PrefPath, v);
      if (problem) return problem;
    }
  }
  return null;
}

const NODE_KEYS = new Set([
  'id',
  'name',
  'type',
  'url',
  'children',
  'date_added',
  'date_modified',
  'date_last_used',
  'guid',
]);

function bookmarksProblem(text: string): string | null {
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'Bookmarks is not JSON';
  }
  if (file === null || typeof file !== 'object') return 'Bookmarks is not a JSON object';
  for (const key of Object.keys(file))
    if (!['checksum', 'roots', 'version'].includes(key)) return `Bookmarks has the field ${key}`;
  const roots = file.roots as Record<string, unknown> | undefined;
  if (roots === null || typeof roots !== 'object') return 'Bookmarks has no roots';
  const node = (n: unknown): string | null => {
    if (n === null || typeof n !== 'object' || Array.isArray(n)) return 'a bookmark is not an object';
    const o = n as Record<string, unknown>;
    for (const key of Object.keys(o)) if (!NODE_KEYS.has(key)) return `a bookmark has the field ${key}`;
    if (o.type === 'url') {
      // A javascript: bookmarklet runs code on the open page when clicked.
      return typeof o.url === 'string' && isPageUrl(o.url)
        ? null
        : `bookmark URL ${JSON.stringify(o.url)} is not an http(s) or local page`;
    }
    if (o.type !== 'folder' || !Array.isArray(o.children)) return 'a bookmark is neither a url nor a folder';
    for (const c of o.children) {
      const problem = node(c);
      if (problem) return problem;
    }
    return null;
  };
  for (const [key, root] of Object.entries(roots)) {
    if (!['bookmark_bar', 'other', 'synced'].includes(key)) return `Bookmarks has the root ${key}`;
    const problem = node(root);
    if (problem) return problem;
  }
  return null;
}

function insideProfile(inner: string, entry: ProfileEntry): string | null {
  const bytes = entry.type === 'file' ? entry.bytes : undefined;
  const file = (check: () => string | null) =>
    entry.type !== 'file' ? `${inner} must be a regular file` : bytes === undefined ? null : check();
  const text = () => Buffer.from(bytes!).toString('utf8');
  switch (inner) {
    case 'Default':
      return entry.type === 'dir' ? null : 'Default must be the profile directory';
    case 'First Run':
      return file(() => (bytes!.length === 0 ? null : 'First Run is an empty sentinel file'));
    case 'Default/Preferences':
      return file(() => preferencesProblem(text()));
    case 'Default/Bookmarks':
      return file(() => bookmarksProblem(text()));
    case 'Default/History':
      return file(() =>
        Buffer.from(bytes!.subarray(0, 16)).toString('latin1') === 'SQLite format 3\u0000'
          ? null
          : 'History is not an SQLite database',
      );
    default:
      return `${inner} is not a file the profile builder writes (Default/Preferences, Default/Bookmarks, Default/History, First Run); Local State, Secure Preferences, extensions and policies are refused`;
  }
}

/**
 * Chromium's user-data directory: only the files the builder writes, Preferences holding only the
 * settings of prefs.ts (and a built-in search engine), bookmarks to web or local pages only.
 * Everything else — Local State (flags), Secure Preferences, Extensions, policies, protocol
 * handlers, NativeMessagingHosts — is refused, and so is anything under Chrome's own directories.
 */
export const chromiumProfilePolicy: ProfilePolicy = {
  name: 'Chromium',
  roots: [CHROMIUM_DIR, ...CHROME_DIRS],
  allow(path, entry) {
    if (CHROME_DIRS.some((d) => path === d || path.startsWith(`${d}/`)))
      return 'Chrome profiles are not built by any preparer (the task browser is Chromium)';
    if (entry.type === 'symlink') return 'a symlink in the profile could point it anywhere';
    if (path === CHROMIUM_DIR) return entry.type === 'dir' ? null : `${CHROMIUM_DIR} must be a directory`;
    return insideProfile(path.slice(CHROMIUM_DIR.length + 1), entry);
  },
};

/** A Chromium prepare node builds the user-data directory (target) and lays out the doc's files. */
export function chromiumNamedPaths(target: string, doc: unknown): NamedPath[] {
  const out: NamedPath[] = [{ where: 'target', path: target, entry: { type: 'dir' } }];
  const files = (doc as { files?: unknown } | null)?.files;
  if (Array.isArray(files))
    files.forEach((f, i) => {
      const path = (f as { path?: unknown } | null)?.path;
      if (typeof path === 'string')
        out.push({ where: `doc.files[${i}].path`, path, entry: { type: 'file' } });
    });
  return out;
}
