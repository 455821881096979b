/**
 * VLC 3's preferences file, `~/.config/vlc/vlcrc`, read the way VLC reads it (src/config/file.c):
 * section headers, comments and empty lines are skipped, every other line is `name=value` with the
 * name up to the first "=" (no trimming); later lines win; an integer or boolean value that is not
 * a whole C integer (base 0, nothing after it) or is out of the option's range is ignored; a float
 * is read as far as it parses; a string is the rest of the line verbatim. VLC rewrites the whole
 * file when it saves, writing options at their default as comments (`#name=default`).
 */

export type PrefType = 'bool' | 'int' | 'float' | 'string';

export interface PrefInfo {
  section: string;
  type: PrefType;
  default: string;
  min?: number;
  max?: number;
}

const core = (type: PrefType, def: string, extra: Partial<PrefInfo> = {}): PrefInfo => ({
  section: 'core',
  type,
  default: def,
  ...extra,
});
const qt = (type: PrefType, def: string, extra: Partial<PrefInfo> = {}): PrefInfo => ({
  section: 'qt',
  type,
  default: def,
  ...extra,
});

/** Hotkey actions whose key (and global key) a task may set; defaults as VLC 3.0 ships them. */
const HOTKEYS: Record<string, string> = {
  'play-pause': 'Space\tMedia Play Pause',
  'toggle-fullscreen': 'f',
  snapshot: 'Shift+s',
  stop: 's\tMedia Stop',
  next: 'n\tMedia Next Track',
  prev: 'p\tMedia Prev Track',
  'vol-up': 'Ctrl+Up\tVolume Up',
  'vol-down': 'Ctrl+Down\tVolume Down',
  'vol-mute': 'm\tVolume Mute',
};

/**
 * The options a task may read or a spec may set: the allowlist of the profile policy too. None of
 * them names a module, an interface, a script or a program to load.
 */
export const PREFS: Record<string, PrefInfo> = {
  'qt-privacy-ask': qt('bool', '1'),
  'qt-max-volume': qt('int', '125', { min: 60, max: 300 }),
  'qt-minimal-view': qt('bool', '0'),
  'qt-bgcone': qt('bool', '1'),
  'qt-system-tray': qt('bool', '1'),
  'qt-notification': qt('int', '1', { min: 0, max: 2 }),
  'qt-recentplay': qt('bool', '1'),
  'qt-continue': qt('int', '1', { min: 0, max: 2 }),
  'qt-fs-controller': qt('bool', '1'),
  'qt-video-autoresize': qt('bool', '1'),
  'qt-name-in-title': qt('bool', '1'),
  'qt-pause-minimized': qt('bool', '0'),
  'one-instance': core('bool', '0'),
  'one-instance-when-started-from-file': core('bool', '1'),
  'playlist-enqueue': core('bool', '0'),
  loop: core('bool', '0'),
  repeat: core('bool', '0'),
  random: core('bool', '0'),
  'play-and-exit': core('bool', '0'),
  'start-paused': core('bool', '0'),
  'playlist-autostart': core('bool', '1'),
  fullscreen: core('bool', '0'),
  'video-on-top': core('bool', '0'),
  'video-title-show': core('bool', '1'),
  'snapshot-path': core('string', ''),
  'snapshot-prefix': core('string', 'vlcsnap-'),
  'snapshot-format': core('string', 'png'),
  'snapshot-sequential': core('bool', '0'),
  'input-record-path': core('string', ''),
  'audio-language': core('string', ''),
  'sub-language': core('string', ''),
  'sub-autodetect-file': core('bool', '1'),
  'volume-save': core('bool', '1'),
  'volume-step': core('float', '12.800000'),
  ...Object.fromEntries(
    Object.entries(HOTKEYS).flatMap(([action, def]) => [
      [`key-${action}`, core('string', def)],
      [`global-key-${action}`, core('string', '')],
    ]),
  ),
};

export const VLCRC_PATH = '.config/vlc/vlcrc';
export const VLC_CONFIG_DIR = '.config/vlc';

/** What VLC would hold for an option: a number for booleans, integers and floats, else the string. */
export type PrefValue = number | string;

const INT = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/;

/** An integer option's value as vlc_strtoi reads it, or undefined when VLC would ignore the line. */
export function parseVlcInt(text: string, info?: PrefInfo): number | undefined {
  const m = INT.exec(text);
  if (!m) return undefined;
  const digits = m[2]!;
  const n = /^0[xX]/.test(digits)
    ? Number.parseInt(digits.slice(2), 16)
    : digits.length > 1 && digits.startsWith('0')
      ? Number.parseInt(digits, 8)
      : Number.parseInt(digits, 10);
  const value = m[1] === '-' ? -n : n;
  if (info?.min !== undefined && value < info.min) return undefined;
  if (info?.max !== undefined && value > info.max) return undefined;
  return value;
}

const FLOAT = /^[ \t\n\v\f\r]*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)/;

/** A float option as atof reads it: the longest prefix that parses, 0 when none does. */
export function parseVlcFloat(text: string): number {
  const m = FLOAT.exec(text);
  return m ? Number.parseFloat(m[0]) : 0;
}

