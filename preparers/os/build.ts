import type { FileMap } from '../types.ts';
import { type OsDoc, parseMode } from './schema.ts';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, HomeTree } from './state.ts';

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
      const data =
        entry.base64 !== undefined
          ? Buffer.from(entry.base64, 'base64')
          : Buffer.from(entry.content ?? '', 'utf8');
      tree.put(entry.path, { type: 'file', mode: mode ?? DEFAULT_FILE_MODE, data: new Uint8Array(data) });
    }
  }
  return tree.toFiles();
}
