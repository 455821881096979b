import type { Preparer } from '../types.ts';
import { applyGimp } from './apply.ts';
import { buildGimp } from './build.ts';
import { gimpInvariants } from './invariants.ts';
import { gimpMutants } from './mutants.ts';
import { gimpNamedPaths } from './namedPaths.ts';
import { gimpOsworld } from './osworld.ts';
import { probeGimp } from './probe.ts';
import {
  checkSchema,
  docSchema,
  editSchema,
  formatOfPath,
  type GimpCheck,
  type GimpDoc,
  type GimpEdit,
} from './schema.ts';

export { checkSchema, docSchema, editSchema, type GimpCheck, type GimpDoc, type GimpEdit };

/**
 * GIMP: pictures (PNG or JPEG) built from scene specs, the oracle's edits done on pixels, checks on
 * headers, pixel statistics and a 16×16 comparison grid (checker.py reads PNG with zlib).
 * GIMP's configuration stays closed (preparers/profiles/otherApps.ts): no skill needs a setting.
 */
export const gimpPreparer: Preparer<GimpDoc, GimpEdit, GimpCheck> = {
  app: 'gimp',
  docSchema,
  editSchema,
  checkSchema,
  build: buildGimp,
  apply: applyGimp,
  probe: probeGimp,
  async invariants(initial, solved, files) {
    return (await gimpInvariants(initial, solved, files)).map((c) => checkSchema.parse(c));
  },
  // No edit has a careless bulk form (GIMP edits one opened image at a time).
  bulk: () => undefined,
  mutants: gimpMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: gimpOsworld,
  staging: {
    osworldDomain: 'gimp',
    // GIMP is started empty; the agent opens the picture (File > Open), as its tasks say where it is.
    launch: [['gimp']],
  },
  namedPaths: gimpNamedPaths,
  // Its documents are pictures: PNG and JPEG files, wherever they lie.
  owns: (path) => formatOfPath(path) !== undefined,
};
