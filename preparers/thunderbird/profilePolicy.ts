import type { NamedPath, ProfileEntry, ProfilePolicy } from '../types.ts';
import { QUIET_PREFS } from './accountPrefs.ts';
import { ADDRESS_BOOK_FILE } from './addressBook.ts';
import { ACTION_NAMES } from './filters.ts';
import { LOCAL_FOLDERS_DIR } from './folders.ts';
import { parsePrefs } from './prefs.ts';
import { THUNDERBIRD_DIR } from './profileIni.ts';
import { specPrefAllowed } from './specPrefs.ts';
import { VIRTUAL_FOLDERS_FILE } from './virtualFolders.ts';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Prefs the profile builder writes itself (accountPrefs.ts): the quiet start, the two offline
 * accounts, their servers and identities. A spec sets only specPrefs.ts's display prefs; these
 * come from the builder and are accepted in a built prefs.js by name.
 */
const OWNED = [
  /^mail\.accountmanager\.(accounts|defaultaccount|localfoldersserver)$/,
  /^mail\.account\.account\d+\.(server|identities)$/,
  /^mail\.server\.server\d+\.(type|hostname|port|socketType|authMethod|userName|name|login_at_startup|check_new_mail|download_on_biff|deferred_to_account|directory-rel)$/,
  /^mail\.smtpservers$/,
  /^mail\.smtp\.defaultserver$/,
  /^mail\.smtpserver\.smtp\d+\.(hostname|port|authMethod|try_ssl|username)$/,
  /^mail\.identity\.id\d+\.(fullName|useremail|valid|smtpServer|fcc|fcc_folder|fcc_folder_picker_mode|draft_folder|drafts_folder_picker_mode|stationery_folder|tmpl_folder_picker_mode|archive_folder|reply_on_top|sig_on_reply|sig_on_fwd|htmlSigText|htmlSigFormat|attach_signature|organization|reply_to)$/,
];

const prefAllowed = (name: string) =>
  specPrefAllowed(name) || name in QUIET_PREFS || OWNED.some((re) => re.test(name));

const PREF_LINE = /^\s*user_pref\(/;

function prefsProblem(text: string): string | null {
  for (const line of text.split('\n')) {
    const t = line.trim();
    // Only comments and user_pref lines: pref(), lockPref() and anything else are not ours.
    if (t === '' || t.startsWith('//') || t.startsWith('#')) continue;
    if (!PREF_LINE.test(t) || parsePrefs(t).size !== 1)
      return `prefs.js may hold only user_pref("name", value); lines, not ${JSON.stringify(t.slice(0, 60))}`;
  }
  for (const [name, value] of parsePrefs(text)) {
    if (!prefAllowed(name))
      return `prefs.js sets ${name}, which is neither a display, sort or compose pref nor one the profile builder writes`;
    if (
      name.endsWith('.directory-rel') &&
      (!String(value).startsWith('[ProfD]') || String(value).includes('..'))
    )
      return `prefs.js points ${name} outside the profile`;
  }
  return null;
}

const FILTER_KEYS = new Set([
  'version',
  'logging',
  'name',
  'enabled',
  'type',
  'action',
  'actionValue',
  'condition',
]);
const ACTIONS = new Set(Object.values(ACTION_NAMES));

function filtersProblem(text: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const m = /^(\w+)="((?:[^"\\]|\\.)*)"$/.exec(line);
    if (!m || !FILTER_KEYS.has(m[1]!))
      return `msgFilterRules.dat has a line that is not a filter field: ${JSON.stringify(line.slice(0, 60))}`;
    const value = m[2]!.replace(/\\(.)/g, '$1');
    if (m[1] === 'action' && !ACTIONS.has(value))
      return `msgFilterRules.dat has the action ${JSON.stringify(value)} (allowed: ${[...ACTIONS].join(', ')})`;
  }
  return null;
}

