import { z } from 'zod';
import { safeRelativePath } from '../paths.ts';
import {
  COLOURS,
  CONTAINERS,
  type Container,
  containerOf,
  MEDIA_EXTENSIONS,
  PLAYLIST_EXTENSIONS,
} from './media.ts';
import { PREFS, VLCRC_PATH } from './vlcrc.ts';

const path = safeRelativePath;
const prefKey = z
  .string()
  .refine((k) => k in PREFS, {
    message: `a VLC option this preparer knows (${Object.keys(PREFS).length} of them)`,
  })
  .describe('A vlcrc option name, e.g. "qt-max-volume", "snapshot-path", "loop", "key-snapshot".');
const prefValue = z
  .union([z.string().max(1000), z.number().finite(), z.boolean()])
  .describe(
    'The value: true/false for on/off options, a number, or text (a folder, a hotkey such as "Ctrl+Alt+p").',
  );
const mediaPath = path.refine((p) => containerOf(p) !== undefined, {
  message: `a media file name ending in .${MEDIA_EXTENSIONS.join(', .')}`,
});
const playlistPath = path.refine(
  (p) => (PLAYLIST_EXTENSIONS as readonly string[]).includes(p.slice(p.lastIndexOf('.') + 1).toLowerCase()),
  { message: 'a playlist file name ending in .xspf, .m3u or .m3u8' },
);
const pngPath = path.refine((p) => /\.png$/i.test(p), { message: 'a .png file' });
const seconds = z.number().min(0).max(600);
const colour = z.enum(Object.keys(COLOURS) as [string, ...string[]]);

export const mediaSchema = z
  .strictObject({
    path: mediaPath.describe(
      'Where the file lies, e.g. "Videos/intro.mp4"; the extension sets container and codecs.',
    ),
    seconds: z.number().min(0.5).max(30).describe('Length in seconds.'),
    picture: z
      .strictObject({
        width: z.int().min(16).max(1280).multipleOf(2).default(320),
        height: z.int().min(16).max(720).multipleOf(2).default(180),
        rate: z.int().min(1).max(30).default(10),
        look: z.enum(['testsrc', 'smptebars', 'colours']).default('testsrc'),
        colours: z
          .array(colour)
          .min(1)
          .max(8)
          .optional()
          .describe('With look "colours": equal segments in this order.'),
      })
      .optional()
      .describe('A test picture (video containers only).'),
    sound: z
      .strictObject({
        frequency: z.int().min(50).max(4000).default(440),
        sampleRate: z.union([z.literal(22050), z.literal(44100), z.literal(48000)]).default(44100),
        channels: z.union([z.literal(1), z.literal(2)]).default(2),
      })
      .optional()
      .describe('A sine tone.'),
  })
  .superRefine((m, ctx) => {
    const c = containerOf(m.path)!;
    if (m.picture && !('video' in CONTAINERS[c]))
      ctx.addIssue({ code: 'custom', message: `${m.path}: a .${c} file holds no picture` });
    if (!m.picture && !m.sound)
      ctx.addIssue({ code: 'custom', message: `${m.path}: give picture, sound or both` });
  })
  .describe('A short media file generated with ffmpeg from test sources (deterministic bytes).');
export type MediaDoc = z.infer<typeof mediaSchema>;

export const docSchema = z
  .strictObject({
    config: z.boolean().default(true).describe(`Write ${VLCRC_PATH} (with the options in prefs).`),
    prefs: z.record(prefKey, prefValue).default({}).describe('vlcrc options set in the initial state.'),
    media: z.array(mediaSchema).max(20).default([]),
    playlists: z
      .array(
        z.strictObject({
          path: playlistPath,
          title: z.string().max(200).optional(),
          items: z.array(path).max(50).describe('Home-relative media paths, in play order.'),
        }),
      )
      .max(10)
      .default([]),
  })
  .describe('VLC state: its preferences file, media made with ffmpeg, playlists (the target is ignored).');
