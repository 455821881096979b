import { type EditMutant, editMutants, twinPath } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { untrackedOptions } from './invariants.ts';
import type { VlcEdit } from './schema.ts';
import {
  effectiveValue,
  PREFS,
  type PrefInfo,
  type PrefValue,
  prefText,
  setPref,
  VLCRC_PATH,
} from './vlcrc.ts';

/**
 * Near misses a person makes in VLC: the neighbouring option of the preferences dialog (Loop for
 * Repeat, the recordings folder for the snapshots folder, the hotkey for the global hotkey), a
 * playlist in the wrong order or one short, a cut a second off or from the start instead of the
 * middle, the sound or picture dropped, a snapshot of the wrong moment.
 */
const SIBLINGS: Record<string, string> = {
  loop: 'repeat',
  repeat: 'loop',
  random: 'loop',
  'one-instance': 'one-instance-when-started-from-file',
  'one-instance-when-started-from-file': 'one-instance',
  'playlist-enqueue': 'one-instance',
  'snapshot-path': 'input-record-path',
  'input-record-path': 'snapshot-path',
  'audio-language': 'sub-language',
  'sub-language': 'audio-language',
  fullscreen: 'video-on-top',
  'video-on-top': 'fullscreen',
  'qt-minimal-view': 'qt-fs-controller',
  'qt-system-tray': 'qt-minimal-view',
  'play-and-exit': 'start-paused',
  'start-paused': 'play-and-exit',
};

function sibling(key: string): string | undefined {
  if (key.startsWith('global-key-')) return key.slice('global-'.length);
  if (key.startsWith('key-')) return `global-${key}`;
  const s = SIBLINGS[key];
  return s !== undefined && PREFS[s]?.type === PREFS[key]?.type ? s : undefined;
}

/** A value of an option other than `now`: the edited one where it fits (one folder for both), else a flip or a step. */
function otherValue(info: PrefInfo, now: PrefValue, like: unknown): string | number | boolean {
  if (info.type === 'string') return typeof like === 'string' && like !== now ? like : `${now}x`;
  if (info.type === 'bool') return now === 0;
  const step = info.type === 'float' ? 1.5 : 1;
  const up = Number(now) + step;
  return info.max !== undefined && up > info.max ? Number(now) - step : up;
}

/**
 * The output made twice (a second run, a second export, a copy left behind): the same edit
 * writing `name (1).ext` beside the asked file, for an invariant on the folder to see.
 */
function outputTwin(edit: VlcEdit): { path: string; edit: VlcEdit } | undefined {
  const out =
    edit.op === 'vlc.write_playlist'
      ? edit.file
      : edit.op === 'vlc.convert' ||
          edit.op === 'vlc.snapshot' ||
          edit.op === 'vlc.copy' ||
          edit.op === 'vlc.move'
        ? edit.to
        : undefined;
  if (out === undefined) return undefined;
  const path = twinPath(out);
  if (edit.op === 'vlc.write_playlist') return { path, edit: { ...edit, file: path } };
  if (edit.op === 'vlc.move') return { path, edit: { op: 'vlc.copy', from: edit.to, to: path } };
  return { path, edit: { ...edit, to: path } as VlcEdit };
}

export async function vlcMutants(edits: VlcEdit[], initial: FileMap): Promise<EditMutant<VlcEdit>[]> {
  const { out, add, also } = editMutants(edits);
  const rc =
    initial[VLCRC_PATH] === undefined ? undefined : Buffer.from(initial[VLCRC_PATH]).toString('utf8');
  const touched = new Set(edits.flatMap((e) => ('key' in e ? [e.key] : [])));
  // Options whose change is no damage once the task is done (the invariants leave them free).
  let after = rc ?? '';
  for (const e of edits)
    if (e.op === 'vlc.set_pref' && PREFS[e.key]) after = setPref(after, e.key, prefText(e.key, e.value));
  for (const k of untrackedOptions(after)) touched.add(k);
  const keys = Object.keys(PREFS);
  for (const [i, edit] of edits.entries()) {
    const made = outputTwin(edit);
    if (made) also(i, `and again as ${made.path} (a file not asked for)`, made.edit);
    switch (edit.op) {
      case 'vlc.set_pref': {
        const s = sibling(edit.key);
        if (s) add(i, `on ${s} instead of ${edit.key} (the neighbouring option)`, { ...edit, key: s });
        // The neighbouring option (else the next one the task leaves alone) changed along with it.
        const near =
          s !== undefined && !touched.has(s)
            ? s
            : keys
                .slice(keys.indexOf(edit.key) + 1)
                .concat(keys)
                .find((k) => !touched.has(k));
        if (near !== undefined)
          also(i, `and ${near} changed too (the option beside it)`, {
            op: 'vlc.set_pref',
            key: near,
            value: otherValue(PREFS[near]!, effectiveValue(rc, near), edit.value),
          });
        if (typeof edit.value === 'string' && edit.value.includes('/') && !edit.value.endsWith('/')) {
          const parent = edit.value.slice(0, edit.value.lastIndexOf('/'));
          if (parent !== '') add(i, `the parent folder ${parent}`, { ...edit, value: parent });
        }
        break;
      }
      case 'vlc.write_playlist': {
        const n = edit.items.length;
        if (n > 1) {
          add(i, 'in reverse order', { ...edit, items: [...edit.items].reverse() });
          add(i, 'in file-name order', { ...edit, items: [...edit.items].sort() });
          add(i, 'without the last item', { ...edit, items: edit.items.slice(0, -1) });
          const swapped = [...edit.items];
          [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
          add(i, 'with the first two swapped', { ...edit, items: swapped });
        }
        add(i, 'with the first item twice', { ...edit, items: [...edit.items, edit.items[0]!] });
        break;
      }
      case 'vlc.convert': {
        if (edit.end !== undefined && edit.end - (edit.start ?? 0) > 1)
          add(i, 'cut a second short', { ...edit, end: edit.end - 1 });
        if (edit.start !== undefined && edit.start > 0) {
          const length = edit.end !== undefined ? edit.end - edit.start : undefined;
          add(i, 'cut from the beginning instead', {
            ...edit,
            start: 0,
            ...(length !== undefined ? { end: length } : {}),
          });
        }
        if (edit.video && edit.audio) add(i, 'without the sound', { ...edit, audio: false });
        if (!edit.video && edit.audio) add(i, 'with the picture kept', { ...edit, video: true });
        break;
      }
      case 'vlc.snapshot':
        if (edit.at >= 1) add(i, 'of the first frame', { ...edit, at: 0 });
        break;
      default:
        break;
    }
  }
  return out;
}
