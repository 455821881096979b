import type { XmlElement } from '../ooxml/xml.ts';
import type { GoldReading } from '../osworld.ts';
import { openDocx } from './document.ts';

/**
 * What OSWorld's docx comparisons read of a document, as python-docx sees it: `doc.paragraphs` and
 * `doc.tables` are the body's own children (nothing inside a table, content control or deletion),
 * and a paragraph's text is its runs' and hyperlinks' runs' text (a tab "\t", a line break "\n").
 */
export const writerGoldReadings: Record<string, GoldReading> = {
  compare_docx_files: async (bytes, options) => paragraphsAsCompared(await bodyOf(bytes), options),
  compare_docx_tables: async (bytes) =>
    (await bodyOf(bytes)).elements('w:tbl').map((tbl) => ({
      columns: tbl.first('w:tblGrid')?.elements('w:gridCol').length ?? 0,
      rows: tbl.elements('w:tr').map((tr) =>
        tr.elements('w:tc').map((tc) => ({
          span: tc.first('w:tcPr')?.first('w:gridSpan')?.attrs['w:val'] ?? '1',
          text: tc.elements('w:p').map(paragraphText).join('\n').trim(),
        })),
      ),
    })),
  // compare_docx_files with its defaults first, then every paragraph's own line spacing.
  compare_line_spacing: async (bytes) => {
    const body = await bodyOf(bytes);
    return {
      text: paragraphsAsCompared(body, {}),
      spacing: body.elements('w:p').map((p) => {
        const s = p.first('w:pPr')?.first('w:spacing');
        return `${s?.attrs['w:line'] ?? ''}/${s?.attrs['w:lineRule'] ?? ''}`;
      }),
    };
  },
};

async function bodyOf(bytes: Uint8Array): Promise<XmlElement> {
  return (await openDocx({ document: bytes }, 'document')).body;
}

/** compare_docx_files' view of the paragraphs under its options (ignore_blanks on by default). */
function paragraphsAsCompared(body: XmlElement, options: Record<string, unknown>): unknown {
  let texts = body.elements('w:p').map(paragraphText);
  if (options.ignore_order === true) texts = [...texts].sort();
  if (options.delete_empty_lines === true) texts = texts.filter((t) => t.trim() !== '');
  const lower = (t: string) => (options.ignore_case === true ? t.toLowerCase() : t);
  return options.ignore_blanks === false
    ? texts.map(lower)
    : lower(texts.join('\n').replace(/\s+/g, ' ').trim());
}

function paragraphText(p: XmlElement): string {
  const runs = p
    .elements()
    .flatMap((c) => (c.name === 'w:r' ? [c] : c.name === 'w:hyperlink' ? c.elements('w:r') : []));
  let s = '';
  for (const run of runs)
    for (const node of run.elements()) {
      if (node.name === 'w:t') s += node.text();
      else if (node.name === 'w:tab' || node.name === 'w:ptab') s += '\t';
      else if (node.name === 'w:cr') s += '\n';
      else if (node.name === 'w:br')
        s += (node.attrs['w:type'] ?? 'textWrapping') === 'textWrapping' ? '\n' : '';
      else if (node.name === 'w:noBreakHyphen') s += '-';
    }
  return s;
}
