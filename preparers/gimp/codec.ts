import { encodeJpeg } from './jpeg.ts';
import { encodePng } from './png.ts';
import type { Raster } from './raster.ts';
import type { ImageFormat } from './schema.ts';

/** GIMP's default JPEG export quality. */
export const DEFAULT_QUALITY = 90;

export function writeImage(img: Raster, format: ImageFormat, quality = DEFAULT_QUALITY): Uint8Array {
  return format === 'png' ? encodePng(img) : encodeJpeg(img, quality);
}
