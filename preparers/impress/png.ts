import { deflateSync } from 'node:zlib';
import { pngChunk as chunk } from '../pngChunk.ts';

/**
 * A deterministic RGB PNG: diagonal stripes of `color` and a lighter tint, the stripe width
 * and phase chosen by `seed`, so different seeds give visibly different pictures.
 */
export function patternPng(width: number, height: number, color: string, seed: number): Uint8Array {
  const rgb = [0, 2, 4].map((i) => Number.parseInt(color.slice(i, i + 2), 16));
  const tint = rgb.map((v) => Math.round(v + (255 - v) * 0.6));
  const stripe = 4 + (seed % 7);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const px = Math.floor((x + y + seed * 3) / stripe) % 2 === 0 ? rgb : tint;
      raw.set(px, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', new Uint8Array()),
    ]),
  );
}
