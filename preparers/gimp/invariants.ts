import { createHash } from 'node:crypto';
import type { FileMap } from '../types.ts';
import { imageInfo } from './measure.ts';
import { formatOfPath, type GimpCheck } from './schema.ts';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * Every image the task started with stays byte for byte as it was unless the oracle changed it. An
 * image the oracle changed or exported keeps the oracle's format and size (and alpha, when the
 * oracle's has it); its look is the rubric's business (gimp.matches against the original, a
 * statistic, a region), because a colour edit leaves the amount free and a pinned look would not.
 */
export async function gimpInvariants(
  initial: FileMap,
  solved: FileMap,
  files: string[],
): Promise<GimpCheck[]> {
  const checks: GimpCheck[] = [];
  const made = Object.keys(solved).filter((p) => !(p in initial) && formatOfPath(p) !== undefined);
  for (const path of [...new Set([...files, ...made])].sort()) {
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
      ...(info.alpha ? { alpha: true } : {}),
    });
  }
  return checks;
}
