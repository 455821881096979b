import { jsonEqual } from '../deepEqual.ts';
import { type EditMutant, editMutants } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { type BookmarksFile, folderAt, parseBookmarks } from './bookmarks.ts';
import { untrackedPrefs } from './invariants.ts';
import {
  BOOKMARKS,
  effectivePref,
  type Json,
  type JsonObject,
  PREF_PATHS,
  PREFERENCES,
  PREFS,
  type PrefPath,
  parsePreferences,
  setAt,
  VM_HOME,
} from './prefs.ts';
import type { ChromiumEdit } from './schema.ts';
import { SEARCH_ENGINE_NAMES } from './searchEngines.ts';

/** The setting beside each one on Chromium's Settings pages: the one a person flips by mistake. */
const NEIGHBOURS: Partial<Record<PrefPath, PrefPath>> = {
  homepage: 'session.startup_urls',
  'session.startup_urls': 'homepage',
  homepage_is_newtabpage: 'browser.show_home_button',
  'browser.show_home_button': 'bookmark_bar.show_on_all_tabs',
  'bookmark_bar.show_on_all_tabs': 'browser.show_home_button',
  'session.restore_on_startup': 'homepage_is_newtabpage',
  'download.default_directory': 'savefile.default_directory',
  'savefile.default_directory': 'download.default_directory',
  'download.prompt_for_download': 'download.default_directory',
  enable_do_not_track: 'profile.cookie_controls_mode',
  'profile.cookie_controls_mode': 'enable_do_not_track',
  'safebrowsing.enabled': 'safebrowsing.enhanced',
  'safebrowsing.enhanced': 'safebrowsing.enabled',
  'webkit.webprefs.default_font_size': 'webkit.webprefs.minimum_font_size',
  'webkit.webprefs.minimum_font_size': 'webkit.webprefs.default_font_size',
  'webkit.webprefs.default_fixed_font_size': 'webkit.webprefs.default_font_size',
  'profile.default_content_setting_values.popups': 'profile.default_content_setting_values.notifications',
  'profile.default_content_setting_values.notifications':
    'profile.default_content_setting_values.geolocation',
  'profile.default_content_setting_values.geolocation':
    'profile.default_content_setting_values.notifications',
  'profile.default_content_setting_values.cookies': 'profile.cookie_controls_mode',
  credentials_enable_service: 'autofill.profile_enabled',
  'autofill.profile_enabled': 'autofill.credit_card_enabled',
  'autofill.credit_card_enabled': 'autofill.profile_enabled',
  'translate.enabled': 'enable_do_not_track',
};

/** A value of `path` other than `now`, of its type; `like` is the edited value, reused where it fits (a homepage as a startup page). */
function otherValue(path: PrefPath, now: Json, like: Json): boolean | number | string | string[] {
  switch (PREFS[path].type) {
    case 'bool':
      return !now;
    case 'int':
      if (path.startsWith('webkit.')) return (now as number) + 2;
      if (path === 'session.restore_on_startup') return now === 4 ? 1 : 4;
      return now === 1 ? 2 : 1;
    case 'url':
      return typeof like === 'string' && like !== now ? like : 'https://www.example.com/';
    case 'urls':
      return typeof like === 'string' && like !== '' ? [like] : ['https://www.example.com/'];
    case 'dir':
      return now === `${VM_HOME}/Desktop` ? `${VM_HOME}/Documents` : `${VM_HOME}/Desktop`;
  }
}

/**
 * Chromium near misses a person makes: the neighbouring setting changed instead of the asked one
 * or along with it, a bookmark or folder filed under the other root (the bar instead of "Other
 * bookmarks", or the reverse) or in the parent folder, another search engine of the list, a
 * download or a printed PDF saved in the folder's parent.
 */
