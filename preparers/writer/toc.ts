import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Docx, type ParagraphRef, paragraphs, paragraphText, runsOf } from './document.ts';
import { fieldName } from './pages.ts';
import { textNode } from './runs.ts';
import { normaliseStyleName, StyleSheet } from './styles.ts';

/** The paragraphs of every table of contents: its sdt block (title included) and its field's result. */
export interface TocInfo {
  /** Paragraphs that belong to an index (a TOC sdt block or a TOC field's result). */
  members: Set<XmlElement>;
  /** Entry texts (before the page-number tab, trimmed), in order, of the paragraphs in a TOC field. */
  entries: string[];
  /** Index in paragraphs(body) of the first member, or -1. */
  first: number;
}

function isTocBlock(sdt: XmlElement): boolean {
  const gallery = sdt.first('w:sdtPr')?.first('w:docPartObj')?.first('w:docPartGallery');
  return /table of contents/i.test(gallery?.attrs['w:val'] ?? '');
}

export function tocInfo(body: XmlElement): TocInfo {
  const inBlock = new Set<XmlElement>();
  for (const sdt of body.descendants('w:sdt'))
    if (isTocBlock(sdt)) for (const { p } of paragraphs(sdt.first('w:sdtContent') ?? sdt)) inBlock.add(p);
  const members = new Set<XmlElement>();
  const entries: string[] = [];
  // Open fields, innermost last: a paragraph inside a TOC field's result is an entry.
  const stack: { instr: string; toc: boolean }[] = [];
  const refs = paragraphs(body);
  let first = -1;
  refs.forEach(({ p }, i) => {
    let inField = stack.some((f) => f.toc);
    for (const f of p.descendants('w:fldSimple'))
      if (fieldName((f.attrs['w:instr'] ?? '').trim()) === 'TOC') inField = true;
    for (const { run } of runsOf(p)) {
      for (const c of run.elements()) {
        if (c.name === 'w:fldChar') {
          const t = c.attrs['w:fldCharType'];
          if (t === 'begin') stack.push({ instr: '', toc: false });
          else if (t === 'separate' && stack.length > 0) {
            const top = stack[stack.length - 1]!;
            top.toc = fieldName(top.instr.trim()) === 'TOC';
            if (top.toc) inField = true;
          } else if (t === 'end') stack.pop();
        } else if (c.name === 'w:instrText' && stack.length > 0) stack[stack.length - 1]!.instr += c.text();
      }
    }
    if (inField) {
      members.add(p);
      const entry = (paragraphText(p).split('\t')[0] ?? '').trim();
      if (entry !== '') entries.push(entry);
    }
    if (inBlock.has(p)) members.add(p);
    if (first < 0 && members.has(p)) first = i;
  });
  return { members, entries, first };
}

/** Body paragraphs that are not part of a table of contents. */
export function textParagraphs(body: XmlElement): ParagraphRef[] {
  const { members } = tocInfo(body);
  return paragraphs(body).filter((r) => !members.has(r.p));
}

/** The headings of levels 1..levels, in order, as a TOC lists them. */
async function headingsOf(docx: Docx, levels: number): Promise<string[]> {
  const styles = await StyleSheet.load(docx);
  return paragraphs(docx.body)
    .filter((r) => !r.inTable)
    .filter(({ p }) => {
      const id = styles.paragraphStyle(p);
      const m = /^heading(\d)$/.exec(normaliseStyleName(id ? styles.name(id) : ''));
      return m !== null && Number(m[1]) <= levels;
    })
    .map(({ p }) => paragraphText(p).trim())
    .filter((t) => t !== '');
}

const run = (...content: XmlElement[]) => el('w:r', {}, ...content);

/** A TOC block as LibreOffice saves one: an sdt with a title paragraph and a TOC field listing the headings. */
export async function insertToc(
  docx: Docx,
  before: ParagraphRef,
  title: string,
  levels: number,
): Promise<void> {
  const headings = await headingsOf(docx, levels);
  if (headings.length === 0) throw new Error('writer.insert_toc: the document has no headings to list');
  const titleP = el('w:p', {}, run(textNode(title)));
  const entryP = (text: string) => el('w:p', {}, run(textNode(text), el('w:tab'), textNode('1')));
  const entries = headings.map(entryP);
  entries[0]!.children.splice(
    0,
    0,
    run(el('w:fldChar', { 'w:fldCharType': 'begin' })),
    run(el('w:instrText', { 'xml:space': 'preserve' }, ` TOC \\o "1-${levels}" \\h `)),
    run(el('w:fldChar', { 'w:fldCharType': 'separate' })),
  );
  entries[entries.length - 1]!.children.push(run(el('w:fldChar', { 'w:fldCharType': 'end' })));
  const sdt = el(
    'w:sdt',
    {},
    el(
      'w:sdtPr',
      {},
      el(
        'w:docPartObj',
        {},
        el('w:docPartGallery', { 'w:val': 'Table of Contents' }),
        el('w:docPartUnique', { 'w:val': 'true' }),
      ),
    ),
    el('w:sdtContent', {}, titleP, ...entries),
  );
  const at = before.parent.children.indexOf(before.p);
  before.parent.children.splice(at, 0, sdt);
}
