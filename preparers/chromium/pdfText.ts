import { deflateSync, inflateSync, constants as zlibConstants } from 'node:zlib';

/**
 * The text a PDF shows, for checks on a page saved as PDF (Chromium's Print > Save as PDF, which is
 * Skia's PDF writer: Type0 fonts with Identity-H codes mapped back through ToUnicode CMaps, Flate
 * content streams), and simple fonts with WinAnsi codes (LibreOffice's and our own oracle's PDFs).
 * The shipped checker (checker.py, pdf_text) runs the same steps; a change here is made there too.
 * What it does not read: object streams (PDF 1.5 compression), filters other than Flate, Type3
 * fonts. Text is only compared with white space removed, so how lines and runs are joined here does
 * not matter to a verdict.
 */

const WINANSI: Record<number, string> = {
  128: '\u20ac',
  130: '\u201a',
  131: '\u0192',
  132: '\u201e',
  133: '\u2026',
  134: '\u2020',
  135: '\u2021',
  136: '\u02c6',
  137: '\u2030',
  138: '\u0160',
  139: '\u2039',
  140: '\u0152',
  142: '\u017d',
  145: '\u2018',
  146: '\u2019',
  147: '\u201c',
  148: '\u201d',
  149: '\u2022',
  150: '\u2013',
  151: '\u2014',
  152: '\u02dc',
  153: '\u2122',
  154: '\u0161',
  155: '\u203a',
  156: '\u0153',
  158: '\u017e',
  159: '\u0178',
};
const FROM_WINANSI = new Map(Object.entries(WINANSI).map(([k, v]) => [v, Number(k)]));

const REF = String.raw`(\d+)\s+\d+\s+R`;

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

/** Node's inflate throws on a stream cut short; Python's decompressobj keeps what it could read. */
function inflate(raw: Buffer): Buffer {
  try {
    return inflateSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

/** Each `N G obj` of the file: its dictionary (latin-1 text) and its stream, inflated (null: no stream). */
function pdfObjects(data: Buffer): Map<number, PdfObject> {
  const text = data.toString('latin1');
  const objs = new Map<number, PdfObject>();
  const objRe = /(?<![0-9])(\d+)\s+\d+\s+obj(?![A-Za-z])/g;
  const streamRe = /stream\r?\n/g;
  let pos = 0;
  for (;;) {
    objRe.lastIndex = pos;
    const m = objRe.exec(text);
    if (m === null) return objs;
    const start = m.index + m[0].length;
    let end = text.indexOf('endobj', start);
    streamRe.lastIndex = start;
    const s = streamRe.exec(text);
    let dict: string;
    let stream: Buffer | null = null;
    if (s !== null && (end < 0 || s.index < end) && text.slice(start, s.index).trimEnd().endsWith('>>')) {
      dict = text.slice(start, s.index);
      const bodyAt = s.index + s[0].length;
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
      let stop: number;
      if (length !== null && bodyAt + Number(length[1]) <= data.length) stop = bodyAt + Number(length[1]);
      else {
        stop = text.indexOf('endstream', bodyAt);
        if (stop < 0) stop = data.length;
      }
      let raw = data.subarray(bodyAt, stop);
      if (/\/Filter\s*(\/FlateDecode|\[\s*\/FlateDecode\s*\])/.test(dict)) raw = inflate(raw);
      else if (/\/Filter/.test(dict)) raw = Buffer.alloc(0);
      stream = raw;
      end = text.indexOf('endobj', stop);
    } else dict = end < 0 ? text.slice(start) : text.slice(start, end);
    pos = end < 0 ? data.length : end + 6;
    objs.set(Number(m[1]), { dict, stream });
  }
}

type Font = { width: number; map: Map<number, string> | null };

function utf16(hex: string): string {
  const h = hex.length % 2 === 0 ? hex : `${hex}0`;
  const bytes = Buffer.from(h, 'hex');
  let out = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
  return out;
}

/** A ToUnicode CMap: code width in bytes and code -> text. */
function parseCmap(text: string): Font {
  let width = 2;
  const cs = /begincodespacerange\s*<([0-9A-Fa-f]+)>/.exec(text);
  if (cs) width = Math.max(1, Math.floor(cs[1]!.length / 2));
  const map = new Map<number, string>();
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, src, dst] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g))
      map.set(Number.parseInt(src!, 16), utf16(dst!));
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, lo, hi, rest] of block[1]!.matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])/g,
    )) {
      const a = Number.parseInt(lo!, 16);
      const b = Number.parseInt(hi!, 16);
      if (b - a > 65535) continue;
      if (rest!.startsWith('[')) {
        [...rest!.matchAll(/<([0-9A-Fa-f]*)>/g)].forEach((d, i) => {
          if (a + i <= b) map.set(a + i, utf16(d[1]!));
        });
      } else {
        const base = Number.parseInt(rest!.slice(1, -1), 16);
        const n = Math.floor((rest!.length - 2 + 1) / 2);
        for (let i = 0; i <= b - a; i++) map.set(a + i, utf16((base + i).toString(16).padStart(n * 2, '0')));
      }
    }
  return { width, map };
}

