import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runProgram as run } from '../../infra/spawner.ts';

/**
 * Media files made and read by Debian's ffmpeg and ffprobe: test pictures and tones from lavfi
 * sources with fixed parameters and bit-exact flags, so the same spec gives the same bytes; the
 * oracle's conversions, trims and snapshots run the same tool a person would run.
 */
const FFMPEG = 'ffmpeg';
const FFPROBE = 'ffprobe';
const TIMEOUT_MS = 60_000;

/** Container extensions and the codecs a file of that kind is written with. */
export const CONTAINERS = {
  mp4: { video: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], audio: ['-c:a', 'aac'] },
  m4v: { video: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], audio: ['-c:a', 'aac'] },
  mov: { video: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], audio: ['-c:a', 'aac'] },
  mkv: { video: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], audio: ['-c:a', 'aac'] },
  webm: {
    video: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k'],
    audio: ['-c:a', 'libvorbis'],
  },
  avi: { video: ['-c:v', 'mpeg4', '-q:v', '5'], audio: ['-c:a', 'libmp3lame'] },
  mp3: { audio: ['-c:a', 'libmp3lame'] },
  wav: { audio: ['-c:a', 'pcm_s16le'] },
  ogg: { audio: ['-c:a', 'libvorbis'] },
  flac: { audio: ['-c:a', 'flac'] },
  m4a: { audio: ['-c:a', 'aac'] },
} as const satisfies Record<string, { video?: readonly string[]; audio: readonly string[] }>;
export type Container = keyof typeof CONTAINERS;
export const MEDIA_EXTENSIONS = Object.keys(CONTAINERS) as Container[];
export const PLAYLIST_EXTENSIONS = ['xspf', 'm3u', 'm3u8'] as const;

export function containerOf(file: string): Container | undefined {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  return ext in CONTAINERS ? (ext as Container) : undefined;
}

export const hasVideo = (c: Container) => 'video' in CONTAINERS[c];

/** Colours a test picture can show, by the name ffmpeg and people use; RGB for telling them apart. */
export const COLOURS: Record<string, [number, number, number]> = {
  red: [255, 0, 0],
  green: [0, 128, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  white: [255, 255, 255],
  black: [0, 0, 0],
  orange: [255, 165, 0],
  purple: [128, 0, 128],
  cyan: [0, 255, 255],
  magenta: [255, 0, 255],
  gray: [128, 128, 128],
};
export type Colour = keyof typeof COLOURS;

/** The palette colour nearest an average RGB (squared distance; the first of equals). */
export function nearestColour(rgb: [number, number, number]): string {
  let best = '';
  let bestD = Number.POSITIVE_INFINITY;
  for (const [name, c] of Object.entries(COLOURS)) {
    const d = (c[0] - rgb[0]) ** 2 + (c[1] - rgb[1]) ** 2 + (c[2] - rgb[2]) ** 2;
    if (d < bestD) {
      best = name;
      bestD = d;
    }
  }
  return best;
}

export interface MediaSpec {
  seconds: number;
  video?: {
    width: number;
    height: number;
    rate: number;
    look: 'testsrc' | 'smptebars' | 'colours';
    colours?: string[];
  };
  audio?: { frequency: number; sampleRate: number; channels: 1 | 2 };
}

const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'];
const STRIP = ['-map_metadata', '-1', '-map_chapters', '-1'];

/** The lavfi graph of a spec's picture: one source, or equal colour segments joined in order. */
function videoGraph(v: NonNullable<MediaSpec['video']>, seconds: number): string {
  const size = `s=${v.width}x${v.height}:r=${v.rate}`;
  if (v.look !== 'colours') return `${v.look}=${size}:d=${seconds}`;
  const colours = v.colours && v.colours.length > 0 ? v.colours : ['blue'];
  const each = seconds / colours.length;
  const parts = colours.map((c, i) => `color=c=${c}:${size}:d=${each},format=yuv420p[v${i}]`);
  const inputs = colours.map((_, i) => `[v${i}]`).join('');
  return `${parts.join(';')};${inputs}concat=n=${colours.length}:v=1:a=0[out0]`;
}

const memo = new Map<string, Promise<unknown>>();
const MEMO_LIMIT = 256;

/**
 * Runs ffmpeg or ffprobe once per distinct job: verification replays the same edits and probes the
 * same files many times (every check of every mutant, wrong and right solution).
 */
function memoised<T>(key: string, make: () => Promise<T>): Promise<T> {
  const hit = memo.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const made = make();
  memo.set(key, made);
  made.catch(() => memo.delete(key));
  if (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  return made;
}

async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'forge-vlc-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a failed run printed to stderr, or its error's message. */
function said(err: unknown): string {
  const e = err as { stderr?: Buffer | string; message: string };
  return String(e.stderr ?? '').trim() || e.message;
}

async function ffmpeg(args: string[]): Promise<void> {
  try {
    await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
      timeout: TIMEOUT_MS,
      maxBuffer: 8 << 20,
    });
  } catch (err) {
    throw new Error(`ffmpeg failed: ${said(err).slice(0, 400)}`);
  }
}

