import type { Preparer } from '../types.ts';
import { applyWriter } from './apply.ts';
import { buildWriter } from './build.ts';
import { writerOsworld } from './osworld.ts';
import { probeWriter } from './probe.ts';
import * as schema from './schema.ts';

export type { WriterCheck, WriterDoc, WriterEdit } from './schema.ts';
export { checkSchema, docSchema, editSchema } from './schema.ts';

/** Writer documents (.docx): built with `docx`, edited and probed as WordprocessingML. */
export const writerPreparer: Preparer<schema.WriterDoc, schema.WriterEdit, schema.WriterCheck> = {
  app: 'writer',
  docSchema: schema.docSchema,
  editSchema: schema.editSchema,
  checkSchema: schema.checkSchema,
  build: buildWriter,
  apply: applyWriter,
  probe: probeWriter,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: writerOsworld,
  staging: {
    osworldDomain: 'libreoffice_writer',
    launch: [],
    documentWindow: 'LibreOffice Writer',
  },
};