/** The page's font resources by name (its own /Resources, else the nearest parent's). */
function pageFonts(objs: Map<number, PdfObject>, page: number): Map<string, Font> {
  const dictOf = (n: string | undefined) => (n === undefined ? '' : (objs.get(Number(n))?.dict ?? ''));
  let body = objs.get(page)!.dict;
  for (let seen = 0; !body.includes('/Resources') && seen < 8; seen++) {
    const parent = new RegExp(String.raw`/Parent\s+${REF}`).exec(body);
    if (parent === null || !objs.has(Number(parent[1]))) break;
    body = objs.get(Number(parent[1]))!.dict;
  }
  const res = new RegExp(String.raw`/Resources\s+${REF}`).exec(body);
  if (res !== null) body = dictOf(res[1]);
  const fontsRef = new RegExp(String.raw`/Font\s+${REF}`).exec(body);
  let names: string;
  if (fontsRef !== null) names = dictOf(fontsRef[1]);
  else names = /\/Font\s*<<([^<>]*)>>/.exec(body)?.[1] ?? '';
  const out = new Map<string, Font>();
  for (const [, name, ref] of names.matchAll(new RegExp(String.raw`/([^\s/<>\[\]()]+)\s*${REF}`, 'g'))) {
    const font = dictOf(ref);
    const uni = new RegExp(String.raw`/ToUnicode\s+${REF}`).exec(font);
    const cmap = uni === null ? null : (objs.get(Number(uni[1]))?.stream ?? null);
    if (cmap !== null) out.set(name!, parseCmap(cmap.toString('latin1')));
    else if (/\/Subtype\s*\/Type0/.test(font)) out.set(name!, { width: 2, map: new Map() });
    else out.set(name!, { width: 1, map: null });
  }
  return out;
}

function decode(raw: Buffer, font: Font): string {
  if (font.map === null) return [...raw].map((b) => WINANSI[b] ?? String.fromCharCode(b)).join('');
  let out = '';
  for (let i = 0; i + font.width <= raw.length; i += font.width)
    out += font.map.get(raw.readUIntBE(i, font.width)) ?? '';
  return out;
}

const TOKEN = /\s+|%[^\r\n]*|<<|>>|<[0-9A-Fa-f\s]*>|\(|\[|\]|\/[^\s/<>[\]()%{}]*|[^\s/<>[\]()%{}]+/y;
const ESCAPES: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 };
const isOctal = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x37;

