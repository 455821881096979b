import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { VM_HOME } from '../osworld.ts';

/**
 * Playlists: XSPF as VLC saves one (file:// URIs of absolute paths, percent-encoded) and M3U (one
 * path or URI a line, `#` lines are directives). Reading resolves every entry to a home-relative
 * path the way VLC would open it: a file:// URI or absolute path under the home, or a path relative
 * to the playlist's folder; anything else (a stream URL, a path outside home) stays as written.
 */

const HOME_PREFIX = `${VM_HOME}/`;

/** Percent-encodes a path for a file:// URI as VLC does (unreserved characters and "/" kept). */
function encodePath(p: string): string {
  return [...Buffer.from(p, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-._~/]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The path an entry is written with: absolute (as VLC saves), or relative to `base` (the playlist's
 * folder with its trailing "/") when the media lies below it, "../" steps otherwise.
 */
function entryPath(item: string, base: string | undefined): string {
  if (base === undefined) return HOME_PREFIX + item;
  const from = base.split('/').filter(Boolean);
  const to = item.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

export function writeXspf(items: string[], title = 'Playlist', base?: string): string {
  const tracks = items
    .map(
      (item, i) =>
        `\t\t<track>\n\t\t\t<location>${base === undefined ? 'file://' : ''}${escapeXml(encodePath(entryPath(item, base)))}</location>\n` +
        `\t\t\t<extension application="http://www.videolan.org/vlc/playlist/0">\n\t\t\t\t<vlc:id>${i}</vlc:id>\n\t\t\t</extension>\n\t\t</track>\n`,
    )
    .join('');
  const tids = items.map((_, i) => `\t\t<vlc:item tid="${i}"/>\n`).join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<playlist xmlns="http://xspf.org/ns/0/" xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/" version="1">\n' +
    `\t<title>${escapeXml(title)}</title>\n\t<trackList>\n${tracks}\t</trackList>\n` +
    `\t<extension application="http://www.videolan.org/vlc/playlist/0">\n${tids}\t</extension>\n</playlist>\n`
  );
}

export function writeM3u(items: string[], base?: string): string {
  return `#EXTM3U\n${items.map((i) => `${entryPath(i, base)}\n`).join('')}`;
}

/** Joins `.`/`..` segments of a "/"-separated path; undefined when it climbs above its root. */
function normalise(segments: string[]): string[] | undefined {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(s);
  }
  return out;
}

function decodePercent(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The home-relative path an entry names, or the entry itself when it names no file under home. */
export function resolveEntry(playlist: string, entry: string, uri: boolean): string {
  let absolute: string | undefined;
  let relative: string | undefined;
  if (/^file:\/\//i.test(entry)) {
    const rest = entry.slice(7);
    // file:///path or file://localhost/path
    const p = rest.startsWith('/')
      ? rest
      : rest.toLowerCase().startsWith('localhost/')
        ? rest.slice(9)
        : undefined;
    absolute = p === undefined ? undefined : decodePercent(p);
  } else if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(entry)) {
    return entry;
  } else if (entry.startsWith('/')) {
    absolute = uri ? decodePercent(entry) : entry;
  } else {
    relative = uri ? decodePercent(entry) : entry;
  }
  if (absolute !== undefined) {
    const segs = normalise(absolute.split('/'));
    const home = VM_HOME.split('/').filter(Boolean);
    if (!segs || segs.length <= home.length || home.some((h, i) => segs[i] !== h)) return entry;
    return segs.slice(home.length).join('/');
  }
  if (relative === undefined) return entry;
  const dir = playlist.split('/').slice(0, -1);
  const segs = normalise([...dir, ...relative.split('/')]);
  return segs && segs.length > 0 ? segs.join('/') : entry;
}

export interface ParsedPlaylist {
  format: 'xspf' | 'm3u';
  items: string[];
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  isArray: (name) => name === 'track' || name === 'location',
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
});

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object' && '#text' in v) return text((v as { '#text': unknown })['#text']);
  return '';
}

/** A playlist's entries resolved (see resolveEntry); XSPF when the content is XML, else M3U. */
export function parsePlaylist(file: string, content: string): ParsedPlaylist {
  const body = content.replace(/^\uFEFF/, '');
  if (body.trimStart().startsWith('<')) {
    const valid = XMLValidator.validate(body);
    if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg}`);
    const doc = parser.parse(body) as Record<string, unknown>;
    const playlist = doc.playlist as Record<string, unknown> | undefined;
    if (!playlist || typeof playlist !== 'object') throw new Error('not an XSPF playlist (no <playlist>)');
    const list = playlist.trackList as Record<string, unknown> | undefined;
    const tracks = (list && typeof list === 'object' ? (list.track as unknown[]) : undefined) ?? [];
    const items = tracks.map((t) => {
      const locations =
        (t && typeof t === 'object' ? (t as { location?: unknown[] }).location : undefined) ?? [];
      return resolveEntry(file, text(locations[0]).trim(), true);
    });
    return { format: 'xspf', items };
  }
  const items: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    items.push(resolveEntry(file, line, false));
  }
  return { format: 'm3u', items };
}
