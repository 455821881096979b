import { el } from '../ooxml/xml.ts';
import type { Docx } from './document.ts';
import { StyleSheet } from './styles.ts';

/** The style id of "Heading N" in this document, adding the style definition when it is missing. */
export async function headingStyleId(docx: Docx, level: number): Promise<string> {
  const found = (await StyleSheet.load(docx)).findByName(`heading${level}`);
  if (found) return found;
  const part = (await docx.pkg.related('word/document.xml', 'styles'))[0]?.target;
  if (!part) throw new Error('the document has no styles part to define a heading style in');
  const id = `Heading${level}`;
  const sizes = [32, 26, 24];
  (await docx.pkg.part(part)).children.push(
    el(
      'w:style',
      { 'w:type': 'paragraph', 'w:styleId': id },
      el('w:name', { 'w:val': `heading ${level}` }),
      el('w:basedOn', { 'w:val': 'Normal' }),
      el('w:next', { 'w:val': 'Normal' }),
      el('w:qFormat'),
      el('w:pPr', {}, el('w:keepNext'), el('w:outlineLvl', { 'w:val': String(level - 1) })),
      el('w:rPr', {}, el('w:b'), el('w:sz', { 'w:val': String(sizes[level - 1] ?? 24) })),
    ),
  );
  return id;
}
