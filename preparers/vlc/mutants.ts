import { type EditMutant, editMutants } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import type { VlcEdit } from './schema.ts';
import { PREFS } from './vlcrc.ts';

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

export async function vlcMutants(edits: VlcEdit[], _initial: FileMap): Promise<EditMutant<VlcEdit>[]> {
  const { out, add } = editMutants(edits);
  for (const [i, edit] of edits.entries()) {
    switch (edit.op) {
      case 'vlc.set_pref': {
        const s = sibling(edit.key);
        if (s) add(i, `on ${s} instead of ${edit.key} (the neighbouring option)`, { ...edit, key: s });
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
