import { decodeJpeg, encodeJpeg, isJpeg } from './jpeg.ts';
import { decodePng, encodePng, isPng } from './png.ts';
import type { Raster } from './raster.ts';
import type { ImageFormat } from './schema.ts';

/** GIMP's default JPEG export quality. */
export const DEFAULT_QUALITY = 90;

/** Any image file of ours as pixels (the oracle reads JPEG too; the checks do not). */
export function readImage(bytes: Uint8Array): Raster {
  if (isPng(bytes)) return decodePng(bytes);
  if (isJpeg(bytes)) return decodeJpeg(bytes);
  throw new Error('neither a PNG nor a JPEG file');
}

export function writeImage(img: Raster, format: ImageFormat, quality = DEFAULT_QUALITY): Uint8Array {
  return format === 'png' ? encodePng(img) : encodeJpeg(img, quality);
}