export async function chromiumMutants(
  edits: ChromiumEdit[],
  initial: FileMap,
): Promise<EditMutant<ChromiumEdit>[]> {
  const m = editMutants(edits);
  let marks: BookmarksFile | undefined;
  try {
    marks = parseBookmarks(initial[BOOKMARKS]);
  } catch {
    marks = undefined;
  }
  /** The title next to `title` in the folder (after it, else before it), that no edit of the task names. */
  const neighbour = (folder: string[], title: string): string | undefined => {
    const children = (marks && folderAt(marks, folder)?.children) ?? [];
    const at = children.findIndex((c) => c.name === title);
    const named = new Set(edits.flatMap((e) => ('title' in e ? [e.title] : [])));
    for (const k of [at + 1, at - 1]) {
      const c = at < 0 ? undefined : children[k];
      if (c && !named.has(c.name) && children.filter((x) => x.name === c.name).length === 1) return c.name;
    }
    return undefined;
  };
  const otherRoot = (folder: string[]) => [folder[0] === 'bar' ? 'other' : 'bar'];
  let prefs: JsonObject | undefined;
  try {
    prefs = parsePreferences(initial[PREFERENCES]);
  } catch {
    prefs = undefined;
  }
  const touched = new Set(edits.flatMap((e) => (e.op === 'chromium.set_pref' ? [e.path] : [])));
  if (prefs) {
    // Settings whose change is no damage (the invariants leave them free) are no collateral either.
    const after = structuredClone(prefs);
    for (const e of edits) if (e.op === 'chromium.set_pref') setAt(after, e.path, e.value);
    for (const p of untrackedPrefs(prefs, after)) touched.add(p);
  }
  for (const [i, e] of edits.entries()) {
    if (e.op === 'chromium.set_pref' && prefs) {
      // The neighbour, else the next setting of the list the task leaves alone.
      const near = NEIGHBOURS[e.path];
      const next =
        near !== undefined && !touched.has(near)
          ? near
          : PREF_PATHS.slice(PREF_PATHS.indexOf(e.path) + 1)
              .concat(PREF_PATHS)
              .find((p) => !touched.has(p));
      if (next !== undefined) {
        const value = otherValue(next, effectivePref(prefs, next), e.value as Json);
        m.also(i, `and ${next} changed too (a setting beside it)`, {
          op: 'chromium.set_pref',
          path: next,
          value,
        });
        // Instead: only where that changes the neighbour (else it is the edit left out, in other bytes).
        if (
          PREFS[next].type === PREFS[e.path].type &&
          !jsonEqual(effectivePref(prefs, next), e.value as Json)
        )
          m.add(i, `on ${next} instead (the setting beside it)`, { ...e, path: next });
      }
    } else if (prefs) {
      // A bookmark, a download, a page: and a setting changed on the way through Settings.
      const next = PREF_PATHS.find((p) => !touched.has(p));
      if (next !== undefined)
        m.also(i, `and ${next} changed on the way (a setting not asked for)`, {
          op: 'chromium.set_pref',
          path: next,
          value: otherValue(next, effectivePref(prefs, next), null),
        });
    }
    if (e.op === 'chromium.add_bookmark' || e.op === 'chromium.add_folder') {
      m.moved(i, 'filed under the other root', { ...e, folder: otherRoot(e.folder) });
      if (e.folder.length > 1)
        m.add(i, 'filed in the parent folder', { ...e, folder: e.folder.slice(0, -1) });
    }
    if (e.op === 'chromium.move_bookmark') {
      m.add(i, 'moved under the other root', { ...e, to: otherRoot(e.to) });
      if (e.to.length > 1) m.add(i, 'moved to the parent folder', { ...e, to: e.to.slice(0, -1) });
    }
    if (
      e.op === 'chromium.delete_bookmark' ||
      e.op === 'chromium.rename_bookmark' ||
      e.op === 'chromium.move_bookmark'
    ) {
      const next = neighbour(e.folder, e.title);
      if (next !== undefined) m.moved(i, 'the neighbouring bookmark', { ...e, title: next });
    }
    if (e.op === 'chromium.set_search_engine') {
      const next =
        SEARCH_ENGINE_NAMES[(SEARCH_ENGINE_NAMES.indexOf(e.name as never) + 1) % SEARCH_ENGINE_NAMES.length]!;
      m.add(i, `${next} instead`, { ...e, name: next });
    }
    if ((e.op === 'chromium.copy_file' || e.op === 'chromium.print_pdf') && e.to.includes('/')) {
      const name = e.to.slice(e.to.lastIndexOf('/') + 1);
      const parent = e.to.slice(0, e.to.lastIndexOf('/'));
      const up = parent.includes('/') ? `${parent.slice(0, parent.lastIndexOf('/'))}/${name}` : name;
      // Saved in both places only where a folder's listing can tell (the home itself is not held).
      if (up.includes('/')) m.moved(i, 'saved one folder up', { ...e, to: up });
      else m.add(i, 'saved one folder up', { ...e, to: up });
    }
  }
  return m.out;
}
