import type { Box } from './measure.ts';
import type { Raster } from './raster.ts';

/**
 * Text on a picture: the oracle's lettering (a 5 × 7 bitmap font scaled to the size asked, the
 * proportions of GIMP's default sans: capitals 0.72 of the font size, about 0.62 of it a character),
 * and what the `gimp.text` check reads back without reading the words — where the new marks of a
 * colour lie, how tall and wide they run, and whether they are broken into strokes as lettering is
 * (a filled box or a smear is not). checker.py computes the same figures the same way.
 */

const G: Record<string, string> = {
  A: '.###. #...# #...# ##### #...# #...# #...#',
  B: '####. #...# #...# ####. #...# #...# ####.',
  C: '.###. #...# #.... #.... #.... #...# .###.',
  D: '###.. #..#. #...# #...# #...# #..#. ###..',
  E: '##### #.... #.... ####. #.... #.... #####',
  F: '##### #.... #.... ####. #.... #.... #....',
  G: '.###. #...# #.... #.### #...# #...# .####',
  H: '#...# #...# #...# ##### #...# #...# #...#',
  I: '.###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.',
  J: '..### ...#. ...#. ...#. ...#. #..#. .##..',
  K: '#...# #..#. #.#.. ##... #.#.. #..#. #...#',
  L: '#.... #.... #.... #.... #.... #.... #####',
  M: '#...# ##.## #.#.# #.#.# #...# #...# #...#',
  N: '#...# #...# ##..# #.#.# #..## #...# #...#',
  O: '.###. #...# #...# #...# #...# #...# .###.',
  P: '####. #...# #...# ####. #.... #.... #....',
  Q: '.###. #...# #...# #...# #.#.# #..#. .##.#',
  R: '####. #...# #...# ####. #.#.. #..#. #...#',
  S: '.#### #.... #.... .###. ....# ....# ####.',
  T: '##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..',
  U: '#...# #...# #...# #...# #...# #...# .###.',
  V: '#...# #...# #...# #...# #...# .#.#. ..#..',
  W: '#...# #...# #...# #.#.# #.#.# #.#.# .#.#.',
  X: '#...# #...# .#.#. ..#.. .#.#. #...# #...#',
  Y: '#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..',
  Z: '##### ....# ...#. ..#.. .#... #.... #####',
  '0': '.###. #...# #..## #.#.# ##..# #...# .###.',
  '1': '..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.',
  '2': '.###. #...# ....# ...#. ..#.. .#... #####',
  '3': '##### ...#. ..#.. ...#. ....# #...# .###.',
  '4': '...#. ..##. .#.#. #..#. ##### ...#. ...#.',
  '5': '##### #.... ####. ....# ....# #...# .###.',
  '6': '..##. .#... #.... ####. #...# #...# .###.',
  '7': '##### ....# ...#. ..#.. .#... .#... .#...',
  '8': '.###. #...# #...# .###. #...# #...# .###.',
  '9': '.###. #...# #...# .#### ....# ...#. .##..',
  ' ': '..... ..... ..... ..... ..... ..... .....',
  '.': '..... ..... ..... ..... ..... .##.. .##..',
  ',': '..... ..... ..... ..... .##.. ..#.. .#...',
  ':': '..... .##.. .##.. ..... .##.. .##.. .....',
  '-': '..... ..... ..... ##### ..... ..... .....',
  '/': '....# ....# ...#. ..#.. .#... #.... #....',
  "'": '..#.. ..#.. .#... ..... ..... ..... .....',
  '&': '.##.. #..#. #.#.. .#... #.#.# #..#. .##.#',
  '(': '...#. ..#.. .#... .#... .#... ..#.. ...#.',
  ')': '.#... ..#.. ...#. ...#. ...#. ..#.. .#...',
  '#': '.#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.',
  '!': '..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..',
  '?': '.###. #...# ....# ...#. ..#.. ..... ..#..',
  '+': '..... ..#.. ..#.. ##### ..#.. ..#.. .....',
};
const GLYPHS = new Map(Object.entries(G).map(([c, rows]) => [c, rows.split(' ')]));

