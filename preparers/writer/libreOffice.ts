import type { LibreOfficeDriven } from '../office/drivenOps.ts';

/**
 * The `writer.*` edits uno_ops.py can't make in LibreOffice, with the reason (see drivenOps.ts);
 * every other edit of schema.ts is made there as a person makes it in the UI.
 */
export const writerInLibreOffice: LibreOfficeDriven = {
  notDriven: {
    'writer.insert_picture':
      "the picture is a file of the task's home, which the resident office does not see; our writer embeds its bytes unchanged, as Insert > Image does",
  },
};
