/** Picture headers read without decoding, for any app that embeds pictures (Impress slides, Writer documents). */

export interface PixelSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export const isPngBytes = (b: Uint8Array) => PNG_SIGNATURE.every((v, i) => b[i] === v);
export const isJpegBytes = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8;

/**
 * The pixel size a PNG (IHDR) or JPEG (first start-of-frame marker) header declares, or null for
 * any other picture (LibreOffice may embed SVG, EMF…): a picture is compared by what it shows, so
 * the header is enough and nothing is decoded.
 */
export function pixelSize(b: Uint8Array): PixelSize | null {
  const u16 = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const u32 = (i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
  if (isPngBytes(b)) return b.length >= 24 ? { width: u32(16), height: u32(20) } : null;
  if (!isJpegBytes(b)) return null;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = u16(at + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): height then width after the precision byte.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return at + 9 <= b.length ? { width: u16(at + 7), height: u16(at + 5) } : null;
    at += 2 + length;
  }
  return null;
}
