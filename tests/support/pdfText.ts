import { inflateSync } from 'node:zlib';

/** One line of text as LibreOffice's PDF export draws it: position, font size, glyph count. */
export interface PdfTextLine {
  page: number;
  x: number;
  y: number;
  size: number;
  glyphs: number;
}

/**
 * Text lines of a PDF written by LibreOffice (one Flate content stream per page, text drawn as
 * `x y Td /Fn size Tf [...]TJ`). Enough geometry to find text drawn on top of other text; not a
 * general PDF reader.
 */
export function pdfTextLines(pdf: Uint8Array): PdfTextLine[] {
  const buf = Buffer.from(pdf);
  const raw = buf.toString('latin1');
  const lines: PdfTextLine[] = [];
  let page = 0;
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf('endstream', start);
    let body: string;
    try {
      body = inflateSync(buf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    if (!/Td \/F\d+ [\d.]+ Tf/.test(body)) continue;
    page++;
    for (const t of body.matchAll(
      /([-\d.]+) ([-\d.]+) Td \/F\d+ ([\d.]+) Tf\s*(\[[^\]]*\]TJ|<[0-9A-Fa-f]*>Tj)/g,
    )) {
      const hex = (t[4]!.match(/<([0-9A-Fa-f]*)>/g) ?? []).map((h) => h.slice(1, -1)).join('');
      lines.push({ page, x: Number(t[1]), y: Number(t[2]), size: Number(t[3]), glyphs: hex.length / 2 });
    }
  }
  return lines;
}

/** Pairs of lines on one page whose boxes (estimated from glyph count and size) overlap. */
export function overlappingLines(lines: PdfTextLine[]): [PdfTextLine, PdfTextLine][] {
  const box = (l: PdfTextLine) => ({
    x0: l.x,
    x1: l.x + l.glyphs * l.size * 0.45,
    y0: l.y - 0.2 * l.size,
    y1: l.y + 0.75 * l.size,
  });
  const out: [PdfTextLine, PdfTextLine][] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!;
      const b = lines[j]!;
      if (a.page !== b.page) continue;
      const p = box(a);
      const q = box(b);
      const dx = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
      const dy = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
      if (dx > 2 && dy > 0.15 * Math.min(a.size, b.size)) out.push([a, b]);
    }
  }
  return out;
}
