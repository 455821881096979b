import { packTar, type TarEntry } from '../os/tarball.ts';
import { parentDirs } from '../paths.ts';
import type { FileMap } from '../types.ts';
import { THUNDERBIRD_DIR } from './profileIni.ts';

/**
 * The profile as a deterministic tar.gz (sorted entries, fixed mtimes, owner 1000:1000) whose
 * members are `.thunderbird/…`, so `tar -xzf profile.tar.gz -C /home/user/` recreates
 * `~/.thunderbird/`. Only `.thunderbird/` entries may be in `files`.
 */
export async function packProfile(files: FileMap): Promise<Uint8Array> {
  const paths = Object.keys(files).sort();
  const stray = paths.find((p) => !p.startsWith(`${THUNDERBIRD_DIR}/`));
  if (stray !== undefined) throw new Error(`packProfile: ${stray} is not under ${THUNDERBIRD_DIR}/`);
  const dirs = new Set<string>();
  for (const path of paths) for (const dir of parentDirs(path)) dirs.add(dir);
  const entries: TarEntry[] = [
    ...[...dirs].sort().map((path): TarEntry => ({ path: `${path}/`, type: 'dir', mode: 0o700 })),
    ...paths.map((path): TarEntry => ({ path, type: 'file', mode: 0o600, data: files[path] })),
  ];
  return packTar(entries, { gzip: true });
}
