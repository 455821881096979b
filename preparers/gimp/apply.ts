import type { FileMap } from '../types.ts';
import { writeImage } from './codec.ts';
import { readImage } from './decoded.ts';
import {
  brightnessContrast,
  canvas,
  clearColor,
  crop,
  fillRect,
  flip,
  grayscale,
  hexRgb,
  type Raster,
  resize,
  rotate,
  saturate,
} from './raster.ts';
import { formatOfPath, type GimpEdit } from './schema.ts';
import { drawText } from './text.ts';

function transform(img: Raster, e: GimpEdit): Raster {
  switch (e.op) {
    case 'gimp.export':
      return img;
    case 'gimp.scale':
      return resize(img, e.width, e.height);
    case 'gimp.crop':
      if (e.x >= img.width || e.y >= img.height)
        throw new Error(`crop origin ${e.x},${e.y} lies outside the ${img.width}×${img.height} image`);
      return crop(img, e.x, e.y, e.width, e.height);
    case 'gimp.flip':
      return flip(img, e.axis);
    case 'gimp.rotate':
      return rotate(img, e.degrees);
    case 'gimp.brightness_contrast':
      return brightnessContrast(img, e.brightness, e.contrast);
    case 'gimp.saturation':
      return saturate(img, e.amount);
    case 'gimp.grayscale':
      return grayscale(img, e.mode);
    case 'gimp.clear_color':
      return clearColor(img, hexRgb(e.color), e.threshold);
    case 'gimp.fill':
      return fillRect(img, e.x, e.y, e.width, e.height, [...hexRgb(e.color), 255]);
    case 'gimp.canvas':
      return canvas(
        img,
        e.width,
        e.height,
        e.x,
        e.y,
        e.fill === 'transparent' ? [0, 0, 0, 0] : [...hexRgb(e.fill), 255],
      );
    case 'gimp.text':
      return drawText(img, e.text, e.x, e.y, e.size, hexRgb(e.color));
  }
}

/** Each edit opens `path`, changes the picture and exports it to `to` (or over `path`). */
export async function applyGimp(files: FileMap, edits: GimpEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  for (const e of edits) {
    const bytes = out[e.path];
    if (bytes === undefined) throw new Error(`${e.op}: no image at ${e.path}`);
    const to = e.to ?? e.path;
    const format = e.format ?? formatOfPath(to)!;
    out[to] = writeImage(transform(readImage(bytes), e), format, e.quality);
  }
  return out;
}
