import type { Preparer } from '../types.ts';
import { applyImpress } from './apply.ts';
import { buildImpress } from './build.ts';
import { impressOsworld } from './osworld.ts';
import { probeImpress } from './probe.ts';
import * as schema from './schema.ts';

export type { ImpressCheck, ImpressDoc, ImpressEdit } from './schema.ts';
export { checkSchema, docSchema, editSchema } from './schema.ts';

/** Impress presentations (.pptx): built with pptxgenjs, edited and probed as PresentationML. */
export const impressPreparer: Preparer<schema.ImpressDoc, schema.ImpressEdit, schema.ImpressCheck> = {
  app: 'impress',
  docSchema: schema.docSchema,
  editSchema: schema.editSchema,
  checkSchema: schema.checkSchema,
  build: buildImpress,
  apply: applyImpress,
  probe: probeImpress,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: impressOsworld,
  staging: {
    osworldDomain: 'libreoffice_impress',
    launch: [],
    documentWindow: 'LibreOffice Impress',
  },
};