/** The literal string opening at data[i] === '(': its bytes and the index after it. */
function literal(data: Buffer, at: number): [Buffer, number] {
  const out: number[] = [];
  let depth = 1;
  let i = at + 1;
  while (i < data.length) {
    let c = data[i]!;
    if (c === 0x5c) {
      i++;
      if (i >= data.length) break;
      c = data[i]!;
      if (c in ESCAPES) out.push(ESCAPES[c]!);
      else if (isOctal(c)) {
        let j = i;
        while (j < data.length && j < i + 3 && isOctal(data[j])) j++;
        out.push(Number.parseInt(data.subarray(i, j).toString('latin1'), 8) & 0xff);
        i = j - 1;
      } else if (c === 0x0d) {
        if (data[i + 1] === 0x0a) i++;
      } else if (c !== 0x0a) out.push(c);
    } else if (c === 0x28) {
      depth++;
      out.push(c);
    } else if (c === 0x29) {
      depth--;
      if (depth === 0) return [Buffer.from(out), i + 1];
      out.push(c);
    } else out.push(c);
    i++;
  }
  return [Buffer.from(out), i];
}

type Operand = { t: 's'; v: Buffer } | { t: 'n' | 'k' | 'd'; v: string };

function pageText(content: Buffer, fonts: Map<string, Font>): string {
  const text = content.toString('latin1');
  const out: string[] = [];
  let operands: Operand[] = [];
  let font: Font = { width: 1, map: null };
  let i = 0;
  while (i < content.length) {
    if (content[i] === 0x28) {
      const [s, next] = literal(content, i);
      operands.push({ t: 's', v: s });
      i = next;
      continue;
    }
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (m === null) {
      i++;
      continue;
    }
    i = TOKEN.lastIndex;
    const tok = m[0];
    if (/^\s/.test(tok) || tok.startsWith('%')) continue;
    if (tok.startsWith('<') && tok !== '<<') {
      const h = tok.slice(1, -1).replace(/\s+/g, '');
      operands.push({ t: 's', v: Buffer.from(h.length % 2 ? `${h}0` : h, 'hex') });
    } else if (tok.startsWith('/')) operands.push({ t: 'n', v: tok.slice(1) });
    else if (tok === '[' || tok === ']' || tok === '<<' || tok === '>>') operands.push({ t: 'd', v: tok });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(tok)) operands.push({ t: 'k', v: tok });
    else {
      if (tok === 'Tf') {
        const names = operands.filter((o) => o.t === 'n');
        if (names.length > 0) font = fonts.get(names.at(-1)!.v as string) ?? { width: 1, map: null };
      } else if (tok === 'Tj' || tok === "'" || tok === '"' || tok === 'TJ') {
        if (tok !== 'Tj' && tok !== 'TJ') out.push(' ');
        let strings = operands.flatMap((o) => (o.t === 's' ? [o.v] : []));
        if (tok !== 'TJ') strings = strings.slice(-1);
        for (const s of strings) out.push(decode(s, font));
      } else if (tok === 'Td' || tok === 'TD' || tok === 'Tm' || tok === 'T*') out.push(' ');
      else if (tok === 'ET') out.push('\n');
      else if (tok === 'ID') {
        const end = /\sEI(?![^\s])/g;
        end.lastIndex = i;
        const e = end.exec(text);
        i = e === null ? content.length : e.index + e[0].length;
      }
      operands = [];
    }
  }
  return out.join('');
}

/** The text a PDF shows, page after page, NFKC-normalised (undefined: the bytes are no PDF). */
export function pdfText(bytes: Uint8Array): string | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!data.subarray(0, 5).equals(Buffer.from('%PDF-'))) return undefined;
  const objs = pdfObjects(data);
  const pages = [...objs.keys()]
    .sort((a, b) => a - b)
    .filter((n) => /\/Type\s*\/Page(?![A-Za-z])/.test(objs.get(n)!.dict));
  const out: string[] = [];
  for (const page of pages) {
    const fonts = pageFonts(objs, page);
    const body = objs.get(page)!.dict;
    let refs: string[] = [];
    const single = new RegExp(String.raw`/Contents\s+${REF}`).exec(body);
    if (single !== null) refs = [single[1]!];
    else {
      const arr = /\/Contents\s*\[([^\]]*)\]/.exec(body);
      if (arr !== null) refs = [...arr[1]!.matchAll(new RegExp(REF, 'g'))].map((r) => r[1]!);
    }
    const content = Buffer.concat(
      refs.flatMap((r, k) => [
        ...(k > 0 ? [Buffer.from('\n')] : []),
        objs.get(Number(r))?.stream ?? Buffer.alloc(0),
      ]),
    );
    out.push(pageText(content, fonts));
  }
  return out.join('\n').normalize('NFKC');
}

