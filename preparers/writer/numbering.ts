import { el, type XmlElement } from '../ooxml/xml.ts';
import type { Docx } from './document.ts';
import type { StyleSheet } from './styles.ts';

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const NUMBERING_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering';
const NUMBERING_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml';

export type ListType = 'bullet' | 'numbered';

async function numberingPart(docx: Docx, create: boolean): Promise<XmlElement | undefined> {
  const rel = (await docx.pkg.related('word/document.xml', 'numbering'))[0];
  if (rel) return docx.pkg.part(rel.target);
  if (!create) return undefined;
  const root = el('w:numbering', { 'xmlns:w': W_NS });
  docx.pkg.setPart('word/numbering.xml', root);
  await docx.pkg.addRel('word/document.xml', NUMBERING_REL, 'word/numbering.xml');
  await docx.pkg.setContentType('word/numbering.xml', NUMBERING_TYPE);
  return root;
}

/** Number format of a list level (e.g. "bullet", "decimal"), honouring w:num level overrides. */
function levelFormat(numbering: XmlElement, numId: string, ilvl: string): string | undefined {
  const num = numbering.elements('w:num').find((n) => n.attrs['w:numId'] === numId);
  if (!num) return undefined;
  const override = num
    .elements('w:lvlOverride')
    .find((o) => o.attrs['w:ilvl'] === ilvl)
    ?.first('w:lvl')
    ?.first('w:numFmt')?.attrs['w:val'];
  if (override) return override;
  const absId = num.first('w:abstractNumId')?.attrs['w:val'];
  const abs = numbering.elements('w:abstractNum').find((a) => a.attrs['w:abstractNumId'] === absId);
  const lvl = abs?.elements('w:lvl').find((l) => (l.attrs['w:ilvl'] ?? '0') === ilvl);
  return lvl?.first('w:numFmt')?.attrs['w:val'];
}

export interface ListInfo {
  type: ListType;
  format: string;
  level: number;
}

/** Whether the paragraph is a list item, and of which kind, resolving numPr through its style. */
export async function listInfo(docx: Docx, styles: StyleSheet, p: XmlElement): Promise<ListInfo | undefined> {
  const numPr = styles.paragraphProp(p, 'w:numPr');
  const numId = numPr?.first('w:numId')?.attrs['w:val'];
  if (!numId || numId === '0') return undefined;
  const ilvl = numPr?.first('w:ilvl')?.attrs['w:val'] ?? '0';
  const numbering = await numberingPart(docx, false);
  const format = numbering && levelFormat(numbering, numId, ilvl);
  if (!format || format === 'none') return undefined;
  return { type: format === 'bullet' ? 'bullet' : 'numbered', format, level: Number(ilvl) };
}

function abstractLevel(type: ListType): XmlElement {
  return el(
    'w:lvl',
    { 'w:ilvl': '0' },
    el('w:start', { 'w:val': '1' }),
    el('w:numFmt', { 'w:val': type === 'bullet' ? 'bullet' : 'decimal' }),
    el('w:lvlText', { 'w:val': type === 'bullet' ? '•' : '%1.' }),
    el('w:lvlJc', { 'w:val': 'left' }),
    el('w:pPr', {}, el('w:ind', { 'w:left': '720', 'w:hanging': '360' })),
  );
}

/** A fresh w:num (so a numbered list restarts at 1) of the requested kind; returns its numId. */
export async function newListNum(docx: Docx, type: ListType): Promise<string> {
  const numbering = (await numberingPart(docx, true))!;
  const abstracts = numbering.elements('w:abstractNum');
  let abs = abstracts.find((a) => {
    const fmt = a
      .elements('w:lvl')
      .find((l) => (l.attrs['w:ilvl'] ?? '0') === '0')
      ?.first('w:numFmt')?.attrs['w:val'];
    return type === 'bullet' ? fmt === 'bullet' : fmt === 'decimal';
  });
  if (!abs) {
    const ids = abstracts.map((a) => Number(a.attrs['w:abstractNumId']) || 0);
    abs = el('w:abstractNum', { 'w:abstractNumId': String(Math.max(0, ...ids) + 1) }, abstractLevel(type));
    const firstNum = numbering.children.findIndex((c) => typeof c !== 'string' && c.name === 'w:num');
    numbering.children.splice(firstNum < 0 ? numbering.children.length : firstNum, 0, abs);
  }
  const numIds = numbering.elements('w:num').map((n) => Number(n.attrs['w:numId']) || 0);
  const numId = String(Math.max(0, ...numIds) + 1);
  numbering.children.push(
    el(
      'w:num',
      { 'w:numId': numId },
      el('w:abstractNumId', { 'w:val': abs.attrs['w:abstractNumId'] }),
      el('w:lvlOverride', { 'w:ilvl': '0' }, el('w:startOverride', { 'w:val': '1' })),
    ),
  );
  return numId;
}
