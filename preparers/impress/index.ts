import type { Preparer } from '../types.ts';
import { applyImpress } from './apply.ts';
import { buildImpress } from './build.ts';
import { probeImpress } from './probe.ts';
import {
  checkSchema,
  docSchema,
  editSchema,
  type ImpressCheck,
  type ImpressDoc,
  type ImpressEdit,
} from './schema.ts';

export { checkSchema, docSchema, editSchema, type ImpressCheck, type ImpressDoc, type ImpressEdit };

/** Impress presentations (.pptx): built with pptxgenjs, edited and probed as PresentationML. */
export const impressPreparer: Preparer<ImpressDoc, ImpressEdit, ImpressCheck> = {
  app: 'impress',
  docSchema,
  editSchema,
  checkSchema,
  build: buildImpress,
  apply: applyImpress,
  probe: probeImpress,
};
