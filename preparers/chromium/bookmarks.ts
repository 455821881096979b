import { createHash } from 'node:crypto';

/**
 * Chromium's Bookmarks file: `roots` with the bookmark bar, "Other bookmarks" and the mobile
 * folder, each a tree of `{id, name, type: "url"|"folder", url | children}` nodes, and a checksum.
 * The checksum is the MD5 Chromium's BookmarkCodec computes while encoding: per node in pre-order
 * (roots in the order bar, other, synced) the id, the title as UTF-16LE bytes, then "url" and the
 * URL, or "folder". Verified against files Chromium 156 wrote (tests/unit/chromium.test.ts).
 */
export interface StoredNode {
  id: string;
  name: string;
  type: 'url' | 'folder';
  url?: string;
  children?: StoredNode[];
  [extra: string]: unknown;
}

export interface BookmarksFile {
  checksum?: string;
  roots: Record<string, StoredNode>;
  version: number;
  [extra: string]: unknown;
}

/** The two roots a person files bookmarks under, by the names tasks use for them. */
export const ROOTS = { bar: 'bookmark_bar', other: 'other' } as const;
export type RootName = keyof typeof ROOTS;
const ROOT_ORDER = ['bookmark_bar', 'other', 'synced'] as const;
const ROOT_TITLES: Record<string, string> = {
  bookmark_bar: 'Bookmarks bar',
  other: 'Other bookmarks',
  synced: 'Mobile bookmarks',
};

export type BookmarkSpec = { title: string; url: string } | { title: string; children: BookmarkSpec[] };

export function bookmarksChecksum(file: BookmarksFile): string {
  const md5 = createHash('md5');
  const visit = (node: StoredNode) => {
    md5.update(node.id, 'utf8');
    md5.update(Buffer.from(node.name, 'utf16le'));
    if (node.type === 'url') {
      md5.update('url', 'utf8');
      md5.update(node.url ?? '', 'utf8');
    } else {
      md5.update('folder', 'utf8');
      for (const child of node.children ?? []) visit(child);
    }
  };
  for (const root of ROOT_ORDER) if (file.roots[root]) visit(file.roots[root]);
  return md5.digest('hex');
}

/** A Bookmarks file from the bar's and the other folder's trees, with Chromium's checksum. */
export function buildBookmarks(bar: BookmarkSpec[], other: BookmarkSpec[]): BookmarksFile {
  let next = 4;
  const node = (spec: BookmarkSpec): StoredNode =>
    'url' in spec
      ? { id: String(next++), name: spec.title, type: 'url', url: spec.url }
      : { id: String(next++), name: spec.title, type: 'folder', children: spec.children.map(node) };
  const root = (id: string, key: string, children: BookmarkSpec[]): StoredNode => ({
    children: children.map(node),
    id,
    name: ROOT_TITLES[key]!,
    type: 'folder',
  });
  const file: BookmarksFile = {
    roots: {
      bookmark_bar: root('1', 'bookmark_bar', bar),
      other: root('2', 'other', other),
      synced: root('3', 'synced', []),
    },
    version: 1,
  };
  return { checksum: bookmarksChecksum(file), ...file };
}

export function parseBookmarks(bytes: Uint8Array | undefined): BookmarksFile {
  if (bytes === undefined) return buildBookmarks([], []);
  const file = JSON.parse(Buffer.from(bytes).toString('utf8')) as BookmarksFile;
  if (file === null || typeof file !== 'object' || typeof file.roots !== 'object' || file.roots === null)
    throw new Error('Bookmarks has no roots');
  return file;
}

/** The file as Chromium would write it after a change: the checksum recomputed. */
export function renderBookmarks(file: BookmarksFile): Uint8Array {
  const out = { ...file, checksum: bookmarksChecksum(file) };
  return new Uint8Array(Buffer.from(`${JSON.stringify(out, null, 3)}\n`, 'utf8'));
}

/** One bookmark or folder where it sits: its folder path from the root (`["bar", "Trips"]`). */
export interface Entry {
  folder: string[];
  title: string;
  type: 'url' | 'folder';
  url?: string;
}

/** Every bookmark and folder under the bar and "Other bookmarks", in order. */
export function entriesOf(file: BookmarksFile): Entry[] {
  const out: Entry[] = [];
  const walk = (children: StoredNode[] | undefined, folder: string[]) => {
    for (const child of children ?? []) {
      if (child.type === 'url') out.push({ folder, title: child.name, type: 'url', url: child.url ?? '' });
      else {
        out.push({ folder, title: child.name, type: 'folder' });
        walk(child.children, [...folder, child.name]);
      }
    }
  };
  for (const [name, key] of Object.entries(ROOTS)) walk(file.roots[key]?.children, [name]);
  return out;
}

/** The folder node at a path such as `["bar", "Trips"]`, or undefined. */
export function folderAt(file: BookmarksFile, path: string[]): StoredNode | undefined {
  const [root, ...rest] = path;
  let at = root !== undefined && root in ROOTS ? file.roots[ROOTS[root as RootName]] : undefined;
  for (const title of rest) {
    at = at?.children?.find((c) => c.type === 'folder' && c.name === title);
  }
  return at;
}

/** The highest node id in the file, so a new node gets the next one as Chromium would. */
export function maxId(file: BookmarksFile): number {
  let max = 0;
  const walk = (node: StoredNode) => {
    max = Math.max(max, Number.parseInt(node.id, 10) || 0);
    for (const c of node.children ?? []) walk(c);
  };
  for (const root of Object.values(file.roots)) if (root && typeof root === 'object') walk(root);
  return max;
}

/** An entry as a string key, for comparing trees as multisets. */
export const entryKey = (e: Entry) => JSON.stringify([e.folder, e.title, e.type, e.url ?? null]);
