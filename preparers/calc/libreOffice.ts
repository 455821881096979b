import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/** The `calc.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts). */
export const calcInLibreOffice: LibreOfficeDriven = {
  notDriven: {},
};
