import type { Preparer } from '../types.ts';
import { applyChromium } from './apply.ts';
import { buildChromium } from './build.ts';
import { chromiumTargets } from './discoveryTargets.ts';
import { chromiumInvariants } from './invariants.ts';
import { chromiumMutants } from './mutants.ts';
import { chromiumOsworld } from './osworld.ts';
import { CHROMIUM_DIR } from './prefs.ts';
import { probeChromium } from './probe.ts';
import { chromiumNamedPaths, chromiumProfilePolicy } from './profilePolicy.ts';
import {
  type ChromiumCheck,
  type ChromiumDoc,
  type ChromiumEdit,
  checkSchema,
  docSchema,
  editSchema,
} from './schema.ts';

export { type ChromiumCheck, type ChromiumDoc, type ChromiumEdit, checkSchema, docSchema, editSchema };

/**
 * Debian's Chromium (/usr/bin/chromium) with a built user-data directory `.config/chromium`
 * (Default/Preferences, Bookmarks, History) and the task's local pages and files; checks read the
 * profile and what was downloaded or saved.
 */
export const chromiumPreparer: Preparer<ChromiumDoc, ChromiumEdit, ChromiumCheck> = {
  app: 'chromium',
  docSchema,
  editSchema,
  checkSchema,
  build: buildChromium,
  apply: applyChromium,
  probe: probeChromium,
  async invariants(initial, solved, files) {
    if (files.length === 0) return [];
    return chromiumInvariants(initial, solved, files).map((c) => checkSchema.parse(c));
  },
  bulk(edits) {
    if (!edits.some((e) => e.op === 'chromium.delete_history' && e.all !== true)) return undefined;
    // "Clear browsing data" instead of deleting the one site's pages.
    return edits.map((e) =>
      e.op === 'chromium.delete_history' ? { op: 'chromium.delete_history', all: true } : e,
    );
  },
  mutants: chromiumMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: chromiumOsworld,
  staging: {
    osworldDomain: 'chrome',
    launch: [['chromium', '--no-first-run', '--password-store=basic']],
    launchers: [['chromium', '--no-first-run', '--password-store=basic']],
    // Chromium writes Preferences, Bookmarks and History out on a timer and on exit: close it first.
    closeBeforeEvaluation: { windowName: 'chromium.Chromium', byClass: true },
  },
  owns: (path) => path === CHROMIUM_DIR || path.startsWith(`${CHROMIUM_DIR}/`),
  instruction: {
    targets: chromiumTargets,
    mentions: {
      pattern:
        /chromium|chrome|browser|bookmark|history|home ?page|search engine|download|web ?page|start-?up|font|cookie|site/,
      name: 'Chromium',
    },
    literalFields: { 'chromium.bookmark': ['title'], 'chromium.file_text': ['contains'] },
  },
  namedPaths: chromiumNamedPaths,
  profilePolicy: chromiumProfilePolicy,
};
