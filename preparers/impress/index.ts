import { documentNamedPaths, officeProfilePolicy } from '../office/profilePolicy.ts';
import type { Preparer } from '../types.ts';
import { applyImpress } from './apply.ts';
import { buildImpress } from './build.ts';
import { impressTargets } from './discoveryTargets.ts';
import { impressGoldReadings } from './goldReading.ts';
import { impressInvariants } from './invariants.ts';
import { impressMutants } from './mutants.ts';
import { impressOsworld } from './osworld.ts';
import { probeImpress } from './probe.ts';
import { impressRights } from './rights.ts';
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
  async invariants(initial, solved, files) {
    return (await impressInvariants(initial, solved, files)).map((c) => schema.checkSchema.parse(c));
  },
  bulk(edits) {
    if (!edits.some((e) => e.op === 'impress.set_font')) return undefined;
    // Select-all on every slide: titles and bodies of the whole deck get the font.
    return edits.map((e) => {
      if (e.op !== 'impress.set_font') return e;
      const { slide: _s, target: _t, op: _o, ...rest } = e;
      return { ...rest, op: 'impress.set_font_all' as const, target: 'all' as const };
    });
  },
  // Shape geometry is not in the deck's invariant yet (LibreOffice's round trip moves shapes by
  // rounding): a shape also moved on the next slide would pass it.
  collateralBlind: ['impress.move_shape'],
  mutants: impressMutants,
  rights: impressRights,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: impressOsworld,
  goldReadings: impressGoldReadings,
  staging: {
    osworldDomain: 'libreoffice_impress',
    launch: [],
    launchers: [
      ['libreoffice', '--impress'],
      ['soffice', '--impress'],
    ],
    documentWindow: 'LibreOffice Impress',
  },
  owns: (path) => path.toLowerCase().endsWith('.pptx'),
  instruction: {
    targets: impressTargets,
    literalFields: {
      'impress.notes': ['text'],
      'impress.slide_title': ['text'],
      'impress.slide_body': ['bullets'],
      'impress.table': ['cells'],
    },
  },
  namedPaths: documentNamedPaths,
  profilePolicy: officeProfilePolicy,
};
