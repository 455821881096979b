/**
 * The deck as a PDF, as Impress's File > Export as PDF gives it: one page per slide that is not
 * hidden, the page the size of the slide. The oracle's PDF carries each slide's title as text (a
 * handout a person can read); the check reads only what any PDF writer records the same way — the
 * header and the page objects — so LibreOffice's own export and ours are judged alike.
 */

/** PDF literal string: backslash, parentheses escaped; non-Latin-1 characters dropped to '?'. */
function literal(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, '?')})`;
}

export function pdfOfSlides(pages: { title: string }[], size: { width: number; height: number }): Uint8Array {
  const w = Math.round(size.width * 72);
  const h = Math.round(size.height * 72);
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 2; // object numbers start at 3 (1 catalog, 2 pages)
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const p of pages) {
    const text = `BT /F1 28 Tf 36 ${h - 72} Td ${literal(p.title)} Tj ET`;
    const content = add(`<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  const all = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    ...objects,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

/** Page objects of a PDF (`/Type /Page`, not `/Pages`), or undefined when the bytes are no PDF. */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.startsWith('%PDF-')) return undefined;
  return (text.match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length;
}
