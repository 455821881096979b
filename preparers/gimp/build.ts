import { assertSafeRelativePath } from '../paths.ts';
import type { FileMap } from '../types.ts';
import { writeImage } from './codec.ts';
import { rotate } from './raster.ts';
import { renderScene } from './scene.ts';
import { formatOfPath, type GimpDoc } from './schema.ts';

/** One picture at the target, PNG or JPEG by its extension. */
export async function buildGimp(target: string, doc: GimpDoc): Promise<FileMap> {
  assertSafeRelativePath(target, 'gimp target');
  const format = formatOfPath(target);
  if (format === undefined)
    throw new Error(`gimp target ${JSON.stringify(target)} is not a .png, .jpg or .jpeg file`);
  const upright = renderScene(doc);
  const img = doc.turn === 0 ? upright : rotate(upright, doc.turn);
  return { [target]: writeImage(img, format, doc.quality) };
}
