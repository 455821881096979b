import type { Preparer } from '../types.ts';
import { applyThunderbird } from './apply.ts';
import { buildThunderbird } from './build.ts';
import { thunderbirdOsworld } from './osworld.ts';
import { packProfile } from './pack.ts';
import { probeThunderbird } from './probe.ts';
import { locateProfile } from './profileIni.ts';
import {
  checkSchema,
  docSchema,
  editSchema,
  type ThunderbirdCheck,
  type ThunderbirdDoc,
  type ThunderbirdEdit,
} from './schema.ts';

export {
  checkSchema,
  docSchema,
  editSchema,
  locateProfile,
  packProfile,
  type ThunderbirdCheck,
  type ThunderbirdDoc,
  type ThunderbirdEdit,
};

/**
 * A whole offline Thunderbird profile under `.thunderbird/<target>/` (prefs.js, mbox folders,
 * msgFilterRules.dat, abook.sqlite), registered for the Debian install so Thunderbird opens it.
 */
export const thunderbirdPreparer: Preparer<ThunderbirdDoc, ThunderbirdEdit, ThunderbirdCheck> = {
  app: 'thunderbird',
  docSchema,
  editSchema,
  checkSchema,
  build: buildThunderbird,
  apply: applyThunderbird,
  probe: probeThunderbird,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: thunderbirdOsworld,
  staging: {
    osworldDomain: 'thunderbird',
    launch: [['thunderbird']],
    closeBeforeEvaluation: { windowName: 'Mail.thunderbird', byClass: true },
  },
};