function iniProblem(text: string): string | null {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || /^\[[A-Za-z0-9]+\]$/.test(line)) continue;
    const m = /^(\w+)=(.*)$/.exec(line);
    if (!m) return `a line that is not key=value: ${JSON.stringify(line.slice(0, 60))}`;
    const [, key, value] = m;
    // A profile elsewhere (IsRelative=0, a path) would be read with none of the checks below.
    if (key === 'IsRelative' && value !== '1')
      return 'IsRelative must be 1 (profiles live under .thunderbird/)';
    if ((key === 'Path' || key === 'Default') && !PROFILE_NAME.test(value) && value !== '1' && value !== '0')
      return `${key}=${value} is not a profile name under .thunderbird/`;
  }
  return null;
}

/** Why a subtree or file of a profile is code or leaves the profile; first match names the rule. */
const CODE: [RegExp, string][] = [
  [/^user\.js$/, 'user.js overrides prefs on every start and is not one the builder writes'],
  [/^(extensions|extensions\.json|distribution|browser-extension-data)(\/|$)/, 'extensions run code'],
  [/^chrome(\/|$)/, 'chrome/ holds userChrome and userContent overrides'],
  [/^handlers\.json$/, 'handlers.json names programs that open attachments and links'],
  [/^mimeTypes\.rdf$/, 'mimeTypes.rdf names programs that open attachments'],
];

function insideProfile(inner: string, entry: ProfileEntry): string | null {
  for (const [re, why] of CODE) if (re.test(inner)) return why;
  const bytes = entry.type === 'file' ? entry.bytes : undefined;
  const text = () => Buffer.from(bytes!).toString('utf8');
  const file = (check: () => string | null) =>
    entry.type !== 'file' ? `${inner} must be a regular file` : bytes === undefined ? null : check();
  if (inner === 'prefs.js') return file(() => prefsProblem(text()));
  if (inner === ADDRESS_BOOK_FILE)
    return file(() =>
      Buffer.from(bytes!.subarray(0, 16)).toString('latin1') === 'SQLite format 3\u0000'
        ? null
        : `${inner} is not an SQLite database`,
    );
  if (inner === VIRTUAL_FOLDERS_FILE) return file(() => null);
  if (inner === 'Mail' || inner === LOCAL_FOLDERS_DIR)
    return entry.type === 'dir' ? null : `${inner} must be a directory`;
  if (inner.startsWith(`${LOCAL_FOLDERS_DIR}/`)) {
    const name = inner.slice(LOCAL_FOLDERS_DIR.length + 1);
    if (name === 'msgFilterRules.dat') return file(() => filtersProblem(text()));
    // Folders: mbox files, and `<name>.sbd` directories for their subfolders; mail is data.
    if (entry.type === 'symlink') return 'a mail folder may not be a symlink';
    return null;
  }
  return `${inner} is not a file the profile builder writes (prefs.js, ${ADDRESS_BOOK_FILE}, ${VIRTUAL_FOLDERS_FILE}, ${LOCAL_FOLDERS_DIR}/…)`;
}

/**
 * Thunderbird's profiles: the files our builder writes (prefs.js with allowed prefs only, mbox
 * folders, filters with allowed actions, the address book, profiles.ini naming profiles here).
 */
export const thunderbirdProfilePolicy: ProfilePolicy = {
  name: 'Thunderbird',
  roots: [THUNDERBIRD_DIR],
  allow(path, entry) {
    if (entry.type === 'symlink') return 'a symlink in the profile could point it anywhere';
    const [, top, ...rest] = path.split('/');
    if (top === undefined) return entry.type === 'dir' ? null : `${THUNDERBIRD_DIR} must be a directory`;
    if (rest.length === 0 && (top === 'profiles.ini' || top === 'installs.ini')) {
      if (entry.type !== 'file') return `${top} must be a regular file`;
      const problem =
        entry.bytes === undefined ? null : iniProblem(Buffer.from(entry.bytes).toString('utf8'));
      return problem && `${top}: ${problem}`;
    }
    if (!PROFILE_NAME.test(top) || top.endsWith('.ini')) return `${top} is not a profile directory name`;
    if (rest.length === 0) return entry.type === 'dir' ? null : `${top} must be a profile directory`;
    return insideProfile(rest.join('/'), entry);
  },
};

/** A Thunderbird prepare node builds the profile directory `.thunderbird/<target>`. */
export function thunderbirdNamedPaths(target: string): NamedPath[] {
  return [{ where: 'target', path: `${THUNDERBIRD_DIR}/${target}`, entry: { type: 'dir' } }];
}
