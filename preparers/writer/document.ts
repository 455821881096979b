import { typedXml } from '../office/asTyped.ts';
import { OoxmlPackage } from '../ooxml/package.ts';
import type { XmlElement } from '../ooxml/xml.ts';
import type { FileMap } from '../types.ts';

export const DOCUMENT_PART = 'word/document.xml';

/** An opened .docx: its package, the main document part and its body. */
export interface Docx {
  pkg: OoxmlPackage;
  document: XmlElement;
  body: XmlElement;
}

/** `typed`: the document read with quotes as typed (asTyped), as the probes read it. */
export async function openDocx(files: FileMap, file: string, typed = false): Promise<Docx> {
  const bytes = files[file];
  if (!bytes)
    throw new Error(`file ${file} does not exist (have: ${Object.keys(files).join(', ') || 'none'})`);
  const pkg = await OoxmlPackage.open(bytes, file, typed ? typedXml : undefined);
  const main = (await pkg.related('', 'officeDocument'))[0]?.target ?? DOCUMENT_PART;
  const document = await pkg.part(main);
  const body = document.first('w:body');
  if (!body) throw new Error(`${file}: ${main} has no w:body`);
  return { pkg, document, body };
}

/** A paragraph with the element that holds it (body, table cell, content control). */
export interface ParagraphRef {
  p: XmlElement;
  parent: XmlElement;
  inTable: boolean;
}

/** Containers whose paragraphs belong to the flowing text; text boxes and deletions are skipped. */
const CONTAINERS = new Set(['w:tbl', 'w:tr', 'w:tc', 'w:sdt', 'w:sdtContent', 'w:customXml', 'w:ins']);

export function paragraphs(container: XmlElement): ParagraphRef[] {
  const out: ParagraphRef[] = [];
  const walk = (e: XmlElement, inTable: boolean) => {
    for (const c of e.elements()) {
      if (c.name === 'w:p') out.push({ p: c, parent: e, inTable });
      else if (CONTAINERS.has(c.name)) walk(c, inTable || c.name === 'w:tbl');
    }
  };
  walk(container, false);
  return out;
}

/** One piece of a paragraph's text: a w:t (its text), w:tab ("\t") or w:br/w:cr ("\n") in a run. */
export interface TextSlot {
  run: XmlElement;
  /** The element holding the run (the paragraph, a hyperlink, …). */
  holder: XmlElement;
  node: XmlElement;
  text: string;
  start: number;
}

const RUN_HOLDERS = new Set([
  'w:hyperlink',
  'w:ins',
  'w:smartTag',
  'w:customXml',
  'w:fldSimple',
  'w:sdt',
  'w:sdtContent',
]);

export function runsOf(p: XmlElement): { run: XmlElement; holder: XmlElement }[] {
  const out: { run: XmlElement; holder: XmlElement }[] = [];
  const walk = (e: XmlElement) => {
    for (const c of e.elements()) {
      if (c.name === 'w:r') out.push({ run: c, holder: e });
      else if (RUN_HOLDERS.has(c.name)) walk(c);
    }
  };
  walk(p);
  return out;
}

function slotText(node: XmlElement): string | undefined {
  switch (node.name) {
    case 'w:t':
      return node.text();
    case 'w:tab':
      return '\t';
    case 'w:br':
    case 'w:cr':
      return node.attrs['w:type'] === 'page' || node.attrs['w:type'] === 'column' ? '' : '\n';
    case 'w:noBreakHyphen':
      return '-';
    default:
      return undefined;
  }
}

export function textSlots(p: XmlElement): TextSlot[] {
  const out: TextSlot[] = [];
  let pos = 0;
  for (const { run, holder } of runsOf(p)) {
    for (const node of run.elements()) {
      const text = slotText(node);
      if (text === undefined) continue;
      out.push({ run, holder, node, text, start: pos });
      pos += text.length;
    }
  }
  return out;
}

export function paragraphText(p: XmlElement): string {
  return textSlots(p)
    .map((s) => s.text)
    .join('');
}

/** Start offsets of every non-overlapping occurrence of `needle` in `hay`. */
export function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  let i = hay.indexOf(needle);
  while (i >= 0) {
    out.push(i);
    i = hay.indexOf(needle, i + needle.length);
  }
  return out;
}

/**
 * Paragraphs whose text contains `match`; `*` alone selects every paragraph (a select-all). `textOf`
 * reads a paragraph's text (as shown, for a check that reads it so).
 */
export function matchingParagraphs(
  container: XmlElement,
  match: string,
  textOf: (p: XmlElement) => string = paragraphText,
): ParagraphRef[] {
  if (match === '*') return paragraphs(container);
  return paragraphs(container).filter((r) => textOf(r.p).includes(match));
}

/** Body text as the probes see it: one line per paragraph, table cells included. */
export function bodyText(body: XmlElement, textOf: (p: XmlElement) => string = paragraphText): string {
  return paragraphs(body)
    .map((r) => textOf(r.p))
    .join('\n');
}

/** Body-level tables (not nested ones), in document order. */
export function tables(body: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const c of e.elements()) {
      if (c.name === 'w:tbl') out.push(c);
      else if (c.name === 'w:sdt' || c.name === 'w:sdtContent' || c.name === 'w:customXml') walk(c);
    }
  };
  walk(body);
  return out;
}

/** Each body-level table with the text of the last non-empty body paragraph before it ("" if none). */
export function tablesWithLeadIn(body: XmlElement): { table: XmlElement; before: string }[] {
  const out: { table: XmlElement; before: string }[] = [];
  let before = '';
  const walk = (e: XmlElement) => {
    for (const c of e.elements()) {
      if (c.name === 'w:tbl') {
        // A table right after another table follows no paragraph.
        out.push({ table: c, before });
        before = '';
      } else if (c.name === 'w:p') {
        const text = paragraphText(c);
        if (text.trim() !== '') before = text;
      } else if (c.name === 'w:sdt' || c.name === 'w:sdtContent' || c.name === 'w:customXml') walk(c);
    }
  };
  walk(body);
  return out;
}

export function sectionProperties(body: XmlElement): XmlElement[] {
  return body.descendants('w:sectPr');
}

/** The body-level sectPr (the last section's properties), created if missing. */
export function finalSection(body: XmlElement): XmlElement {
  return body.ensure('w:sectPr');
}
