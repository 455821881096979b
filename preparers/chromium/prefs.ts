import { jsonEqual } from '../deepEqual.ts';

/** Where Debian's Chromium keeps its user data (`chromium --user-data-dir` default) and its one profile. */
export const CHROMIUM_DIR = '.config/chromium';
export const PROFILE_DIR = `${CHROMIUM_DIR}/Default`;
export const PREFERENCES = `${PROFILE_DIR}/Preferences`;
export const BOOKMARKS = `${PROFILE_DIR}/Bookmarks`;
export const HISTORY = `${PROFILE_DIR}/History`;
/** The sentinel that keeps Chromium's first-run welcome from covering the task's window. */
export const FIRST_RUN = `${CHROMIUM_DIR}/First Run`;

/** The VM user's home, as Chromium stores absolute paths in its prefs (download folders). */
export const VM_HOME = '/home/user';

type PrefType = 'bool' | 'int' | 'url' | 'urls' | 'dir';

/**
 * The settings a task may set or check, by their Preferences path, with the value Chromium uses
 * when the file does not hold one. Nothing here loads code: no extension, policy, handler or
 * search-URL setting (the default search engine is its own, closed table: searchEngines.ts).
 */
export const PREFS = {
  homepage: { type: 'url', default: '' },
  homepage_is_newtabpage: { type: 'bool', default: true },
  'browser.show_home_button': { type: 'bool', default: false },
  /** 1 continue where you left off, 4 open the startup_urls, 5 the New Tab page. */
  'session.restore_on_startup': { type: 'int', default: 5 },
  'session.startup_urls': { type: 'urls', default: [] },
  'download.default_directory': { type: 'dir', default: `${VM_HOME}/Downloads` },
  'download.prompt_for_download': { type: 'bool', default: false },
  'savefile.default_directory': { type: 'dir', default: `${VM_HOME}/Downloads` },
  enable_do_not_track: { type: 'bool', default: false },
  'safebrowsing.enabled': { type: 'bool', default: true },
  'safebrowsing.enhanced': { type: 'bool', default: false },
  'webkit.webprefs.default_font_size': { type: 'int', default: 16 },
  'webkit.webprefs.default_fixed_font_size': { type: 'int', default: 13 },
  'webkit.webprefs.minimum_font_size': { type: 'int', default: 0 },
  'bookmark_bar.show_on_all_tabs': { type: 'bool', default: false },
  /** Content settings: 1 allow, 2 block, 3 ask (4 cookies for the session only). */
  'profile.default_content_setting_values.popups': { type: 'int', default: 2 },
  'profile.default_content_setting_values.notifications': { type: 'int', default: 3 },
  'profile.default_content_setting_values.geolocation': { type: 'int', default: 3 },
  'profile.default_content_setting_values.cookies': { type: 'int', default: 1 },
  /** CookieControlsMode: 0 allow third-party cookies, 1 block them, 2 block them in Incognito only (default). */
  'profile.cookie_controls_mode': { type: 'int', default: 2 },
  credentials_enable_service: { type: 'bool', default: true },
  'autofill.profile_enabled': { type: 'bool', default: true },
  'autofill.credit_card_enabled': { type: 'bool', default: true },
  'translate.enabled': { type: 'bool', default: true },
} as const satisfies Record<string, { type: PrefType; default: unknown }>;

export type PrefPath = keyof typeof PREFS;
export const PREF_PATHS = Object.keys(PREFS) as PrefPath[];

/** A page a profile may point at: a web page or a local file under the home, never javascript:, data: or chrome:. */
export function isPageUrl(url: string): boolean {
  return (
    url.length <= 2048 &&
    /^(https?:\/\/[^\s]+|file:\/\/\/home\/user\/[^\s]*)$/.test(url) &&
    !url.split('/').some((s) => s === '..')
  );
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Why `value` cannot be the pref's value, or null. */
export function prefValueProblem(path: PrefPath, value: unknown): string | null {
  const type: PrefType = PREFS[path].type;
  switch (type) {
    case 'bool':
      return typeof value === 'boolean' ? null : `${path} takes true or false`;
    case 'int':
      return Number.isInteger(value) && Math.abs(value as number) < 1e6 ? null : `${path} takes an integer`;
    case 'url':
      return typeof value === 'string' && (value === '' || isPageUrl(value))
        ? null
        : `${path} takes an http(s) or file:///home/user/ URL`;
    case 'urls':
      return Array.isArray(value) &&
        value.length <= 50 &&
        value.every((v) => typeof v === 'string' && isPageUrl(v))
        ? null
        : `${path} takes a list of http(s) or file:///home/user/ URLs`;
    case 'dir': {
      if (typeof value !== 'string') return `${path} takes a folder path`;
      if (value !== VM_HOME && !value.startsWith(`${VM_HOME}/`))
        return `${path} must be a folder under ${VM_HOME}`;
      return value.split('/').some((s) => s === '..' || s === '.') ? `${path} may not use . or ..` : null;
    }
  }
}

/** The value at a dotted path of a JSON object, or undefined. */
export function getAt(root: JsonObject, path: string): Json | undefined {
  let at: Json | undefined = root;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, key))
      return undefined;
    at = (at as JsonObject)[key];
  }
  return at;
}

/** Sets the value at a dotted path, creating the objects on the way. */
export function setAt(root: JsonObject, path: string, value: Json): void {
  const keys = path.split('.');
  let at = root;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next) || next === undefined) at[key] = {};
    at = at[key] as JsonObject;
  }
  at[keys[keys.length - 1]!] = value;
}

/** Removes the value at a dotted path (and objects it leaves empty). */
export function deleteAt(root: JsonObject, path: string): void {
  const keys = path.split('.');
  const chain: JsonObject[] = [root];
  for (const key of keys.slice(0, -1)) {
    const next = chain[chain.length - 1]![key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return;
    chain.push(next as JsonObject);
  }
  delete chain[chain.length - 1]![keys[keys.length - 1]!];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i]!).length > 0) break;
    delete chain[i - 1]![keys[i - 1]!];
  }
}

/** The pref's value as Chromium sees it: the file's, else the default. */
export function effectivePref(prefs: JsonObject, path: PrefPath): Json {
  const v = getAt(prefs, path);
  return v === undefined ? (PREFS[path].default as Json) : v;
}

export const samePref = (a: Json, b: Json) => jsonEqual(a, b);

export function parsePreferences(bytes: Uint8Array | undefined): JsonObject {
  if (bytes === undefined) return {};
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Json;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('Preferences is not a JSON object');
  return value;
}

export function renderPreferences(prefs: JsonObject): Uint8Array {
  return new Uint8Array(Buffer.from(JSON.stringify(prefs), 'utf8'));
}