/** One bitmap unit at a font size: capitals are seven units, 0.72 of the size (DejaVu Sans: 0.73). */
const unit = (size: number) => (0.72 * size) / 7;

/** The advance of the oracle's lettering: six units a character. */
export function textWidth(text: string, size: number): number {
  return Math.round(text.length * 6 * unit(size));
}

/**
 * The text drawn with its box's top-left at (x, y), like GIMP's Text tool: the capitals start 0.2 of
 * the size below the top (DejaVu Sans' ascent over its cap height), solid in the colour (clipped).
 */
export function drawText(
  img: Raster,
  text: string,
  x: number,
  y: number,
  size: number,
  rgb: readonly number[],
): Raster {
  const data = new Uint8Array(img.data);
  const u = unit(size);
  const top = y + 0.2 * size;
  [...text].forEach((ch, k) => {
    const rows = GLYPHS.get(ch);
    if (!rows) throw new Error(`no glyph for ${JSON.stringify(ch)}`);
    const left = x + k * 6 * u;
    rows.forEach((row, r) => {
      const y0 = Math.round(top + r * u);
      const y1 = Math.round(top + (r + 1) * u);
      for (let c = 0; c < 5; c++) {
        if (row[c] !== '#') continue;
        const x0 = Math.round(left + c * u);
        const x1 = Math.round(left + (c + 1) * u);
        for (let yy = Math.max(0, y0); yy < Math.min(img.height, y1); yy++)
          for (let xx = Math.max(0, x0); xx < Math.min(img.width, x1); xx++)
            data.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], (yy * img.width + xx) * 4);
      }
    });
  });
  return { ...img, data };
}

export interface Ink {
  /** Pixels of the box that are new marks of the colour. */
  ink: number;
  /** Width and height of the marks' bounding box (0 when there are none). */
  width: number;
  height: number;
  /** Runs of marks per row that has any: a filled box or a brush smear has one, lettering several. */
  strokes: number;
  /** Share of the bounding box the marks fill: a solid block fills it, lettering less than half of it. */
  fill: number;
}

/**
 * The new marks of a colour in a box: pixels of the image that are opaque, within `within` of the
 * colour in every channel, and more than `differ` from the reference's pixel in some channel (or
 * where the reference has no pixel: a picture of another size is new throughout).
 */
export function textInk(
  img: Raster,
  ref: Raster,
  box: Box,
  rgb: readonly number[],
  within: number,
  differ: number,
): Ink {
  const d = img.data;
  const r = ref.data;
  let ink = 0;
  let runs = 0;
  let rows = 0;
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = -1;
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = -1;
  for (let y = Math.max(0, box.y); y < Math.min(img.height, box.y + box.height); y++) {
    let inRow = 0;
    let prev = false;
    for (let x = Math.max(0, box.x); x < Math.min(img.width, box.x + box.width); x++) {
      const o = (y * img.width + x) * 4;
      let hit =
        d[o + 3]! >= 128 &&
        Math.abs(d[o]! - rgb[0]!) <= within &&
        Math.abs(d[o + 1]! - rgb[1]!) <= within &&
        Math.abs(d[o + 2]! - rgb[2]!) <= within;
      if (hit && x < ref.width && y < ref.height) {
        const p = (y * ref.width + x) * 4;
        hit =
          Math.abs(d[o]! - r[p]!) > differ ||
          Math.abs(d[o + 1]! - r[p + 1]!) > differ ||
          Math.abs(d[o + 2]! - r[p + 2]!) > differ;
      }
      if (hit) {
        ink++;
        inRow++;
        if (!prev) runs++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
      }
      prev = hit;
    }
    if (inRow > 0) {
      rows++;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  if (ink === 0) return { ink: 0, width: 0, height: 0, strokes: 0, fill: 0 };
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  return { ink, width, height, strokes: runs / rows, fill: ink / (width * height) };
}
