import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileMap } from '../../preparers/types.ts';

/** The regular files under `home/under` as a FileMap (home-relative paths): a state a real app left. */
export function readHome(home: string, under: string): FileMap {
  const files: FileMap = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(home, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files[child] = new Uint8Array(readFileSync(path.join(home, child)));
    }
  };
  walk(under);
  return files;
}
