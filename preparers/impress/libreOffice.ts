import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/** The `impress.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts). */
export const impressInLibreOffice: LibreOfficeDriven = {
  notDriven: {
    // uno_ops.py has op_add_table (TableShape, rows/columns inserted, cells typed) and the deck it
    // saves passes every check; but LibreOffice 7.4 then aborts when the document is closed
    // (SIGABRT in Application::RemoveUserEvent from sd's dispose) in roughly a third of runs, the
    // same with Insert > Table by dispatch, after the save. The bridge reports the abort as a
    // failed file, so until it keeps a file stored before the close failed, our writer applies it.
    'impress.add_table':
      'LibreOffice 7.4 aborts on closing a deck after a table is inserted over UNO (after the save)',
  },
};
