import { curledEdits } from '../office/asTyped.ts';
import type { GenericRightName } from '../types.ts';
import type { WriterEdit } from './schema.ts';

/**
 * Generic correct alternatives for Writer (Preparer.rights):
 * - `writer-table-header-plain` / `writer-table-header-centred`: every table the oracle inserts,
 *   with its first row as LibreOffice's dialogs leave it rather than as the oracle bolds it: plain
 *   (Convert Text to Table, or Insert Table with Heading unticked) or bold and centred (Insert
 *   Table's default, the Table Heading style). A table is judged by its cells.
 * - `writer-autocorrect-quotes`: every text the oracle types, with its quotes curled as AutoCorrect
 *   curls them while a person types (don't → don’t, "Draft" → “Draft”).
 */
export function writerRights(edits: WriterEdit[]): { name: GenericRightName; edits: WriterEdit[] }[] {
  const out: { name: GenericRightName; edits: WriterEdit[] }[] = [];
  if (edits.some((e) => e.op === 'writer.insert_table' && e.header === undefined)) {
    const withHeader = (header: 'plain' | 'centred') =>
      edits.map((e) => (e.op === 'writer.insert_table' && e.header === undefined ? { ...e, header } : e));
    out.push(
      { name: 'writer-table-header-plain', edits: withHeader('plain') },
      { name: 'writer-table-header-centred', edits: withHeader('centred') },
    );
  }
  const curled = curledEdits(edits, (e, curl): WriterEdit => {
    switch (e.op) {
      case 'writer.insert_paragraph':
      case 'writer.fill_table_cell':
      case 'writer.set_header':
      case 'writer.set_footer':
      case 'writer.add_comment':
        return { ...e, text: curl(e.text) };
      case 'writer.replace_text':
        return { ...e, replace: curl(e.replace) };
      case 'writer.insert_table':
        return { ...e, rows: e.rows.map((r) => r.map(curl)) };
      default:
        return e;
    }
  });
  if (curled) out.push({ name: 'writer-autocorrect-quotes', edits: curled });
  return out;
}
