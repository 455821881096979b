import type { NamedPath, ProfilePolicy } from '../types.ts';
import { PREFS, VLC_CONFIG_DIR, VLCRC_PATH } from './vlcrc.ts';

/** VLC's user data folder: lua/ scripts there run on start (extensions, interfaces, playlist parsers). */
const VLC_DATA_DIR = '.local/share/vlc';

/** A folder VLC writes into: empty (VLC's default) or a visible folder under the VM user's home. */
function folderProblem(value: string): string | null {
  if (value === '') return null;
  const rest = value.startsWith('/home/user/')
    ? value.slice('/home/user/'.length).replace(/\/+$/, '')
    : undefined;
  if (rest === undefined || rest === '') return 'a folder outside /home/user (VLC writes its files there)';
  return rest.split('/').some((seg) => seg === '' || seg === '..' || seg.startsWith('.'))
    ? 'a folder that is hidden or climbs out of /home/user'
    : null;
}

/** Values VLC turns into names of files it writes are held to what its dialogs offer. */
const VALUE_RULES: Record<string, (value: string) => string | null> = {
  'snapshot-path': folderProblem,
  'input-record-path': folderProblem,
  'snapshot-format': (v) =>
    ['png', 'jpg', 'tiff'].includes(v) ? null : 'a format other than png, jpg or tiff',
  'snapshot-prefix': (v) =>
    /^[A-Za-z0-9 _-]{0,40}$/.test(v)
      ? null
      : 'a prefix with characters other than letters, digits, spaces, "_" and "-"',
};

/**
 * Why a vlcrc's text is not one our builder could write, or null: only comments, section headers
 * and `name=value` lines of the options this preparer knows (none of them names a module, an
 * interface, a script or a program: `extraintf`, `control`, `intf`, `lua-*`, `vout`… are refused).
 */
export function vlcrcProblem(text: string): string | null {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    if (/^\[[a-z0-9_-]+\]( # [^\r]*)?$/.test(line)) continue;
    const eq = line.indexOf('=');
    if (eq < 0)
      return `vlcrc has a line that is neither an option, a comment nor a section: ${JSON.stringify(line.slice(0, 60))}`;
    const name = line.slice(0, eq);
    if (!(name in PREFS))
      return `vlcrc sets ${JSON.stringify(name.slice(0, 60))}, which is not one of the preferences a task may set (${Object.keys(PREFS).length} allowed: interface, playback, folders, hotkeys)`;
    const valueProblem = VALUE_RULES[name]?.(line.slice(eq + 1));
    if (valueProblem) return `vlcrc gives ${name} ${valueProblem}`;
    // A control character (a tab separates hotkeys) is in no value VLC's dialog writes.
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(line.slice(eq + 1).replace(/\t/g, '')))
      return `vlcrc gives ${name} a value with a control character`;
  }
  return null;
}

export const vlcProfilePolicy: ProfilePolicy = {
  name: 'VLC',
  roots: [VLC_CONFIG_DIR, VLC_DATA_DIR],
  allow(path, entry) {
    if (entry.type === 'symlink') return 'a symlink in VLC configuration could point it anywhere';
    if (path === VLC_DATA_DIR || path.startsWith(`${VLC_DATA_DIR}/`))
      return 'nothing may be written in VLC data (its lua/ folder holds scripts VLC runs)';
    if (path === VLC_CONFIG_DIR) return entry.type === 'dir' ? null : `${VLC_CONFIG_DIR} must be a directory`;
    if (path !== VLCRC_PATH)
      return `only ${VLCRC_PATH} may be written here (not ${path.slice(VLC_CONFIG_DIR.length + 1)})`;
    if (entry.type !== 'file') return 'vlcrc must be a regular file';
    return entry.bytes === undefined ? null : vlcrcProblem(Buffer.from(entry.bytes).toString('utf8'));
  },
};

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The files a VLC doc names: the vlcrc (unless config is off), media and playlists. */
export function vlcNamedPaths(_target: string, doc: unknown): NamedPath[] {
  const d = record(doc);
  const out: NamedPath[] = [];
  if (d.config !== false) out.push({ where: 'doc.prefs', path: VLCRC_PATH, entry: { type: 'file' } });
  for (const key of ['media', 'playlists'] as const) {
    const list = d[key];
    // A list computed by a template names its paths only at run time: reported as the template.
    if (typeof list === 'string') out.push({ where: `doc.${key}`, path: list, entry: { type: 'file' } });
    if (Array.isArray(list))
      list.forEach((raw, i) => {
        const p = record(raw).path;
        if (typeof p === 'string')
          out.push({ where: `doc.${key}[${i}].path`, path: p, entry: { type: 'file' } });
      });
  }
  return out;
}
