import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { constants, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { assertSafeRelativePath } from '../preparers/paths.ts';

/** Where an export writes its files: a folder or a .tar.gz, with the same calls. */
export interface PackSink {
  addFile(name: string, data: Uint8Array): Promise<void>;
  /** Adds a file from disk by streaming it (for entries too big to hold in memory). */
  addFileFromDisk(name: string, source: string): Promise<void>;
  finish(): Promise<void>;
  /** Removes partial output after a failure. */
  abort(): Promise<void>;
}

/** Fixed metadata so the same content always gives the same archive bytes. */
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');
const HIGH_WATER = 4 * 1024 * 1024;

export async function openSink(out: string): Promise<PackSink> {
  return out.endsWith('.tar.gz') || out.endsWith('.tgz') ? openTarGzSink(out) : openFolderSink(out);
}

async function openFolderSink(dir: string): Promise<PackSink> {
  const existing = await readdir(dir).catch(() => undefined);
  if (existing && existing.length > 0) throw new Error(`output folder ${dir} is not empty`);
  await mkdir(dir, { recursive: true });
  const target = (name: string) => path.join(dir, assertSafeRelativePath(name, 'pack entry'));
  return {
    async addFile(name, data) {
      await mkdir(path.dirname(target(name)), { recursive: true });
      await writeFile(target(name), data);
    },
    async addFileFromDisk(name, source) {
      await mkdir(path.dirname(target(name)), { recursive: true });
      await pipeline(createReadStream(source), createWriteStream(target(name)));
    },
    async finish() {},
    async abort() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function openTarGzSink(file: string): Promise<PackSink> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  const pack = tar.pack();
  // Node's gzip header carries no timestamp or file name, so the bytes depend on content only.
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const done = pipeline(pack, gzip, createWriteStream(partial));
  done.catch(() => {});
  const header = (name: string, size: number): tar.Header => ({
    name: assertSafeRelativePath(name, 'pack entry'),
    size,
    mode: 0o644,
    mtime: FIXED_MTIME,
    uid: 0,
    gid: 0,
    uname: '',
    gname: '',
    type: 'file',
    linkname: '',
    devmajor: 0,
    devminor: 0,
  });
  // Backpressure: wait while the compressor lags, so memory stays bounded however big the pack.
  const drain = async () => {
    while ((pack as unknown as Readable).readableLength > HIGH_WATER) await delay(10);
  };
  return {
    async addFile(name, data) {
      await new Promise<void>((resolve, reject) =>
        pack.entry(header(name, data.byteLength), Buffer.from(data), (err) =>
          err ? reject(err) : resolve(),
        ),
      );
      await drain();
    },
    async addFileFromDisk(name, source) {
      const { size } = await stat(source);
      const entry = pack.entry(header(name, size));
      await pipeline(createReadStream(source), entry);
      await drain();
    },
    async finish() {
      pack.finalize();
      await done;
      await rename(partial, file);
    },
    async abort() {
      pack.destroy();
      await done.catch(() => {});
      await rm(partial, { force: true });
    },
  };
}
