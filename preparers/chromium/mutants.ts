import { type EditMutant, editMutants } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import type { ChromiumEdit } from './schema.ts';
import { SEARCH_ENGINE_NAMES } from './searchEngines.ts';

/**
 * Chromium near misses a person makes: a bookmark or folder filed under the other root (the bar
 * instead of "Other bookmarks", or the reverse) or in the parent folder, another search engine of
 * the list, a download saved in the folder's parent.
 */
export async function chromiumMutants(
  edits: ChromiumEdit[],
  _initial: FileMap,
): Promise<EditMutant<ChromiumEdit>[]> {
  const m = editMutants(edits);
  const otherRoot = (folder: string[]) => [folder[0] === 'bar' ? 'other' : 'bar'];
  for (const [i, e] of edits.entries()) {
    if (e.op === 'chromium.add_bookmark' || e.op === 'chromium.add_folder') {
      m.add(i, 'filed under the other root', { ...e, folder: otherRoot(e.folder) });
      if (e.folder.length > 1)
        m.add(i, 'filed in the parent folder', { ...e, folder: e.folder.slice(0, -1) });
    }
    if (e.op === 'chromium.move_bookmark') {
      m.add(i, 'moved under the other root', { ...e, to: otherRoot(e.to) });
      if (e.to.length > 1) m.add(i, 'moved to the parent folder', { ...e, to: e.to.slice(0, -1) });
    }
    if (e.op === 'chromium.set_search_engine') {
      const next =
        SEARCH_ENGINE_NAMES[(SEARCH_ENGINE_NAMES.indexOf(e.name as never) + 1) % SEARCH_ENGINE_NAMES.length]!;
      m.add(i, `${next} instead`, { ...e, name: next });
    }
    if (e.op === 'chromium.copy_file' && e.to.includes('/')) {
      const name = e.to.slice(e.to.lastIndexOf('/') + 1);
      const parent = e.to.slice(0, e.to.lastIndexOf('/'));
      const up = parent.includes('/') ? `${parent.slice(0, parent.lastIndexOf('/'))}/${name}` : name;
      m.add(i, 'saved one folder up', { ...e, to: up });
    }
  }
  return m.out;
}
