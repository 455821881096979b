import type { FileMap, ProbeResult } from '../types.ts';
import type { PrefValue } from './prefs.ts';
import { Profile } from './profile.ts';
import { SPEC_PREF_PATTERNS } from './specPrefs.ts';

/**
 * "No other setting changed" in prefs.js. The real Thunderbird rewrites the file on every run, so
 * what it does by itself was measured (Debian's Thunderbird opening and closing a task's profile,
 * before and after the oracle's edits): it adds ~160 prefs of its own (app., browser., calendar.,
 * datareporting., extensions., dom.; mail.root.*, each server's directory, nextFilterTime and
 * storeContractID, mail.ui-rdf.version, mailnews.database.*, the five default mailnews.tags), changes
 * mailnews.start_page_override.mstone, and drops mail.shell.checkDefaultClient (a default). So:
 * - held: every mail., mailnews., msgcompose. and ldap_2. pref the profile had, but those the app
 *   manages, keeps its value unless the oracle changes it;
 * - new: a setting of the Settings page (what a spec may set, and the page's other checkboxes)
 *   appears only if the oracle sets it. Identity and server keys the app may write on saving an
 *   account page are not watched when new; the ones the profile has are held.
 */
const HELD = /^(mail|mailnews|msgcompose|ldap_2)\./;
const APP_MANAGED = [
  /^mailnews\.start_page_override\./,
  /^mail\.shell\.checkDefaultClient$/,
  /^mail\.root\./,
  /^mail\.server\.[^.]+\.(directory|directory-rel|nextFilterTime|storeContractID)$/,
  /^mail\.ui-rdf\.version$/,
  /^mailnews\.database\./,
  /^mailnews\.headers\.extraAddonHeaders$/,
  /^mailnews\.tags\./,
  /^mail\.(spotlight|winsearch|startup|rights|inappnotifications|provider)\./,
];
/** Settings-page prefs beside what a spec may set: junk, spelling, address collection, reading. */
const SETTINGS = [
  /^mail\.spam\./,
  /^mail\.SpellCheckBeforeSend$/,
  /^mail\.collect_/,
  /^mail\.close_message_window\./,
  /^mail\.delete_matches_sort_order$/,
  /^mail\.warn_on_/,
  /^mail\.biff\./,
  /^mail\.check_all_imap_folders_for_new$/,
];

const appManaged = (name: string) => APP_MANAGED.some((re) => re.test(name));
export const heldPref = (name: string) => HELD.test(name) && !appManaged(name);
/** A Settings-page pref (not an identity's or server's own key): one appearing is a change. */
const watched = (name: string, check: Pick<PrefsKept, 'watch' | 'ignore'>) =>
  check.watch.some((re) => new RegExp(re).test(name)) &&
  !check.ignore.some((re) => new RegExp(re).test(name));

export interface PrefsKept {
  /** Held prefs the oracle leaves alone, with their values. */
  prefs: Record<string, PrefValue>;
  /** Prefs the oracle sets, changes or removes: theirs is the task's own check. */
  made: string[];
  /**
   * A new pref matching one of `watch` and none of `ignore` (regular expressions) is a change. The
   * check carries them so the shipped checker needs no copy of these tables.
   */
  watch: string[];
  ignore: string[];
}

const IGNORED = [...APP_MANAGED, /^mail\.(identity|server|account|smtpserver)\./];

const prefsOf = (files: FileMap) => new Profile(files).prefs();

export function derivePrefsKept(initial: FileMap, solved: FileMap): PrefsKept {
  const before = prefsOf(initial);
  const after = prefsOf(solved);
  const prefs: Record<string, PrefValue> = {};
  const made = new Set<string>();
  for (const [name, value] of before) {
    if (!heldPref(name)) continue;
    if (after.get(name) === value) prefs[name] = value;
    else made.add(name);
  }
  const patterns = {
    watch: [...SPEC_PREF_PATTERNS, ...SETTINGS].map((re) => re.source),
    ignore: IGNORED.map((re) => re.source),
  };
  for (const name of after.keys())
    if (!before.has(name) && (heldPref(name) || watched(name, patterns))) made.add(name);
  return { prefs, made: [...made].sort(), ...patterns };
}

/** `thunderbird.prefs_kept`: every held pref has its value; no Settings-page pref is new but the task's. */
export function probePrefsKept(files: FileMap, check: PrefsKept): ProbeResult {
  const now = prefsOf(files);
  const changed = Object.entries(check.prefs)
    .filter(([name, value]) => now.get(name) !== value)
    .map(([name, value]) => ({ name, was: value, now: now.get(name) ?? null }));
  const added = [...now.keys()]
    .filter((name) => watched(name, check) && !(name in check.prefs) && !check.made.includes(name))
    .sort();
  const pass = changed.length === 0 && added.length === 0;
  return {
    pass,
    observed: pass ? { prefs: Object.keys(check.prefs).length } : { changed: changed.slice(0, 10), added },
  };
}
