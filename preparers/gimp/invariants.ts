import { createHash } from 'node:crypto';
import type { FileMap } from '../types.ts';
import { gridOf, imageInfo, pixelsOf } from './measure.ts';
import { formatOfPath, type GimpCheck } from './schema.ts';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * Every image the task started with stays byte for byte as it was unless the oracle changed it; an
 * image the oracle changed or exported is held to the oracle's result: its header (format, size,
 * alpha) and, for a PNG, its look on the comparison grid, within what a real GIMP export of the same
 * edit differs by. A JPEG result is held by its header only (no JPEG decoder in the VM's Python).
 */
export async function gimpInvariants(
  initial: FileMap,
  solved: FileMap,
  files: string[],
): Promise<GimpCheck[]> {
  const checks: GimpCheck[] = [];
  const made = Object.keys(solved).filter((p) => !(p in initial) && formatOfPath(p) !== undefined);
  for (const path of [...files, ...made].sort()) {
    const after = solved[path];
    if (after === undefined) continue;
    const before = initial[path];
    if (before !== undefined && same(before, after)) {
      checks.push({ kind: 'gimp.unchanged', path, sha256: createHash('sha256').update(after).digest('hex') });
      continue;
    }
    let info: ReturnType<typeof imageInfo>;
    try {
      info = imageInfo(after);
    } catch {
      continue; // another app's file that happens to carry an image name
    }
    checks.push({
      kind: 'gimp.image',
      path,
      format: info.format,
      width: info.width,
      height: info.height,
      ...(info.format === 'png' ? { alpha: info.alpha } : {}),
    });
    if (info.format === 'png') {
      const grid = gridOf(pixelsOf(after)).map((v) => Math.round(v * 100) / 100);
      checks.push({ kind: 'gimp.like', path, grid, tolerance: 10, worst: 64 });
    }
  }
  return checks;
}