/** The value an option line sets, or undefined when VLC ignores it. */
export function readValue(info: PrefInfo, text: string): PrefValue | undefined {
  if (info.type === 'string') return text;
  if (info.type === 'float') return parseVlcFloat(text);
  return parseVlcInt(text, info);
}

/** The option lines of a vlcrc, in order: `[name, value]` as VLC splits them. */
export function optionLines(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    out.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return out;
}

/** The value VLC would hold for a known option after reading the file (its default when unset). */
export function effectiveValue(text: string | undefined, key: string): PrefValue {
  const info = PREFS[key];
  if (info === undefined) throw new Error(`${key} is not a VLC option this preparer knows`);
  let value = readValue(info, info.default)!;
  for (const [name, raw] of optionLines(text ?? '')) {
    if (name !== key) continue;
    const v = readValue(info, raw);
    if (v !== undefined) value = v;
  }
  return value;
}

/** Every option line's name (active, not comments): what the file sets. */
export function activeNames(text: string): string[] {
  return [...new Set(optionLines(text).map(([name]) => name))];
}

/** A spec's value as the text VLC writes: booleans as 1/0, numbers in plain notation. */
export function prefText(key: string, value: string | number | boolean): string {
  const info = PREFS[key];
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (info?.type === 'float' && typeof value === 'number') return value.toFixed(6);
  return String(value);
}

/** Two option values equal as VLC holds them (floats as C floats). */
export function sameValue(info: PrefInfo, a: PrefValue, b: PrefValue): boolean {
  if (info.type === 'float') return Math.fround(Number(a)) === Math.fround(Number(b));
  return a === b;
}

const BOM = '\uFEFF';
const HEADER = `${BOM}###\n###  vlc 3.0.24\n###\n\n###\n### lines beginning with a '#' character are comments\n###\n\n`;
const SECTION_TITLES: Record<string, string> = { qt: 'Qt interface', core: 'core program' };

/**
 * A vlcrc as VLC lays one out (its header, `[qt]` then `[core]`), holding the given options as
 * active lines; VLC reads it as it is and rewrites it whole when it next saves its preferences.
 */
export function writeVlcrc(prefs: Record<string, string>): string {
  const bySection = new Map<string, string[]>([
    ['qt', []],
    ['core', []],
  ]);
  for (const [key, value] of Object.entries(prefs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const info = PREFS[key];
    if (info === undefined) throw new Error(`${key} is not a VLC option this preparer writes`);
    if (/[\r\n]/.test(value)) throw new Error(`${key}: a value may not hold a line break`);
    bySection.get(info.section)!.push(`${key}=${value}`);
  }
  let out = HEADER;
  for (const [section, lines] of bySection)
    out += `[${section}] # ${SECTION_TITLES[section]}\n\n${lines.map((l) => `${l}\n`).join('')}\n`;
  return out;
}

/**
 * The file with one option set as VLC's preferences dialog saves it: its active line (or its
 * commented default) replaced in place, else a line added at the end of its section (or the file).
 */
export function setPref(text: string, key: string, value: string | undefined): string {
  const info = PREFS[key];
  if (info === undefined) throw new Error(`${key} is not a VLC option this preparer knows`);
  if (value !== undefined && /[\r\n]/.test(value))
    throw new Error(`${key}: a value may not hold a line break`);
  const line = value === undefined ? `#${key}=${info.default}` : `${key}=${value}`;
  const lines = text.split('\n');
  const active = lines.flatMap((l, i) => (l.startsWith(`${key}=`) ? [i] : []));
  const commented = lines.findIndex((l) => l.startsWith(`#${key}=`));
  if (active.length > 0) {
    lines[active.at(-1)!] = line;
    // Earlier duplicates are dropped, as VLC's own rewrite would.
    return lines.filter((_, i) => !active.slice(0, -1).includes(i)).join('\n');
  }
  if (value === undefined) return text;
  if (commented >= 0) {
    lines[commented] = line;
    return lines.join('\n');
  }
  const header = lines.findIndex((l) => l.startsWith(`[${info.section}]`));
  if (header >= 0) {
    let at = header + 1;
    while (at < lines.length && !lines[at]!.startsWith('[')) at++;
    while (at > header + 1 && lines[at - 1] === '') at--;
    lines.splice(at, 0, line);
    return lines.join('\n');
  }
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${body}[${info.section}] # ${SECTION_TITLES[info.section] ?? info.section}\n${line}\n`;
}

/** Splits a hotkey list (tab-separated) into bindings normalised for comparison. */
export function hotkeyBindings(value: string): string[] {
  return value
    .split('\t')
    .filter((b) => b !== '')
    .map(normaliseHotkey);
}

/** "ctrl+ALT+P" → "alt+ctrl+p": modifiers as a sorted set, the key in lower case. */
export function normaliseHotkey(binding: string): string {
  const parts = binding.split('+');
  // "Ctrl++" binds the plus key: an empty last part after a "+".
  let key = parts.pop()!;
  if (key === '' && parts.length > 0 && parts.at(-1) === '') {
    parts.pop();
    key = '+';
  }
  const mods = parts.map((m) => m.toLowerCase()).sort();
  return [...mods, key.toLowerCase()].join('+');
}