/** A media file of the given container made from the spec's test sources. */
export function makeMedia(container: Container, spec: MediaSpec): Promise<Uint8Array> {
  return memoised(JSON.stringify(['make', container, spec]), () =>
    withScratch(async (dir) => {
      const codecs = CONTAINERS[container];
      const args: string[] = [];
      const video = 'video' in codecs && spec.video;
      if (video) args.push('-f', 'lavfi', '-i', videoGraph(video, spec.seconds));
      if (spec.audio) {
        const a = spec.audio;
        const layout = a.channels === 2 ? ',pan=stereo|c0=c0|c1=c0' : '';
        args.push(
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=${a.frequency}:sample_rate=${a.sampleRate}:duration=${spec.seconds}${layout}`,
        );
      }
      if (args.length === 0)
        throw new Error(`a .${container} file needs ${'video' in codecs ? 'video or ' : ''}audio`);
      if (video) args.push(...codecs.video);
      if (spec.audio) args.push(...codecs.audio);
      const out = path.join(dir, `out.${container}`);
      await ffmpeg([...args, '-threads', '1', ...BITEXACT, ...STRIP, '-t', String(spec.seconds), out]);
      return new Uint8Array(await readFile(out));
    }),
  );
}

export interface TranscodeOptions {
  start?: number;
  end?: number;
  video: boolean;
  audio: boolean;
  width?: number;
  height?: number;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The source re-encoded into `container` (by its codecs), cut to [start, end), streams dropped or scaled as asked. */
export function transcode(
  source: Uint8Array,
  from: Container,
  to: Container,
  o: TranscodeOptions,
): Promise<Uint8Array> {
  return memoised(JSON.stringify(['transcode', sha(source), from, to, o]), () =>
    withScratch(async (dir) => {
      const input = path.join(dir, `in.${from}`);
      await writeFile(input, source);
      const codecs = CONTAINERS[to];
      const args: string[] = [];
      if (o.start !== undefined) args.push('-ss', String(o.start));
      if (o.end !== undefined) args.push('-to', String(o.end));
      args.push('-i', input);
      const video = o.video && 'video' in codecs;
      if (video) {
        args.push(...codecs.video);
        if (o.width !== undefined && o.height !== undefined) args.push('-vf', `scale=${o.width}:${o.height}`);
      } else args.push('-vn');
      if (o.audio) args.push(...codecs.audio);
      else args.push('-an');
      const out = path.join(dir, `out.${to}`);
      await ffmpeg([...args, '-threads', '1', ...BITEXACT, ...STRIP, out]);
      return new Uint8Array(await readFile(out));
    }),
  );
}

/** One frame at `at` seconds as a PNG, optionally scaled. */
export function snapshot(
  source: Uint8Array,
  from: Container,
  at: number,
  size?: { width: number; height: number },
): Promise<Uint8Array> {
  return memoised(JSON.stringify(['snapshot', sha(source), from, at, size]), () =>
    withScratch(async (dir) => {
      const input = path.join(dir, `in.${from}`);
      await writeFile(input, source);
      const out = path.join(dir, 'out.png');
      const scale = size ? ['-vf', `scale=${size.width}:${size.height}`] : [];
      await ffmpeg(['-ss', String(at), '-i', input, '-frames:v', '1', ...scale, ...BITEXACT, out]);
      return new Uint8Array(await readFile(out));
    }),
  );
}

export interface MediaInfo {
  formats: string[];
  duration: number | null;
  streams: { type: string; codec: string; width?: number; height?: number; channels?: number }[];
}

/** What ffprobe reads of a file: container names, duration, streams. Throws when it reads none. */
export function probeMedia(bytes: Uint8Array, name: string): Promise<MediaInfo> {
  const ext = name.slice(name.lastIndexOf('.') + 1).replace(/[^A-Za-z0-9]/g, '') || 'bin';
  return memoised(`probe:${ext}:${sha(bytes)}`, () => probeFresh(bytes, ext));
}

async function probeFresh(bytes: Uint8Array, ext: string): Promise<MediaInfo> {
  const json = await withScratch(async (dir) => {
    const file = path.join(dir, `media.${ext}`);
    await writeFile(file, bytes);
    try {
      const { stdout } = await run(
        FFPROBE,
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
        { timeout: TIMEOUT_MS, maxBuffer: 8 << 20 },
      );
      return JSON.parse(stdout.toString('utf8')) as {
        format?: { format_name?: string; duration?: string };
        streams?: {
          codec_type?: string;
          codec_name?: string;
          width?: number;
          height?: number;
          channels?: number;
        }[];
      };
    } catch (err) {
      throw new Error(`ffprobe cannot read it: ${said(err).slice(0, 200)}`);
    }
  });
  const duration = json.format?.duration === undefined ? null : Number.parseFloat(json.format.duration);
  return {
    formats: (json.format?.format_name ?? '').split(',').filter(Boolean),
    duration: duration === null || Number.isNaN(duration) ? null : duration,
    streams: (json.streams ?? []).map((s) => ({
      type: s.codec_type ?? '',
      codec: s.codec_name ?? '',
      ...(s.width !== undefined ? { width: s.width } : {}),
      ...(s.height !== undefined ? { height: s.height } : {}),
      ...(s.channels !== undefined ? { channels: s.channels } : {}),
    })),
  };
}

/** The average colour of the first video frame (or the image), through a 1×1 area scale. */
export function firstFrameColour(bytes: Uint8Array, name: string): Promise<[number, number, number]> {
  const ext = name.slice(name.lastIndexOf('.') + 1).replace(/[^A-Za-z0-9]/g, '') || 'bin';
  return memoised(`colour:${ext}:${sha(bytes)}`, () => colourFresh(bytes, ext));
}

function colourFresh(bytes: Uint8Array, ext: string): Promise<[number, number, number]> {
  return withScratch(async (dir) => {
    const file = path.join(dir, `media.${ext}`);
    await writeFile(file, bytes);
    try {
      const { stdout } = await run(
        FFMPEG,
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostdin',
          '-i',
          file,
          '-frames:v',
          '1',
          '-vf',
          'scale=1:1:flags=area',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          '-',
        ],
        { timeout: TIMEOUT_MS, maxBuffer: 1 << 20 },
      );
      const b = stdout;
      if (b.length < 3) throw new Error('no video frame');
      return [b[0]!, b[1]!, b[2]!];
    } catch (err) {
      throw new Error(`ffmpeg cannot read a frame: ${said(err).slice(0, 200)}`);
    }
  });
}

/** Width and height of a PNG from its IHDR chunk, or undefined when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || sig.some((b, i) => bytes[i] !== b)) return undefined;
  if (Buffer.from(bytes.subarray(12, 16)).toString('latin1') !== 'IHDR') return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}
