import { OS_MANIFEST_PATH, type OsManifest, osManifestOf, withoutOsManifest } from '../home/manifest.ts';
import type { Preparer } from '../types.ts';
import { applyOs } from './apply.ts';
import { buildOs } from './build.ts';
import { osTargets } from './discoveryTargets.ts';
import { osInvariants } from './invariants.ts';
import { osMutants } from './mutants.ts';
import { osNamedPaths, osUsesRegex } from './namedPaths.ts';
import { osOsworld } from './osworld.ts';
import { probeOs } from './probe.ts';
import { checkSchema, docSchema, editSchema, type OsCheck, type OsDoc, type OsEdit } from './schema.ts';

export {
  checkSchema,
  docSchema,
  editSchema,
  OS_MANIFEST_PATH,
  type OsCheck,
  type OsDoc,
  type OsEdit,
  type OsManifest,
  osManifestOf,
  withoutOsManifest,
};

/** Plain files, directories, symlinks and modes under the home directory (manifest in manifest.ts). */
export const osPreparer: Preparer<OsDoc, OsEdit, OsCheck> = {
  app: 'os',
  docSchema,
  editSchema,
  checkSchema,
  build: buildOs,
  apply: applyOs,
  probe: probeOs,
  async invariants(initial, solved, files) {
    return (await osInvariants(initial, solved, files)).map((c) => checkSchema.parse(c));
  },
  bulk(edits) {
    if (!edits.some((e) => e.op === 'os.delete' && e.path.includes('/'))) return undefined;
    // rm -r on the folder instead of the named files.
    return edits.map((e) =>
      e.op === 'os.delete' && e.path.includes('/')
        ? { ...e, path: e.path.slice(0, e.path.lastIndexOf('/')) }
        : e,
    );
  },
  mutants: osMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: osOsworld,
  staging: {
    osworldDomain: 'os',
    launch: [],
    launchers: [['nautilus'], ['gnome-terminal']],
  },
  instruction: {
    targets: osTargets,
    literalFields: {
      'os.exists': ['path'],
      'os.tree': ['entries'],
      'os.archive_contains': ['entries'],
    },
  },
  namedPaths: osNamedPaths,
  // No profile of its own: what it may not write (start-up files, every application's
  // configuration root) is decided for any writer by sensitivePaths.ts and profiles/gate.ts.
  usesRegex: osUsesRegex,
};
