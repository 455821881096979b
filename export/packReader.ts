import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

export interface PackEntry {
  name: string;
  sha256: string;
  size: number;
  /** Contents, kept only for the small JSON/JSONL files the validator parses. */
  text?: string;
}

const keepText = (name: string) => name.endsWith('.json') || name.endsWith('.jsonl');

/** Streams every file of a pack (folder or .tar.gz) with its hash; memory holds one entry at a time. */
export async function* readPack(packPath: string): AsyncGenerator<PackEntry> {
  const info = await stat(packPath);
  if (info.isDirectory()) yield* readFolder(packPath, '');
  else yield* readTarGz(packPath);
}

async function* readFolder(root: string, prefix: string): AsyncGenerator<PackEntry> {
  const entries = (await readdir(path.join(root, prefix), { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  );
  for (const e of entries) {
    const name = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) yield* readFolder(root, name);
    else if (e.isFile()) yield await digest(name, createReadStream(path.join(root, name)));
  }
}

async function* readTarGz(file: string): AsyncGenerator<PackEntry> {
  const extract = tar.extract();
  createReadStream(file)
    .pipe(createGunzip())
    .on('error', (err) => extract.destroy(err))
    .pipe(extract);
  for await (const entry of extract) {
    if (entry.header.type === 'file')
      yield await digest(entry.header.name.replace(/^\.\//, ''), entry as unknown as AsyncIterable<Buffer>);
    else entry.resume();
  }
}

async function digest(name: string, stream: AsyncIterable<Buffer | string>): Promise<PackEntry> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    hash.update(b);
    size += b.byteLength;
    if (keepText(name)) chunks.push(b);
  }
  const entry: PackEntry = { name, sha256: hash.digest('hex'), size };
  if (keepText(name)) entry.text = Buffer.concat(chunks).toString('utf8');
  return entry;
}
