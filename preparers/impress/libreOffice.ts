import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/** The `impress.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts). */
export const impressInLibreOffice: LibreOfficeDriven = {
  notDriven: {},
};
