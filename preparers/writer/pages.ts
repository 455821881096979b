import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Docx, type ParagraphRef, paragraphs, paragraphText, runsOf } from './document.ts';
import { setAlignment, setParagraphProp } from './format.ts';
import { type HeaderKind, headerRoots, setHeaderText } from './headers.ts';
import { textNode } from './runs.ts';
import type { Alignment } from './schema.ts';
import { isOn, type StyleSheet } from './styles.ts';

const isPageBreak = (e: XmlElement) => e.name === 'w:br' && e.attrs['w:type'] === 'page';

/** The run children of a paragraph in reading order. */
function runContent(p: XmlElement): XmlElement[] {
  return runsOf(p).flatMap(({ run }) => run.elements().filter((c) => c.name !== 'w:rPr'));
}

const hasText = (e: XmlElement) => e.name === 'w:t' && e.text().trim() !== '';

/** A page break ahead of the paragraph's first visible character. */
function breaksBeforeText(p: XmlElement): boolean {
  for (const c of runContent(p)) {
    if (isPageBreak(c)) return true;
    if (hasText(c)) return false;
  }
  return false;
}

/** A page break after the paragraph's last visible character, or a (non-continuous) section end. */
function breaksAfterText(p: XmlElement): boolean {
  const sect = p.first('w:pPr')?.first('w:sectPr');
  if (sect && sect.first('w:type')?.attrs['w:val'] !== 'continuous') return true;
  for (const c of runContent(p).reverse()) {
    if (isPageBreak(c)) return true;
    if (hasText(c)) return false;
  }
  return false;
}

/**
 * Whether the paragraph at `index` starts a new page: break-before (direct or from its style), a
 * page break ahead of its text, or a page or section break closing the paragraphs before it (empty
 * paragraphs between are skipped: a break alone on its own line is how LibreOffice often saves one).
 */
export function startsNewPage(styles: StyleSheet, refs: ParagraphRef[], index: number): boolean {
  const p = refs[index]!.p;
  if (isOn(styles.paragraphProp(p, 'w:pageBreakBefore'))) return true;
  if (breaksBeforeText(p)) return true;
  for (let i = index - 1; i >= 0; i--) {
    const prev = refs[i]!.p;
    if (breaksAfterText(prev)) return true;
    if (paragraphText(prev).trim() !== '') return false;
  }
  return false;
}

/**
 * Give the paragraph a manual page break before it, saved in one of the forms editors write: the
 * paragraph property, a break run ahead of its text, or a paragraph of its own holding the break.
 */
export function breakBefore(ref: ParagraphRef, form: 'property' | 'run' | 'line' = 'property'): void {
  const pageBreak = () => el('w:r', {}, el('w:br', { 'w:type': 'page' }));
  if (form === 'property') setParagraphProp(ref.p, el('w:pageBreakBefore'));
  else if (form === 'line')
    ref.parent.children.splice(ref.parent.children.indexOf(ref.p), 0, el('w:p', {}, pageBreak()));
  else {
    const pPr = ref.p.first('w:pPr');
    ref.p.children.splice(pPr ? ref.p.children.indexOf(pPr) + 1 : 0, 0, pageBreak());
  }
}

/** Field instructions in a part: simple fields and complex fields' instruction text, trimmed. */
export function fieldInstructions(root: XmlElement): string[] {
  const out: string[] = [];
  for (const f of root.descendants('w:fldSimple')) out.push((f.attrs['w:instr'] ?? '').trim());
  // A complex field's instruction may be split over several runs: join them per paragraph.
  for (const { p } of paragraphs(root)) {
    let current: string | undefined;
    for (const c of runContent(p)) {
      if (c.name === 'w:fldChar') {
        const t = c.attrs['w:fldCharType'];
        if (t === 'begin') current = '';
        else if (current !== undefined) {
          out.push(current.trim());
          current = undefined;
        }
      } else if (c.name === 'w:instrText' && current !== undefined) current += c.text();
    }
  }
  return out;
}

/** The field's name: the first word of its instruction, upper-cased. */
export function fieldName(instr: string): string {
  return (instr.split(/\s+/)[0] ?? '').toUpperCase();
}

/** Names of the fields in every header (or footer) part the document uses. */
export async function headerFields(docx: Docx, kind: HeaderKind): Promise<string[]> {
  return (await headerRoots(docx, kind)).flatMap((root) => fieldInstructions(root).map(fieldName));
}

/** Make the default header/footer one paragraph: `prefix` then a PAGE field. */
export async function insertPageNumber(
  docx: Docx,
  kind: HeaderKind,
  prefix: string,
  alignment?: Alignment,
): Promise<void> {
  await setHeaderText(docx, kind, prefix);
  for (const root of await headerRoots(docx, kind)) {
    const p = paragraphs(root)[0]?.p;
    if (!p) continue;
    p.children = p.children.filter((c) => typeof c !== 'string' && c.name === 'w:pPr');
    if (prefix) p.children.push(el('w:r', {}, textNode(prefix)));
    p.children.push(
      el('w:r', {}, el('w:fldChar', { 'w:fldCharType': 'begin' })),
      el('w:r', {}, el('w:instrText', { 'xml:space': 'preserve' }, ' PAGE ')),
      el('w:r', {}, el('w:fldChar', { 'w:fldCharType': 'separate' })),
      el('w:r', {}, textNode('1')),
      el('w:r', {}, el('w:fldChar', { 'w:fldCharType': 'end' })),
    );
    if (alignment) setAlignment(p, alignment);
  }
}
