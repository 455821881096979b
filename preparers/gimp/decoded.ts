import { ContentCache } from '../contentCache.ts';
import { decodeJpeg, isJpeg } from './jpeg.ts';
import { decodePng, isPng } from './png.ts';
import type { Raster } from './raster.ts';

/**
 * Pixels of image files decoded before, by content digest. Verification decodes the same few
 * pictures over and over (each check of each mutant, wrong and right solution reads the initial
 * and the oracle's pictures; each edit replayed starts from the initial one): the JavaScript PNG
 * decoder was the largest single item of a whole-library round's main thread. A reader gets its
 * own copy of the pixels, since edits work in place.
 */
const decoded = new ContentCache<Raster>(256 << 20);

function remembered(bytes: Uint8Array, decode: (b: Uint8Array) => Raster): Raster {
  const img = decoded.get(
    bytes,
    () => decode(bytes),
    (r) => r.data.byteLength,
  );
  return { ...img, data: img.data.slice() };
}

/** Any image file of ours as pixels (the oracle reads JPEG too; the checks do not). */
export function readImage(bytes: Uint8Array): Raster {
  if (isPng(bytes)) return remembered(bytes, decodePng);
  if (isJpeg(bytes)) return remembered(bytes, decodeJpeg);
  throw new Error('neither a PNG nor a JPEG file');
}

/** Pixels for the pixel checks: PNG only (the VM's Python has no JPEG decoder). */
export function pixelsOf(bytes: Uint8Array): Raster {
  if (isJpeg(bytes)) throw new Error('a JPEG file: pixel checks read PNG only');
  return remembered(bytes, decodePng);
}
