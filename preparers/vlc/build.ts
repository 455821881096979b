import type { FileMap } from '../types.ts';
import { containerOf, makeMedia } from './media.ts';
import { writeM3u, writeXspf } from './playlist.ts';
import type { VlcDoc } from './schema.ts';
import { prefText, VLCRC_PATH, writeVlcrc } from './vlcrc.ts';

/**
 * Options the builder sets in every vlcrc it writes: no first-run privacy dialog in front of the
 * task (VLC asks about network access once, then stores the answer here).
 */
export const BUILDER_PREFS: Record<string, string> = { 'qt-privacy-ask': '0' };

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** A playlist's text by its extension. */
export function playlistText(file: string, items: string[], title?: string, relative = false): string {
  const base = relative ? file.slice(0, file.lastIndexOf('/') + 1) : undefined;
  return /\.xspf$/i.test(file) ? writeXspf(items, title, base) : writeM3u(items, base);
}

/** The vlcrc, the media (ffmpeg, deterministic) and the playlists of the initial state. */
export async function buildVlc(_target: string, doc: VlcDoc): Promise<FileMap> {
  const files: FileMap = {};
  const put = (path: string, data: Uint8Array) => {
    if (path in files) throw new Error(`${path} is written twice`);
    files[path] = data;
  };
  if (doc.config) {
    const prefs = { ...BUILDER_PREFS };
    for (const [key, value] of Object.entries(doc.prefs)) prefs[key] = prefText(key, value);
    put(VLCRC_PATH, bytes(writeVlcrc(prefs)));
  } else if (Object.keys(doc.prefs).length > 0) throw new Error('prefs given with config: false');
  const made = await Promise.all(
    doc.media.map((m) =>
      makeMedia(containerOf(m.path)!, { seconds: m.seconds, video: m.picture, audio: m.sound }),
    ),
  );
  for (const [i, m] of doc.media.entries()) put(m.path, made[i]!);
  for (const p of doc.playlists) put(p.path, bytes(playlistText(p.path, p.items, p.title)));
  return files;
}
