import jpeg from 'jpeg-js';
import type { Raster } from './raster.ts';

/**
 * JPEG: pixels through jpeg-js (the oracle's edits), but checks read only the headers, because the
 * checker in the VM has no JPEG decoder in Python's standard library: size, components, progressive
 * coding and the quality the quantisation tables were scaled for.
 */

export const isJpeg = (bytes: Uint8Array) =>
  bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** Sum of the IJG standard luminance table (the base libjpeg scales by the quality setting). */
const IJG_LUMA_SUM = 3688;

export interface JpegHeader {
  width: number;
  height: number;
  components: number;
  progressive: boolean;
  /** libjpeg's quality (1–100) the luminance table was scaled for; null without a table. */
  quality: number | null;
}

/**
 * Reads markers up to the first scan. The quality estimate inverts libjpeg's scaling on the table's
 * sum: S = 100·ΣQ/ΣT, quality = (200 − S)/2 for S ≤ 100 else 5000/S, rounded half up.
 */
export function jpegHeader(bytes: Uint8Array): JpegHeader {
  if (!isJpeg(bytes)) throw new Error('not a JPEG file');
  let at = 2;
  let frame: Omit<JpegHeader, 'quality'> | undefined;
  let lumaSum: number | null = null;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error('JPEG marker expected');
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const len = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const seg = bytes.subarray(at + 4, at + 2 + len);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (seg.length < 6) throw new Error('short JPEG frame header');
      frame = {
        height: (seg[1]! << 8) | seg[2]!,
        width: (seg[3]! << 8) | seg[4]!,
        components: seg[5]!,
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
      };
    } else if (marker === 0xdb) {
      let i = 0;
      while (i < seg.length) {
        const precision = seg[i]! >> 4;
        const id = seg[i]! & 15;
        const size = precision ? 128 : 64;
        if (i + 1 + size > seg.length) throw new Error('short JPEG quantisation table');
        let sum = 0;
        for (let k = 0; k < 64; k++)
          sum += precision ? (seg[i + 1 + 2 * k]! << 8) | seg[i + 2 + 2 * k]! : seg[i + 1 + k]!;
        if (id === 0 && lumaSum === null) lumaSum = sum;
        i += 1 + size;
      }
    } else if (marker === 0xda || marker === 0xd9) break;
    at += 2 + len;
  }
  if (!frame) throw new Error('JPEG without a frame header');
  let quality: number | null = null;
  if (lumaSum !== null) {
    const s = (lumaSum * 100) / IJG_LUMA_SUM;
    const q = s <= 100 ? (200 - s) / 2 : 5000 / s;
    quality = Math.min(100, Math.max(1, Math.floor(q + 0.5)));
  }
  return { ...frame, quality };
}

export function encodeJpeg(img: Raster, quality: number): Uint8Array {
  // JPEG has no alpha: transparent pixels are flattened on white, as GIMP's export does by default.
  const data = Buffer.alloc(img.data.length);
  for (let i = 0; i < img.data.length; i += 4) {
    const a = img.data[i + 3]!;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round((img.data[i + c]! * a + 255 * (255 - a)) / 255);
    data[i + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ data, width: img.width, height: img.height }, quality).data);
}

export function decodeJpeg(bytes: Uint8Array): Raster {
  const d = jpeg.decode(Buffer.from(bytes), { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256 });
  return { width: d.width, height: d.height, data: new Uint8Array(d.data) };
}
