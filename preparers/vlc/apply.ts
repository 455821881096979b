import type { FileMap } from '../types.ts';
import { BUILDER_PREFS, playlistText } from './build.ts';
import { containerOf, snapshot, transcode } from './media.ts';
import type { VlcEdit } from './schema.ts';
import { prefText, setPref, VLCRC_PATH, writeVlcrc } from './vlcrc.ts';

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));
const bytes = (t: string) => new Uint8Array(Buffer.from(t, 'utf8'));

function need(files: FileMap, path: string): Uint8Array {
  const b = files[path];
  if (b === undefined) throw new Error(`${path} does not exist`);
  return b;
}

async function applyOne(files: FileMap, edit: VlcEdit): Promise<void> {
  switch (edit.op) {
    case 'vlc.set_pref':
    case 'vlc.reset_pref': {
      // VLC writes a vlcrc of its own when there is none yet.
      const current = text(files[VLCRC_PATH]) ?? writeVlcrc(BUILDER_PREFS);
      const value = edit.op === 'vlc.set_pref' ? prefText(edit.key, edit.value) : undefined;
      files[VLCRC_PATH] = bytes(setPref(current, edit.key, value));
      return;
    }
    case 'vlc.write_playlist':
      files[edit.file] = bytes(playlistText(edit.file, edit.items, edit.title, edit.relative));
      return;
    case 'vlc.convert': {
      if (edit.start !== undefined && edit.end !== undefined && edit.end <= edit.start)
        throw new Error('end must come after start');
      if (!edit.video && !edit.audio) throw new Error('keep the picture, the sound or both');
      const source = need(files, edit.from);
      files[edit.to] = await transcode(source, containerOf(edit.from)!, containerOf(edit.to)!, {
        start: edit.start,
        end: edit.end,
        video: edit.video,
        audio: edit.audio,
        width: edit.width,
        height: edit.height,
      });
      return;
    }
    case 'vlc.snapshot': {
      const size =
        edit.width !== undefined && edit.height !== undefined
          ? { width: edit.width, height: edit.height }
          : undefined;
      files[edit.to] = await snapshot(need(files, edit.from), containerOf(edit.from)!, edit.at, size);
      return;
    }
    case 'vlc.move': {
      const data = need(files, edit.from);
      if (edit.to !== edit.from && edit.to in files) throw new Error(`${edit.to} already exists`);
      delete files[edit.from];
      files[edit.to] = data;
      return;
    }
    case 'vlc.copy':
      if (edit.to in files) throw new Error(`${edit.to} already exists`);
      files[edit.to] = need(files, edit.from);
      return;
    case 'vlc.delete': {
      // A folder goes with everything in it (rm -r, or the file manager's delete).
      const under = Object.keys(files).filter((p) => p === edit.file || p.startsWith(`${edit.file}/`));
      if (under.length === 0) throw new Error(`${edit.file} does not exist`);
      for (const p of under) delete files[p];
      return;
    }
  }
}

/** Applies edits in order, as VLC's dialogs (or ffmpeg and the file manager) would. */
export async function applyVlc(files: FileMap, edits: VlcEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  for (const [i, edit] of edits.entries()) {
    try {
      await applyOne(out, edit);
    } catch (err) {
      throw new Error(`edit ${i} (${edit.op}): ${(err as Error).message}`);
    }
  }
  return out;
}
