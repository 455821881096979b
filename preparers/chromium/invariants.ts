import { jsonEqual } from '../deepEqual.ts';
import type { FileMap } from '../types.ts';
import { type Entry, entryKey } from './bookmarks.ts';
import { CHROMIUM_DIR, effectivePref, type JsonObject, PREF_PATHS, type PrefPath } from './prefs.ts';
import { ChromiumState, sha256Of } from './probe.ts';
import type { ChromiumCheck } from './schema.ts';
import { searchEngineOf } from './searchEngines.ts';

/**
 * What the window shows rather than what the browser does: showing the bookmarks bar to reach a
 * bookmark on it is part of using it.
 */
const VIEW_PREFS = new Set<PrefPath>(['bookmark_bar.show_on_all_tabs']);

/**
 * "Nothing else changed" in the profile and the task's files: every setting the oracle left keeps
 * its value (but the bookmarks bar's visibility, the start-up list while it is not used, and the
 * Save-page folder when the download folder moves); every bookmark it left stays where it was and
 * the tree holds no more entries than the oracle's (or the untouched one's); every history URL it kept stays; the task's
 * pages and files keep their bytes.
 * New history (the agent browses the pages) and files the agent saves elsewhere are not pinned.
 */
/**
 * The settings a change of which is no damage, given the profile's settings before and after:
 * the bookmarks bar's visibility, the start-up list while it is not used, and the Save-page folder
 * when the download folder moves.
 */
export function untrackedPrefs(before: JsonObject, after: JsonObject): Set<PrefPath> {
  const out = new Set<PrefPath>(VIEW_PREFS);
  // The start-up list only counts while Chromium opens specific pages; with the New Tab page
  // chosen, emptying the list is tidying up, not a change.
  if (effectivePref(after, 'session.restore_on_startup') !== 4) out.add('session.startup_urls');
  // The Settings page's "Change" button for the download folder moves the Save-page folder with it.
  if (
    !jsonEqual(
      effectivePref(before, 'download.default_directory'),
      effectivePref(after, 'download.default_directory'),
    )
  )
    out.add('savefile.default_directory');
  return out;
}

export function chromiumInvariants(initial: FileMap, solved: FileMap, files: string[]): ChromiumCheck[] {
  const before = new ChromiumState(initial);
  const after = new ChromiumState(solved);
  const prefs: Record<string, boolean | number | string | string[]> = {};
  const untracked = untrackedPrefs(before.prefs(), after.prefs());
  for (const path of PREF_PATHS) {
    if (untracked.has(path)) continue;
    const a = effectivePref(before.prefs(), path);
    const b = effectivePref(after.prefs(), path);
    if (jsonEqual(a, b)) prefs[path] = b as boolean | number | string | string[];
  }
  const engineBefore = searchEngineOf(before.prefs());
  const searchEngine = engineBefore === searchEngineOf(after.prefs()) ? engineBefore : undefined;

  const solvedKeys = new Map<string, number>();
  for (const e of after.entries()) solvedKeys.set(entryKey(e), (solvedKeys.get(entryKey(e)) ?? 0) + 1);
  const keep: Entry[] = [];
  for (const e of before.entries()) {
    const n = solvedKeys.get(entryKey(e)) ?? 0;
    if (n > 0) {
      keep.push(e);
      solvedKeys.set(entryKey(e), n - 1);
    }
  }
  const solvedUrls = new Set(after.history());
  const history = before.history().filter((u) => solvedUrls.has(u));

  const pinned: Record<string, string> = {};
  for (const path of files) {
    if (path === CHROMIUM_DIR || path.startsWith(`${CHROMIUM_DIR}/`)) continue;
    const a = initial[path];
    const b = solved[path];
    if (a !== undefined && b !== undefined && sha256Of(a) === sha256Of(b)) pinned[path] = sha256Of(b);
  }
  return [
    {
      kind: 'chromium.unchanged',
      prefs,
      ...(searchEngine !== undefined ? { searchEngine } : {}),
      // No more entries than the oracle's tree, or than the untouched one where the oracle deletes
      // (a deletion is the task's checks' to see; the untouched profile passes this one).
      bookmarks: {
        keep: keep.map((e) => ({ ...e })),
        count: Math.max(before.entries().length, after.entries().length),
      },
      history,
      files: pinned,
    } as ChromiumCheck,
  ];
}
