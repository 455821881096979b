import type { Preparer } from '../types.ts';
import { applyVlc } from './apply.ts';
import { buildVlc } from './build.ts';
import { vlcInvariants } from './invariants.ts';
import { containerOf, PLAYLIST_EXTENSIONS } from './media.ts';
import { vlcMutants } from './mutants.ts';
import { vlcOsworld } from './osworld.ts';
import { probeVlc } from './probe.ts';
import { vlcNamedPaths, vlcProfilePolicy } from './profilePolicy.ts';
import { checkSchema, docSchema, editSchema, type VlcCheck, type VlcDoc, type VlcEdit } from './schema.ts';
import { VLC_CONFIG_DIR } from './vlcrc.ts';

export { checkSchema, docSchema, editSchema, type VlcCheck, type VlcDoc, type VlcEdit };

const isPlaylist = (path: string) =>
  (PLAYLIST_EXTENSIONS as readonly string[]).includes(path.slice(path.lastIndexOf('.') + 1).toLowerCase());

/** VLC: its preferences (vlcrc), media made and converted with ffmpeg, XSPF and M3U playlists. */
export const vlcPreparer: Preparer<VlcDoc, VlcEdit, VlcCheck> = {
  app: 'vlc',
  docSchema,
  editSchema,
  checkSchema,
  build: buildVlc,
  apply: applyVlc,
  probe: probeVlc,
  async invariants(initial, solved, files) {
    return vlcInvariants(initial, solved, files);
  },
  bulk(edits) {
    // The select-all of a file manager: every file of the folder deleted, not the named one.
    if (!edits.some((e) => e.op === 'vlc.delete' && e.file.includes('/'))) return undefined;
    return edits.map((e) =>
      e.op === 'vlc.delete' && e.file.includes('/')
        ? { op: 'vlc.delete' as const, file: e.file.slice(0, e.file.lastIndexOf('/')) }
        : e,
    );
  },
  mutants: vlcMutants,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: vlcOsworld,
  staging: {
    osworldDomain: 'vlc',
    launch: [['vlc']],
    launchers: [['vlc']],
  },
  namedPaths: vlcNamedPaths,
  profilePolicy: vlcProfilePolicy,
  owns: (path) =>
    path.startsWith(`${VLC_CONFIG_DIR}/`) || containerOf(path) !== undefined || isPlaylist(path),
  instruction: {
    // Naming a media file or playlist points at what VLC holds as surely as naming VLC.
    mentions: {
      pattern:
        /vlc|media player|player|video|playlist|clip|song|audio|music|recording|\.(mp4|m4v|mov|mkv|webm|avi|mp3|wav|ogg|flac|m4a|xspf|m3u8?)\b/,
      name: 'VLC',
    },
    literalFields: { 'vlc.hotkey': ['key'], 'vlc.playlist': ['items'] },
  },
};