/** Text as the PDF check compares it: NFKC, lower case, no white space at all (line breaks fall anywhere). */
export const foldPdfText = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/** PDF literal string in WinAnsi: backslash and parentheses escaped, characters outside it as '?'. */
function winAnsiLiteral(s: string): Buffer {
  const bytes = [...s].map((ch) => {
    const code = ch.codePointAt(0)!;
    if (FROM_WINANSI.has(ch)) return FROM_WINANSI.get(ch)!;
    return (code >= 0x20 && code < 0x80) || (code >= 0xa0 && code <= 0xff) ? code : 0x3f;
  });
  const out: number[] = [0x28];
  for (const b of bytes) {
    if (b === 0x5c || b === 0x28 || b === 0x29) out.push(0x5c);
    out.push(b);
  }
  out.push(0x29);
  return Buffer.from(out);
}

/**
 * A page printed to PDF the way a browser's Save as PDF lays it out at its simplest: A4 pages of
 * Helvetica lines (WinAnsi), Flate-compressed content, the title in the document information.
 */
export function pdfOfLines(title: string, lines: string[]): Uint8Array {
  const perPage = 50;
  const pages: string[][] = [];
  for (let i = 0; i < Math.max(1, lines.length); i += perPage) pages.push(lines.slice(i, i + perPage));
  const objects: Buffer[] = [];
  const add = (b: Buffer | string) => objects.push(typeof b === 'string' ? Buffer.from(b, 'latin1') : b) + 3;
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    const parts: Buffer[] = [Buffer.from('BT /F1 11 Tf 14 TL 56 780 Td\n')];
    for (const line of page) parts.push(winAnsiLiteral(line), Buffer.from(" '\n"));
    parts.push(Buffer.from('ET\n'));
    const packed = deflateSync(Buffer.concat(parts));
    const content = add(
      Buffer.concat([
        Buffer.from(`<< /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`),
        packed,
        Buffer.from('\nendstream'),
      ]),
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  const all: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`),
    Buffer.concat([Buffer.from('<< /Title '), winAnsiLiteral(title), Buffer.from(' >>')]),
    ...objects,
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let size = chunks[0]!.length;
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(size);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    size += chunk.length;
  });
  let tail = `xref\n0 ${all.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  chunks.push(Buffer.from(tail, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  pound: '£',
};

/**
 * The lines of text a browser prints for a simple page: the body's text with scripts, styles and
 * the head left out, a line per block element, entities decoded, long lines wrapped at 90 characters.
 */
export function htmlLines(html: string): string[] {
  const body = html
    .replace(/<head[\s\S]*?<\/head>/gi, '')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(
      /<\/?(p|div|h[1-6]|li|tr|br|table|ul|ol|section|article|header|footer|address|dt|dd)\b[^>]*>/gi,
      '\n',
    )
    .replace(/<\/t[dh]>/gi, '  ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
      e.startsWith('#x') || e.startsWith('#X')
        ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
        : e.startsWith('#')
          ? String.fromCodePoint(Number(e.slice(1)))
          : (ENTITIES[e.toLowerCase()] ?? m),
    );
  const out: string[] = [];
  for (const raw of body.split('\n')) {
    let line = raw.replace(/\s+/g, ' ').trim();
    while (line.length > 90) {
      const cut = line.lastIndexOf(' ', 90);
      const at = cut > 0 ? cut : 90;
      out.push(line.slice(0, at));
      line = line.slice(at).trim();
    }
    if (line) out.push(line);
  }
  return out;
}
