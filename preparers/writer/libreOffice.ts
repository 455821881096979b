import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/**
 * The `writer.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts): none,
 * every edit of schema.ts is made there as a person makes it in the UI.
 */
export const writerInLibreOffice: LibreOfficeDriven = {
  notDriven: {},
};
