import type { Preparer } from '../types.ts';
import { applyVscode } from './apply.ts';
import { buildVscode } from './build.ts';
import { vscodeGoldReadings } from './goldReading.ts';
import { vscodeInvariants } from './invariants.ts';
import { vscodeMutants } from './mutants.ts';
import { vscodeOsworld } from './osworld.ts';
import { USER_DIR } from './paths.ts';
import { probeVscode } from './probe.ts';
import { vscodeNamedPaths, vscodeProfilePolicy } from './profilePolicy.ts';
import {
  checkSchema,
  docSchema,
  editSchema,
  type VscodeCheck,
  type VscodeDoc,
  type VscodeEdit,
} from './schema.ts';

export { checkSchema, docSchema, editSchema, type VscodeCheck, type VscodeDoc, type VscodeEdit };

/**
 * VS Code: the user's settings.json and keybindings.json (JSONC, read and written with VS Code's
 * own jsonc-parser) and a workspace folder (`target`) with code, tests and its own
 * .vscode/settings.json. VS Code itself is not installed here (README.md): its file formats are.
 */
export const vscodePreparer: Preparer<VscodeDoc, VscodeEdit, VscodeCheck> = {
  app: 'vscode',
  docSchema,
  editSchema,
  checkSchema,
  build: buildVscode,
  apply: applyVscode,
  probe: probeVscode,
  async invariants(initial, solved, files) {
    return (await vscodeInvariants(initial, solved, files)).map((c) => checkSchema.parse(c));
  },
  bulk(edits) {
    // Rename by Find/Replace across the files without "Match Whole Word".
    if (!edits.some((e) => e.op === 'vscode.replace_text' && e.word)) return undefined;
    return edits.map((e) => (e.op === 'vscode.replace_text' ? { ...e, word: false } : e));
  },
  mutants: vscodeMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: vscodeOsworld,
  goldReadings: vscodeGoldReadings,
  staging: {
    osworldDomain: 'vs_code',
    launch: [['code']],
    launchers: [['code']],
  },
  namedPaths: vscodeNamedPaths,
  profilePolicy: vscodeProfilePolicy,
  owns: (path) => path.startsWith(`${USER_DIR}/`) || /(^|\/)\.vscode\/settings\.json$/.test(path),
  instruction: {
    mentions: {
      pattern: /vs ?code|visual studio code|editor|settings|shortcut|keybinding|workspace|project|repo|code/,
      name: 'VS Code',
    },
    literalFields: {
      'vscode.keybinding': ['key', 'command'],
    },
  },
};
