import type { Preparer } from '../types.ts';
import { applyWriter } from './apply.ts';
import { buildWriter } from './build.ts';
import { probeWriter } from './probe.ts';
import {
  checkSchema,
  docSchema,
  editSchema,
  type WriterCheck,
  type WriterDoc,
  type WriterEdit,
} from './schema.ts';

export { checkSchema, docSchema, editSchema, type WriterCheck, type WriterDoc, type WriterEdit };

/** Writer documents (.docx): built with `docx`, edited and probed as WordprocessingML. */
export const writerPreparer: Preparer<WriterDoc, WriterEdit, WriterCheck> = {
  app: 'writer',
  docSchema,
  editSchema,
  checkSchema,
  build: buildWriter,
  apply: applyWriter,
  probe: probeWriter,
};
