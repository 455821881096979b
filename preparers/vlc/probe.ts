import { createHash } from 'node:crypto';
import type { FileMap, ProbeResult } from '../types.ts';
import { probeVlcUnchanged } from './invariants.ts';
import { containerOf, firstFrameColour, nearestColour, pngSize, probeMedia } from './media.ts';
import { parsePlaylist } from './playlist.ts';
import type { VlcCheck } from './schema.ts';
import {
  effectiveValue,
  hotkeyBindings,
  normaliseHotkey,
  PREFS,
  prefText,
  readValue,
  sameValue,
} from './vlcrc.ts';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** ffprobe's container name for each of ours (m4a and mov files are read as the mp4 family). */
export const FORMAT_NAMES: Record<string, string> = {
  mp4: 'mp4',
  m4v: 'mp4',
  m4a: 'mp4',
  mov: 'mov',
  mkv: 'matroska',
  webm: 'webm',
  avi: 'avi',
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg',
  flac: 'flac',
};

/** A folder path compared without its trailing slashes ("/" stays "/"). */
const folder = (v: string) => v.replace(/(?<=.)\/+$/, '');

export async function probeVlc(files: FileMap, check: VlcCheck): Promise<ProbeResult> {
  switch (check.kind) {
    case 'vlc.unchanged':
      return probeVlcUnchanged(files, check);
    case 'vlc.pref': {
      const info = PREFS[check.key]!;
      const data = files[check.file];
      const got = effectiveValue(data === undefined ? undefined : text(data), check.key);
      const want = readValue(info, prefText(check.key, check.value));
      if (want === undefined)
        return { pass: false, observed: { value: got, error: 'the expected value is not one VLC accepts' } };
      const pass =
        check.path && info.type === 'string'
          ? folder(String(got)) === folder(String(want))
          : sameValue(info, got, want);
      return { pass, observed: { value: got, file: data !== undefined } };
    }
    case 'vlc.hotkey': {
      const data = files[check.file];
      const key = `${check.global ? 'global-' : ''}key-${check.action}`;
      const got = String(effectiveValue(data === undefined ? undefined : text(data), key));
      return { pass: hotkeyBindings(got).includes(normaliseHotkey(check.key)), observed: { value: got } };
    }
    case 'vlc.playlist': {
      const data = files[check.file];
      if (data === undefined) return { pass: false, observed: { file: false } };
      let parsed: ReturnType<typeof parsePlaylist>;
      try {
        parsed = parsePlaylist(check.file, text(data));
      } catch (err) {
        return { pass: false, observed: { error: (err as Error).message } };
      }
      const pass =
        (check.format === undefined || parsed.format === check.format) &&
        parsed.items.length === check.items.length &&
        parsed.items.every((item, i) => item === check.items[i]);
      return { pass, observed: { format: parsed.format, items: parsed.items.slice(0, 60) } };
    }
    case 'vlc.media': {
      const data = files[check.file];
      if (data === undefined) return { pass: false, observed: { file: false } };
      const info = await probeMedia(data, check.file);
      const video = info.streams.filter((s) => s.type === 'video');
      const audio = info.streams.filter((s) => s.type === 'audio');
      const problems: string[] = [];
      if (check.container !== undefined && !info.formats.includes(FORMAT_NAMES[check.container]!))
        problems.push('container');
      if (
        check.duration !== undefined &&
        (info.duration === null || Math.abs(info.duration - check.duration) > check.tolerance)
      )
        problems.push('duration');
      if (check.videoStreams !== undefined && video.length !== check.videoStreams)
        problems.push('videoStreams');
      if (check.audioStreams !== undefined && audio.length !== check.audioStreams)
        problems.push('audioStreams');
      if (check.videoCodec !== undefined && video[0]?.codec !== check.videoCodec) problems.push('videoCodec');
      if (check.audioCodec !== undefined && audio[0]?.codec !== check.audioCodec) problems.push('audioCodec');
      if (check.width !== undefined && video[0]?.width !== check.width) problems.push('width');
      if (check.height !== undefined && video[0]?.height !== check.height) problems.push('height');
      let colour: string | undefined;
      if (check.startColour !== undefined) {
        colour = video.length === 0 ? 'none' : nearestColour(await firstFrameColour(data, check.file));
        if (colour !== check.startColour) problems.push('startColour');
      }
      return {
        pass: problems.length === 0,
        observed: {
          formats: info.formats,
          duration: info.duration === null ? null : Math.round(info.duration * 1000) / 1000,
          streams: info.streams,
          ...(colour !== undefined ? { startColour: colour } : {}),
          ...(problems.length > 0 ? { wrong: problems } : {}),
        },
      };
    }
    case 'vlc.image': {
      const data = files[check.file];
      if (data === undefined) return { pass: false, observed: { file: false } };
      const size = pngSize(data);
      if (size === undefined) return { pass: false, observed: { png: false } };
      let pass = size.width === check.width && size.height === check.height;
      let colour: string | undefined;
      if (pass && check.colour !== undefined) {
        colour = nearestColour(await firstFrameColour(data, check.file));
        pass = colour === check.colour;
      }
      return { pass, observed: { ...size, ...(colour !== undefined ? { colour } : {}) } };
    }
    case 'vlc.file': {
      const data = files[check.file];
      if (data === undefined) return { pass: false, observed: { file: false } };
      const sha = createHash('sha256').update(data).digest('hex');
      return {
        pass: sha === check.sha256,
        observed: { sha256: sha, container: containerOf(check.file) ?? null },
      };
    }
    case 'vlc.absent': {
      const exists = check.file in files || Object.keys(files).some((p) => p.startsWith(`${check.file}/`));
      return { pass: !exists, observed: { exists } };
    }
  }
}
