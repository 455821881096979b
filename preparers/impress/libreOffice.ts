import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/**
 * The `impress.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts).
 * (LibreOffice 7.4 often aborts when it closes a deck a table was added to, after the save;
 * the bridge keeps the saved file and the member is restarted.)
 */
export const impressInLibreOffice: LibreOfficeDriven = {
  notDriven: {
    'impress.insert_picture':
      "the picture is a file of the task's home, which the resident office does not see; our writer embeds its bytes unchanged, as Insert > Image does",
  },
};
