import { encodeOsManifest, OS_MANIFEST_PATH, osManifestOf, withoutOsManifest } from '../home/manifest.ts';
import { isWithin, parentDirs, resolveLinkTarget } from '../paths.ts';
import type { FileMap } from '../types.ts';

export interface Node {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  data?: Uint8Array;
  target?: string;
}

export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIR_MODE = 0o755;

/**
 * The home directory as a tree of nodes keyed by path: every file, directory (explicit or implied
 * by a file below it) and symlink. Built from a FileMap + manifest, written back the same way.
 */
export class HomeTree {
  readonly nodes = new Map<string, Node>();

  static fromFiles(files: FileMap): HomeTree {
    const tree = new HomeTree();
    for (const [path, data] of Object.entries(withoutOsManifest(files)))
      tree.put(path, { type: 'file', mode: DEFAULT_FILE_MODE, data });
    for (const entry of osManifestOf(files).entries) {
      const existing = tree.nodes.get(entry.path);
      const mode = entry.mode === undefined ? undefined : Number.parseInt(entry.mode, 8);
      if (entry.type === 'file') {
        // A manifest file entry without bytes in the FileMap was removed by someone else: skip it.
        if (existing?.type === 'file' && mode !== undefined) existing.mode = mode;
      } else if (entry.type === 'dir') {
        if (existing === undefined || existing.type === 'dir')
          tree.put(entry.path, { type: 'dir', mode: mode ?? existing?.mode ?? DEFAULT_DIR_MODE });
      } else if (existing === undefined) {
        tree.put(entry.path, { type: 'symlink', mode: 0o777, target: entry.target });
      }
    }
    return tree;
  }

  /** Sets a node, creating missing parent directories; fails when a parent is not a directory. */
  put(path: string, node: Node): void {
    for (const parent of parentDirs(path)) {
      const existing = this.nodes.get(parent);
      if (existing === undefined) this.nodes.set(parent, { type: 'dir', mode: DEFAULT_DIR_MODE });
      else if (existing.type !== 'dir')
        throw new Error(`cannot create ${path}: ${parent} is not a directory`);
    }
    const existing = this.nodes.get(path);
    if (existing?.type === 'dir' && node.type !== 'dir') throw new Error(`${path} is a directory`);
    this.nodes.set(path, node);
  }

  get(path: string): Node | undefined {
    return this.nodes.get(path);
  }

  require(path: string): Node {
    const node = this.nodes.get(path);
    if (node === undefined) throw new Error(`${path} does not exist`);
    return node;
  }

  /** The path and every path below it, sorted. */
  subtree(path: string): string[] {
    return [...this.nodes.keys()].filter((p) => isWithin(p, path)).sort();
  }

  remove(path: string): void {
    for (const p of this.subtree(path)) this.nodes.delete(p);
  }

  /** Follows symlinks (relative to the link's directory, staying inside home) to a non-link node. */
  resolve(path: string): { path: string; node: Node } | undefined {
    let current = path;
    for (let hops = 0; hops < 16; hops++) {
      const node = this.nodes.get(current);
      if (node === undefined) return undefined;
      if (node.type !== 'symlink') return { path: current, node };
      const next = resolveLinkTarget(current, node.target ?? '');
      if (next === undefined) return undefined;
      current = next;
    }
    return undefined;
  }

  toFiles(): FileMap {
    const files: FileMap = {};
    const entries = [];
    for (const path of [...this.nodes.keys()].sort()) {
      const node = this.nodes.get(path)!;
      const mode = node.mode.toString(8).padStart(4, '0');
      if (node.type === 'file') {
        files[path] = node.data ?? new Uint8Array();
        if (node.mode !== DEFAULT_FILE_MODE) entries.push({ path, type: 'file' as const, mode });
      } else if (node.type === 'dir') entries.push({ path, type: 'dir' as const, mode });
      else entries.push({ path, type: 'symlink' as const, target: node.target });
    }
    files[OS_MANIFEST_PATH] = encodeOsManifest({ version: 1, entries });
    return files;
  }
}
