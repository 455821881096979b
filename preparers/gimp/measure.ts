import { isJpeg, jpegHeader } from './jpeg.ts';
import { isPng, pngHeader } from './png.ts';
import type { Raster } from './raster.ts';
import { GRID } from './schema.ts';

/**
 * What the checks read from an image file. Every figure here is computed the same way, in the same
 * order, by checker.py, so the TypeScript probe and the Python checker agree to the last bit.
 */

export interface ImageInfo {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  alpha: boolean;
  gray: boolean;
  quality: number | null;
  progressive: boolean;
}

export function imageInfo(bytes: Uint8Array): ImageInfo {
  if (isPng(bytes)) {
    const h = pngHeader(bytes);
    return {
      format: 'png',
      width: h.width,
      height: h.height,
      alpha: h.colorType === 4 || h.colorType === 6 || h.trns,
      gray: h.colorType === 0 || h.colorType === 4,
      quality: null,
      progressive: h.interlace !== 0,
    };
  }
  if (isJpeg(bytes)) {
    const h = jpegHeader(bytes);
    return {
      format: 'jpeg',
      width: h.width,
      height: h.height,
      alpha: false,
      gray: h.components === 1,
      quality: h.quality,
      progressive: h.progressive,
    };
  }
  throw new Error('neither a PNG nor a JPEG file');
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The 16 × 16 grid of mean premultiplied RGBA over a box of the image (the whole image by default). */
export function gridOf(
  img: Raster,
  box: Box = { x: 0, y: 0, width: img.width, height: img.height },
): number[] {
  const bx = Math.min(Math.max(0, box.x), img.width - 1);
  const by = Math.min(Math.max(0, box.y), img.height - 1);
  const bw = Math.max(1, Math.min(img.width, box.x + box.width) - bx);
  const bh = Math.max(1, Math.min(img.height, box.y + box.height) - by);
  const out: number[] = [];
  for (let j = 0; j < GRID; j++) {
    const y0 = by + Math.floor((j * bh) / GRID);
    const y1 = Math.max(y0 + 1, by + Math.floor(((j + 1) * bh) / GRID));
    for (let i = 0; i < GRID; i++) {
      const x0 = bx + Math.floor((i * bw) / GRID);
      const x1 = Math.max(x0 + 1, bx + Math.floor(((i + 1) * bw) / GRID));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let y = y0; y < Math.min(y1, img.height); y++)
        for (let x = x0; x < Math.min(x1, img.width); x++) {
          const o = (y * img.width + x) * 4;
          const al = img.data[o + 3]!;
          r += img.data[o]! * al;
          g += img.data[o + 1]! * al;
          b += img.data[o + 2]! * al;
          a += al;
          n++;
        }
      out.push(r / (255 * n), g / (255 * n), b / (255 * n), a / n);
    }
  }
  return out;
}

/** A grid turned clockwise by quarter turns, flipped, or made grey (Rec. 709 luma in each channel). */
export function transformGrid(
  grid: number[],
  rotate: number,
  flip: 'horizontal' | 'vertical' | undefined,
  gray: boolean,
): number[] {
  const cell = (g: number[], i: number, j: number) => g.slice((j * GRID + i) * 4, (j * GRID + i) * 4 + 4);
  let cur = grid;
  for (let t = 0; t < rotate / 90; t++) {
    const next: number[] = [];
    for (let j = 0; j < GRID; j++) for (let i = 0; i < GRID; i++) next.push(...cell(cur, j, GRID - 1 - i));
    cur = next;
  }
  if (flip) {
    const next: number[] = [];
    for (let j = 0; j < GRID; j++)
      for (let i = 0; i < GRID; i++)
        next.push(...(flip === 'horizontal' ? cell(cur, GRID - 1 - i, j) : cell(cur, i, GRID - 1 - j)));
    cur = next;
  }
  if (gray) {
    const next: number[] = [];
    for (let k = 0; k < cur.length; k += 4) {
      const y = 0.2126 * cur[k]! + 0.7152 * cur[k + 1]! + 0.0722 * cur[k + 2]!;
      next.push(y, y, y, cur[k + 3]!);
    }
    cur = next;
  }
  return cur;
}

