import type { Preparer } from '../types.ts';
import { applyThunderbird } from './apply.ts';
import { buildThunderbird } from './build.ts';
import { thunderbirdTargets } from './discoveryTargets.ts';
import { thunderbirdInvariants } from './invariants.ts';
import { thunderbirdMutants } from './mutants.ts';
import { thunderbirdOsworld } from './osworld.ts';
import { packProfile } from './pack.ts';
import { probeThunderbird } from './probe.ts';
import { locateProfile, THUNDERBIRD_DIR } from './profileIni.ts';
import { thunderbirdNamedPaths, thunderbirdProfilePolicy } from './profilePolicy.ts';
import { thunderbirdRights } from './rights.ts';
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
  async invariants(initial, solved, files) {
    if (files.length === 0) return [];
    return (await thunderbirdInvariants(initial, solved)).map((c) => checkSchema.parse(c));
  },
  bulk(edits) {
    const perMessage = new Set([
      'thunderbird.set_flag',
      'thunderbird.move_message',
      'thunderbird.delete_message',
    ]);
    // Edits that already act on the whole folder have no careless wider form.
    const narrow = (e: ThunderbirdEdit) => perMessage.has(e.op) && (e as { all?: boolean }).all !== true;
    if (!edits.some(narrow)) return undefined;
    // Select-all in the folder: the action lands on every message, not the named ones.
    return edits.map((e) =>
      narrow(e) ? ({ ...e, subject: undefined, from: undefined, all: true } as ThunderbirdEdit) : e,
    );
  },
  rights: thunderbirdRights,
  mutants: thunderbirdMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: thunderbirdOsworld,
  staging: {
    osworldDomain: 'thunderbird',
    launch: [['thunderbird']],
    launchers: [['thunderbird']],
    closeBeforeEvaluation: { windowName: 'Mail.thunderbird', byClass: true },
  },
  owns: (path) => path.startsWith(`${THUNDERBIRD_DIR}/`),
  profile: {
    root: THUNDERBIRD_DIR,
    archivePath: '.cache/cua-forge/thunderbird-profile.tar.gz',
    pack: packProfile,
    targetIsName: true,
  },
  instruction: {
    targets: thunderbirdTargets,
    mentions: { pattern: /thunderbird|e-?mail|mail|message|inbox|draft|address book/, name: 'Thunderbird' },
    literalFields: {
      'thunderbird.contact_exists': ['name', 'email'],
      'thunderbird.draft': ['subject', 'to', 'bodyContains', 'attachment'],
      'thunderbird.filter_rule': ['name', 'value', 'folder', 'tag'],
      'thunderbird.folder_exists': ['folder'],
      'thunderbird.identity_signature': ['contains', 'email'],
      'thunderbird.message_in_folder': ['folder'],
      'thunderbird.message_state': ['tag'],
    },
  },
  namedPaths: thunderbirdNamedPaths,
  profilePolicy: thunderbirdProfilePolicy,
};
