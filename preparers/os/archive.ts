import JSZip from 'jszip';
import type { HomeTree } from './state.ts';
import { listTar, packTar, type TarEntry } from './tarball.ts';

export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

export function formatFromName(name: string): ArchiveFormat | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.zip')) return 'zip';
  return undefined;
}

const FIXED_DATE = new Date('2024-01-01T00:00:00Z');

/** Archives `sources` (and everything below them) with member names relative to `base`. */
export async function createArchive(
  tree: HomeTree,
  sources: string[],
  base: string | undefined,
  format: ArchiveFormat,
): Promise<Uint8Array> {
  const entries: TarEntry[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    tree.require(source);
    if (base !== undefined && !source.startsWith(`${base}/`))
      throw new Error(`archive source ${source} is not inside base ${base}`);
    for (const path of tree.subtree(source)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const node = tree.get(path)!;
      const name = base === undefined ? path : path.slice(base.length + 1);
      entries.push({ path: name, type: node.type, mode: node.mode, data: node.data, target: node.target });
    }
  }
  if (format !== 'zip') return packTar(entries, { gzip: format === 'tar.gz' });
  const zip = new JSZip();
  for (const entry of entries) {
    const options = { date: FIXED_DATE, unixPermissions: entry.mode, createFolders: false };
    if (entry.type === 'dir') zip.folder(entry.path);
    else if (entry.type === 'file') zip.file(entry.path, entry.data ?? new Uint8Array(), options);
    else zip.file(entry.path, entry.target ?? '', { ...options, unixPermissions: 0o120777 });
  }
  return zip.generateAsync({ type: 'uint8array', platform: 'UNIX', compression: 'DEFLATE' });
}

/** The format of archive bytes: gzip magic → tar.gz, zip magic → zip, anything else is read as tar. */
export function formatOfBytes(bytes: Uint8Array): ArchiveFormat {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  return 'tar';
}

/** Member names of a tar, tar.gz or zip (detected from the bytes); directories end with "/". */
export async function listArchive(bytes: Uint8Array): Promise<string[]> {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const zip = await JSZip.loadAsync(bytes);
    return Object.values(zip.files).map((f) => f.name.replace(/^\.\//, ''));
  }
  const entries = await listTar(bytes);
  return entries.map((e) => (e.type === 'dir' ? `${e.path}/` : e.path));
}

/** Every member of a tar, tar.gz or zip with its type, mode and bytes (zip symlinks by their mode bits). */
export async function readArchive(bytes: Uint8Array): Promise<TarEntry[]> {
  if (formatOfBytes(bytes) !== 'zip') return listTar(bytes);
  const zip = await JSZip.loadAsync(bytes);
  const entries: TarEntry[] = [];
  for (const file of Object.values(zip.files)) {
    const path = file.name.replace(/^\.\//, '').replace(/\/$/, '');
    if (path === '' || path === '.') continue;
    const unix = typeof file.unixPermissions === 'number' ? file.unixPermissions : undefined;
    if (file.dir) {
      entries.push({ path, type: 'dir', mode: unix === undefined ? 0o755 : unix & 0o7777 });
      continue;
    }
    const data = await file.async('uint8array');
    if (unix !== undefined && (unix & 0o170000) === 0o120000)
      entries.push({ path, type: 'symlink', mode: 0o777, target: Buffer.from(data).toString('utf8') });
    else entries.push({ path, type: 'file', mode: unix === undefined ? 0o644 : unix & 0o7777, data });
  }
  return entries;
}
