import type { FileMap } from '../types.ts';
import { buildBookmarks, renderBookmarks } from './bookmarks.ts';
import { buildHistory } from './history.ts';
import {
  BOOKMARKS,
  CHROMIUM_DIR,
  FIRST_RUN,
  HISTORY,
  type JsonObject,
  PREFERENCES,
  renderPreferences,
  setAt,
} from './prefs.ts';
import type { ChromiumDoc } from './schema.ts';
import { engineData, SEARCH_PREF, type SearchEngine } from './searchEngines.ts';

/**
 * The user-data directory Debian's Chromium opens (`.config/chromium`, target), with the Default
 * profile's Preferences (only the settings the doc names, the rest at Chromium's defaults),
 * Bookmarks (with Chromium's checksum) and History, the first-run sentinel, and the task's pages.
 */
export async function buildChromium(target: string, doc: ChromiumDoc): Promise<FileMap> {
  if (target !== CHROMIUM_DIR)
    throw new Error(`a Chromium profile is built at ${CHROMIUM_DIR}, not ${target}`);
  const prefs: JsonObject = {};
  for (const [path, value] of Object.entries(doc.prefs)) setAt(prefs, path, value);
  if (doc.searchEngine !== undefined) setAt(prefs, SEARCH_PREF, engineData(doc.searchEngine as SearchEngine));
  const files: FileMap = {
    [FIRST_RUN]: new Uint8Array(),
    [PREFERENCES]: renderPreferences(prefs),
    [BOOKMARKS]: renderBookmarks(buildBookmarks(doc.bookmarks.bar, doc.bookmarks.other)),
    [HISTORY]: buildHistory(doc.history),
  };
  for (const f of doc.files) {
    if (f.path in files) throw new Error(`${f.path} is given twice`);
    files[f.path] = new Uint8Array(
      f.base64 !== undefined ? Buffer.from(f.base64, 'base64') : Buffer.from(f.content ?? '', 'utf8'),
    );
  }
  return files;
}
