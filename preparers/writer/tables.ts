import { el, type XmlElement } from '../ooxml/xml.ts';
import { paragraphText } from './document.ts';
import { textNode } from './runs.ts';

const TEXT_WIDTH_TWIPS = 9000;
const BORDER = { 'w:val': 'single', 'w:sz': '4', 'w:space': '0', 'w:color': 'auto' };

/** A bordered full-width table; the first row is a bold header row repeated on each page. */
export function buildTable(rows: string[][], header: 'bold' | 'plain' | 'centred' = 'bold'): XmlElement {
  const cols = Math.max(...rows.map((r) => r.length));
  const width = String(Math.floor(TEXT_WIDTH_TWIPS / cols));
  const borders = ['w:top', 'w:left', 'w:bottom', 'w:right', 'w:insideH', 'w:insideV'].map((n) =>
    el(n, BORDER),
  );
  return el(
    'w:tbl',
    {},
    el('w:tblPr', {}, el('w:tblW', { 'w:w': '5000', 'w:type': 'pct' }), el('w:tblBorders', {}, ...borders)),
    el('w:tblGrid', {}, ...Array.from({ length: cols }, () => el('w:gridCol', { 'w:w': width }))),
    ...rows.map((cells, i) =>
      el(
        'w:tr',
        {},
        ...(i === 0 ? [el('w:trPr', {}, el('w:tblHeader'))] : []),
        ...Array.from({ length: cols }, (_, c) =>
          el(
            'w:tc',
            {},
            el('w:tcPr', {}, el('w:tcW', { 'w:w': width, 'w:type': 'dxa' })),
            el(
              'w:p',
              {},
              ...(i === 0 && header === 'centred'
                ? [el('w:pPr', {}, el('w:jc', { 'w:val': 'center' }))]
                : []),
              el(
                'w:r',
                {},
                ...(i === 0 && header !== 'plain' ? [el('w:rPr', {}, el('w:b'))] : []),
                textNode(cells[c] ?? ''),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Cell texts of a table as rows × columns; merged cells (gridSpan) repeat their text. */
export function tableCells(table: XmlElement): string[][] {
  return table.elements('w:tr').map((tr) =>
    tr.elements('w:tc').flatMap((tc) => {
      const text = tc
        .elements('w:p')
        .map((p) => paragraphText(p))
        .join('\n')
        .trim();
      const span = Number(tc.first('w:tcPr')?.first('w:gridSpan')?.attrs['w:val'] ?? 1);
      return Array.from({ length: span }, () => text);
    }),
  );
}
