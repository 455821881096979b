import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/** The `writer.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts). */
export const writerInLibreOffice: LibreOfficeDriven = {
  notDriven: {},
};
