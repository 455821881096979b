import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** One entry of a tarball: a regular file with bytes, a directory or a symlink. */
export interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'symlink';
  /** Permission bits, e.g. 0o644. */
  mode: number;
  data?: Uint8Array;
  target?: string;
}

/** Fixed metadata so the same entries always give the same bytes (artifacts are content-addressed). */
const FIXED_MTIME = new Date('2024-01-01T00:00:00Z');
/** uid/gid 1000 is the desktop user of the task VMs; root extracting with tar keeps it. */
const OWNER = { uid: 1000, gid: 1000, uname: 'user', gname: 'user' };

/** Packs entries in the given order into a tar (gzip-compressed when `gzip`). Deterministic. */
export async function packTar(entries: TarEntry[], options: { gzip: boolean }): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    const header = { ...OWNER, name: entry.path, mode: entry.mode, mtime: FIXED_MTIME };
    await new Promise<void>((resolve, reject) => {
      const callback = (error?: Error | null) => (error ? reject(error) : resolve());
      if (entry.type === 'dir') pack.entry({ ...header, type: 'directory' }, callback);
      else if (entry.type === 'symlink')
        pack.entry({ ...header, type: 'symlink', linkname: entry.target }, callback);
      else pack.entry({ ...header, type: 'file' }, Buffer.from(entry.data ?? new Uint8Array()), callback);
    });
  }
  pack.finalize();
  await done;
  const raw = Buffer.concat(chunks);
  return new Uint8Array(options.gzip ? gzipSync(raw, { level: 6 }) : raw);
}

/** Lists a tar or tar.gz: names as stored (a leading "./" removed), with their types and modes. */
export async function listTar(bytes: Uint8Array): Promise<TarEntry[]> {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : Buffer.from(bytes);
  const extract = tar.extract();
  const entries: TarEntry[] = [];
  Readable.from([raw]).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const { header } = entry;
    const path = header.name.replace(/^\.\//, '').replace(/\/$/, '');
    if (path === '' || path === '.') continue;
    const type = header.type === 'directory' ? 'dir' : header.type === 'symlink' ? 'symlink' : 'file';
    entries.push({
      path,
      type,
      mode: (header.mode ?? 0) & 0o7777,
      data: type === 'file' ? new Uint8Array(Buffer.concat(chunks)) : undefined,
      target: header.linkname ?? undefined,
    });
  }
  return entries;
}