export type VlcDoc = z.infer<typeof docSchema>;

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({ op: z.literal('vlc.set_pref'), key: prefKey, value: prefValue })
    .describe("Set a preference as VLC's Preferences dialog saves it."),
  z
    .strictObject({ op: z.literal('vlc.reset_pref'), key: prefKey })
    .describe('Put a preference back to its default.'),
  z
    .strictObject({
      op: z.literal('vlc.write_playlist'),
      file: playlistPath.describe(
        'The playlist to write (.xspf as VLC saves one, .m3u/.m3u8 as a list of paths).',
      ),
      title: z.string().max(200).optional(),
      items: z.array(path).min(1).max(50),
      relative: z
        .boolean()
        .default(false)
        .describe(
          "Entries relative to the playlist's folder (as a hand-written list has them), not absolute.",
        ),
    })
    .describe('Save a playlist of these media files in this order.'),
  z
    .strictObject({
      op: z.literal('vlc.convert'),
      from: mediaPath,
      to: mediaPath.describe(
        "Output; its extension sets the container and codecs (VLC's Convert/Save, or ffmpeg).",
      ),
      start: seconds.optional().describe('Keep from this second.'),
      end: seconds.optional().describe('Keep up to this second.'),
      video: z.boolean().default(true).describe('Keep the picture.'),
      audio: z.boolean().default(true).describe('Keep the sound.'),
      width: z.int().min(16).max(1280).multipleOf(2).optional(),
      height: z.int().min(16).max(720).multipleOf(2).optional(),
    })
    .describe('Convert, trim or extract a media file with ffmpeg.'),
  z
    .strictObject({
      op: z.literal('vlc.snapshot'),
      from: mediaPath,
      at: seconds.describe('The moment, in seconds.'),
      to: pngPath,
      width: z.int().min(16).max(1280).optional(),
      height: z.int().min(16).max(720).optional(),
    })
    .describe('Save the frame at a moment as a PNG.'),
  z
    .strictObject({ op: z.literal('vlc.move'), from: path, to: path })
    .describe('Move or rename a file (the full new path).'),
  z.strictObject({ op: z.literal('vlc.delete'), file: path }).describe('Delete a file.'),
  z
    .strictObject({ op: z.literal('vlc.copy'), from: path, to: path })
    .describe('Copy a file byte for byte (the full new path).'),
]);
export type VlcEdit = z.infer<typeof editSchema>;

const pin = z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/));

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('vlc.pref'),
      file: path.default(VLCRC_PATH),
      key: prefKey,
      value: prefValue,
      path: z.boolean().default(false).describe('Compare as a folder: a trailing "/" does not matter.'),
    })
    .describe('The option holds this value as VLC reads the file (its default when unset).'),
  z
    .strictObject({
      kind: z.literal('vlc.hotkey'),
      file: path.default(VLCRC_PATH),
      action: z.string().regex(/^[a-z-]+$/),
      key: z
        .string()
        .min(1)
        .max(60)
        .describe('A binding such as "Ctrl+Alt+p" (modifiers in any order, any case).'),
      global: z
        .boolean()
        .default(false)
        .describe('The global hotkey (works while VLC is in the background).'),
    })
    .refine((c) => `key-${c.action}` in PREFS, { message: 'an action whose hotkey this preparer knows' })
    .describe("The action's hotkey list includes this binding."),
  z
    .strictObject({
      kind: z.literal('vlc.playlist'),
      file: path,
      items: z.array(path).describe('Home-relative media paths, exactly these in this order.'),
      format: z
        .enum(['xspf', 'm3u'])
        .optional()
        .describe('Also require this format (read from the content).'),
    })
    .describe('The playlist plays exactly these files in this order.'),
  z
    .strictObject({
      kind: z.literal('vlc.media'),
      file: path,
      container: z
        .enum(Object.keys(CONTAINERS) as [Container, ...Container[]])
        .optional()
        .describe("ffprobe's container is this one."),
      duration: z.number().min(0).optional().describe('Seconds, within tolerance.'),
      tolerance: z.number().min(0).max(10).default(0.3),
      videoStreams: z.int().min(0).optional(),
      audioStreams: z.int().min(0).optional(),
      videoCodec: z
        .string()
        .regex(/^[a-z0-9_]+$/)
        .optional(),
      audioCodec: z
        .string()
        .regex(/^[a-z0-9_]+$/)
        .optional(),
      width: z.int().optional(),
      height: z.int().optional(),
      startColour: colour.optional().describe('The first frame shows mostly this colour.'),
    })
    .describe('A media file as ffprobe reads it (needs ffmpeg in the VM).'),
  z
    .strictObject({
      kind: z.literal('vlc.image'),
      file: path,
      width: z.int().min(1),
      height: z.int().min(1),
      colour: colour.optional().describe('The picture is mostly this colour (needs ffmpeg in the VM).'),
    })
    .describe('A PNG of this size.'),
  z
    .strictObject({ kind: z.literal('vlc.file'), file: path, sha256: z.string().regex(/^[0-9a-f]{64}$/) })
    .describe('The file exists with exactly these bytes (a media file moved or renamed, not re-encoded).'),
  z.strictObject({ kind: z.literal('vlc.absent'), file: path }).describe('Nothing is at the path.'),
  z
    .strictObject({
      kind: z.literal('vlc.unchanged'),
      files: pin.describe('Files that keep their bytes.'),
      prefs: z
        .strictObject({
          file: path,
          keep: z.record(z.string(), z.union([z.number(), z.string()])),
          active: z.array(z.string()).describe('Option names the file may set; any other set is collateral.'),
        })
        .optional(),
      children: z
        .record(z.string(), z.array(z.string()))
        .default({})
        .describe('Folders and the names (not hidden) they may hold.'),
    })
    .describe('Invariant: files keep their bytes, options their values, folders gain no entry.'),
]);
export type VlcCheck = z.infer<typeof checkSchema>;