/**
 * The grid's colour channels moved to a mean of 128 and a spread of 48: a photo brightened, darkened
 * or given contrast by any of GIMP's tools (Brightness-Contrast, Levels, Curves, Exposure) is close
 * to the same picture, whichever amount a person chose. Scaling the mean alone missed Brightness-
 * Contrast's lift, which adds light rather than multiplying it. Alpha is kept.
 */
export function normalizeGrid(grid: number[]): number[] {
  let sum = 0;
  let n = 0;
  for (let k = 0; k < grid.length; k++) {
    if (k % 4 === 3) continue;
    sum += grid[k]!;
    n++;
  }
  const mean = n > 0 ? sum / n : 0;
  let sq = 0;
  for (let k = 0; k < grid.length; k++) if (k % 4 !== 3) sq += (grid[k]! - mean) ** 2;
  const spread = n > 0 ? Math.sqrt(sq / n) : 0;
  const f = spread > 0 ? 48 / spread : 0;
  return grid.map((v, k) => (k % 4 === 3 ? v : 128 + (v - mean) * f));
}

/** Mean and largest absolute difference between two grids. */
export function gridDistance(a: number[], b: number[]): { mean: number; worst: number } {
  let sum = 0;
  let worst = 0;
  for (let k = 0; k < a.length; k++) {
    const d = Math.abs(a[k]! - b[k]!);
    sum += d;
    if (d > worst) worst = d;
  }
  return { mean: sum / a.length, worst };
}

export type MeasureName = 'brightness' | 'saturation' | 'contrast' | 'transparent';

export function measure(img: Raster, name: MeasureName): number {
  const n = img.width * img.height;
  const d = img.data;
  if (name === 'brightness') {
    let s = 0;
    for (let o = 0; o < d.length; o += 4) s += 299 * d[o]! + 587 * d[o + 1]! + 114 * d[o + 2]!;
    return s / (1000 * n);
  }
  if (name === 'saturation') {
    let s = 0;
    for (let o = 0; o < d.length; o += 4) {
      const mx = Math.max(d[o]!, d[o + 1]!, d[o + 2]!);
      const mn = Math.min(d[o]!, d[o + 1]!, d[o + 2]!);
      if (mx > 0) s += ((mx - mn) * 255) / mx;
    }
    return s / n;
  }
  if (name === 'contrast') {
    let s1 = 0;
    let s2 = 0;
    for (let o = 0; o < d.length; o += 4) {
      const l = 299 * d[o]! + 587 * d[o + 1]! + 114 * d[o + 2]!;
      s1 += l;
      s2 += l * l;
    }
    const mean = s1 / n;
    return Math.sqrt(Math.max(0, s2 / n - mean * mean)) / 1000;
  }
  let t = 0;
  for (let o = 3; o < d.length; o += 4) if (d[o]! < 128) t++;
  return t / n;
}

/** The share of a box's pixels (clipped) that are opaque and within `within` of the colour. */
export function regionCoverage(img: Raster, box: Box, rgb: readonly number[], within: number): number {
  let hit = 0;
  let n = 0;
  for (let y = Math.max(0, box.y); y < Math.min(img.height, box.y + box.height); y++)
    for (let x = Math.max(0, box.x); x < Math.min(img.width, box.x + box.width); x++) {
      const o = (y * img.width + x) * 4;
      n++;
      if (
        img.data[o + 3]! >= 128 &&
        Math.abs(img.data[o]! - rgb[0]!) <= within &&
        Math.abs(img.data[o + 1]! - rgb[1]!) <= within &&
        Math.abs(img.data[o + 2]! - rgb[2]!) <= within
      )
        hit++;
    }
  return n === 0 ? 0 : hit / n;
}
