import type { GenericRightName } from '../types.ts';
import type { WriterEdit } from './schema.ts';

/**
 * Generic correct alternatives for Writer (Preparer.rights): every table the oracle inserts, with
 * its first row as LibreOffice's dialogs leave it rather than as the oracle bolds it.
 * - `writer-table-header-plain`: plain type (Convert Text to Table, or Insert Table with Heading
 *   unticked);
 * - `writer-table-header-centred`: bold and centred (Insert Table's default, the Table Heading style).
 * A table is judged by its cells; how its header row looks was never asked for.
 */
export function writerRights(edits: WriterEdit[]): { name: GenericRightName; edits: WriterEdit[] }[] {
  if (!edits.some((e) => e.op === 'writer.insert_table' && e.header === undefined)) return [];
  const withHeader = (header: 'plain' | 'centred') =>
    edits.map((e) => (e.op === 'writer.insert_table' && e.header === undefined ? { ...e, header } : e));
  return [
    { name: 'writer-table-header-plain', edits: withHeader('plain') },
    { name: 'writer-table-header-centred', edits: withHeader('centred') },
  ];
}
