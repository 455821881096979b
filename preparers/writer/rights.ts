import { curlQuotes } from '../office/asTyped.ts';
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
  const curled = edits.map(curlTyped);
  if (curled.some((e, i) => e !== edits[i])) out.push({ name: 'writer-autocorrect-quotes', edits: curled });
  return out;
}

/** The edit with the text it types curled (curlQuotes); the same object when it types none. */
function curlTyped(e: WriterEdit): WriterEdit {
  const changed = <T extends WriterEdit>(next: T, before: unknown[], after: unknown[]) =>
    before.every((v, i) => v === after[i]) ? e : next;
  switch (e.op) {
    case 'writer.insert_paragraph':
    case 'writer.fill_table_cell':
    case 'writer.set_header':
    case 'writer.set_footer':
    case 'writer.add_comment': {
      const text = curlQuotes(e.text);
      return changed({ ...e, text }, [e.text], [text]);
    }
    case 'writer.replace_text': {
      const replace = curlQuotes(e.replace);
      return changed({ ...e, replace }, [e.replace], [replace]);
    }
    case 'writer.insert_table': {
      const rows = e.rows.map((r) => r.map(curlQuotes));
      return changed({ ...e, rows }, e.rows.flat(), rows.flat());
    }
    default:
      return e;
  }
}
