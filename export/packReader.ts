import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

export type PackEntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'other';

export interface PackEntry {
  /** As stored (a leading `./` removed); the validator judges whether it is safe. */
  name: string;
  type: PackEntryType;
  /** Permission bits including setuid/setgid/sticky. */
  mode: number;
  /** Where a symlink or hard link points. */
  linkname?: string;
  /** A regular file on disk that other names also link to. */
  links?: number;
  sha256: string;
  size: number;
  /** Contents of a `.json` file no larger than `maxJsonBytes`; larger ones are hashed, not kept. */
  text?: string;
  /** Set when a `.json` file was larger than `maxJsonBytes`. */
  oversize?: boolean;
}

export interface ReadPackOptions {
  /** `.json` files up to this size are kept as text for the validator (default 16 MiB). */
  maxJsonBytes?: number;
  /** Called for each line of a `.jsonl` file as it streams by (lines longer than the cap are cut). */
  onLine?: (entry: string, line: string, lineNo: number) => void;
  /** The longest JSONL line passed whole to `onLine` (default 16 MiB). */
  maxLineBytes?: number;
}

const MiB = 1024 * 1024;

/**
 * Streams every entry of a pack (folder or .tar.gz) with its hash and type; memory holds one JSON
 * file (capped) or one JSONL line at a time. Links and special files are reported, not followed.
 */
export async function* readPack(packPath: string, options: ReadPackOptions = {}): AsyncGenerator<PackEntry> {
  const info = await stat(packPath);
  if (info.isDirectory()) yield* readFolder(packPath, '', options);
  else yield* readTarGz(packPath, options);
}

async function* readFolder(
  root: string,
  prefix: string,
  options: ReadPackOptions,
): AsyncGenerator<PackEntry> {
  const entries = (await readdir(path.join(root, prefix), { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  );
  for (const e of entries) {
    const name = prefix ? `${prefix}/${e.name}` : e.name;
    const full = path.join(root, name);
    const info = await lstat(full);
    const mode = info.mode & 0o7777;
    if (e.isDirectory()) {
      yield { name, type: 'directory', mode, sha256: '', size: 0 };
      yield* readFolder(root, name, options);
    } else if (e.isFile()) {
      const entry = await digest(name, createReadStream(full), options);
      yield { ...entry, mode, ...(info.nlink > 1 ? { links: info.nlink } : {}) };
    } else if (e.isSymbolicLink()) {
      yield { name, type: 'symlink', mode, linkname: await readlink(full), sha256: '', size: 0 };
    } else {
      const type = e.isFIFO() ? 'fifo' : e.isBlockDevice() || e.isCharacterDevice() ? 'device' : 'other';
      yield { name, type, mode, sha256: '', size: 0 };
    }
  }
}

const TAR_TYPES: Record<string, PackEntryType> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
  'character-device': 'device',
  'block-device': 'device',
  fifo: 'fifo',
};

async function* readTarGz(file: string, options: ReadPackOptions): AsyncGenerator<PackEntry> {
  const extract = tar.extract();
  createReadStream(file)
    .pipe(createGunzip())
    .on('error', (err) => extract.destroy(err))
    .pipe(extract);
  for await (const entry of extract) {
    const { header } = entry;
    const name = header.name.replace(/^\.\//, '');
    const type = TAR_TYPES[header.type ?? 'file'] ?? 'other';
    const mode = (header.mode ?? 0) & 0o7777;
    if (type === 'file') {
      yield { ...(await digest(name, entry as unknown as AsyncIterable<Buffer>, options)), mode };
      continue;
    }
    entry.resume();
    if (type === 'directory' && name.replace(/\/$/, '') === '') continue;
    yield {
      name: type === 'directory' ? name.replace(/\/$/, '') : name,
      type,
      mode,
      ...(header.linkname ? { linkname: header.linkname } : {}),
      sha256: '',
      size: 0,
    };
  }
}

async function digest(
  name: string,
  stream: AsyncIterable<Buffer | string>,
  options: ReadPackOptions,
): Promise<Omit<PackEntry, 'mode'>> {
  const maxJson = options.maxJsonBytes ?? 16 * MiB;
  const maxLine = options.maxLineBytes ?? 16 * MiB;
  const json = name.endsWith('.json');
  const lines = name.endsWith('.jsonl') ? options.onLine : undefined;
  const hash = createHash('sha256');
  let chunks: Buffer[] | undefined = json ? [] : undefined;
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const emit = (line: Buffer) => lines?.(name, line.toString('utf8'), ++lineNo);
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    hash.update(b);
    size += b.byteLength;
    if (chunks && size <= maxJson) chunks.push(b);
    else chunks = undefined;
    if (!lines) continue;
    let start = 0;
    for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, start)) {
      if (pendingBytes + nl - start <= maxLine) pending.push(b.subarray(start, nl));
      emit(Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    // A line longer than the cap is passed on cut at the cap; its JSON then fails to parse.
    if (pendingBytes < maxLine) {
      const rest = b.subarray(start, start + (maxLine - pendingBytes));
      pending.push(rest);
      pendingBytes += rest.byteLength;
    }
  }
  if (lines && pendingBytes > 0) emit(Buffer.concat(pending));
  const entry: Omit<PackEntry, 'mode'> = { name, type: 'file', sha256: hash.digest('hex'), size };
  if (json) {
    if (chunks) entry.text = Buffer.concat(chunks).toString('utf8');
    else entry.oversize = true;
  }
  return entry;
}
