import type { FileMap } from '../types.ts';
import { createArchive, formatFromName } from './archive.ts';
import { type OsDoc, parseMode } from './schema.ts';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, HomeTree } from './state.ts';

function bytesOf(entry: { content?: string; base64?: string }): Uint8Array {
  const data =
    entry.base64 !== undefined
      ? Buffer.from(entry.base64, 'base64')
      : Buffer.from(entry.content ?? '', 'utf8');
  return new Uint8Array(data);
}

/** An archive file's bytes from its members: they are laid out in a scratch tree, then archived. */
async function buildArchive(archive: NonNullable<OsDoc['archives']>[number]): Promise<Uint8Array> {
  const format = archive.format ?? formatFromName(archive.path);
  if (format === undefined) throw new Error(`cannot tell the archive format of ${archive.path}: give format`);
  const scratch = new HomeTree();
  for (const member of archive.members) {
    const mode = member.mode === undefined ? undefined : parseMode(member.mode);
    if (member.type === 'dir') scratch.put(member.path, { type: 'dir', mode: mode ?? DEFAULT_DIR_MODE });
    else scratch.put(member.path, { type: 'file', mode: mode ?? DEFAULT_FILE_MODE, data: bytesOf(member) });
  }
  const tops = [...new Set(archive.members.map((m) => m.path.split('/')[0]!))];
  return createArchive(scratch, tops, undefined, format);
}

/** Builds the initial home tree; the FileMap carries the manifest (see manifest.ts). */
export async function buildOs(_target: string, doc: OsDoc): Promise<FileMap> {
  const tree = new HomeTree();
  for (const entry of doc.entries) {
    const mode = entry.mode === undefined ? undefined : parseMode(entry.mode);
    if (entry.type === 'dir') {
      tree.put(entry.path, { type: 'dir', mode: mode ?? DEFAULT_DIR_MODE });
    } else if (entry.type === 'symlink') {
      tree.put(entry.path, { type: 'symlink', mode: 0o777, target: entry.target });
    } else {
      tree.put(entry.path, { type: 'file', mode: mode ?? DEFAULT_FILE_MODE, data: bytesOf(entry) });
    }
  }
  for (const archive of doc.archives ?? []) {
    tree.put(archive.path, { type: 'file', mode: DEFAULT_FILE_MODE, data: await buildArchive(archive) });
  }
  return tree.toFiles();
}
