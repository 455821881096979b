import { type EditMutant, editMutants } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { type BookmarksFile, folderAt, parseBookmarks } from './bookmarks.ts';
import { BOOKMARKS } from './prefs.ts';
import type { ChromiumEdit } from './schema.ts';
import { SEARCH_ENGINE_NAMES } from './searchEngines.ts';

/**
 * Chromium near misses a person makes: a bookmark or folder filed under the other root (the bar
 * instead of "Other bookmarks", or the reverse) or in the parent folder, another search engine of
 * the list, a download or a printed PDF saved in the folder's parent.
 */
export async function chromiumMutants(
  edits: ChromiumEdit[],
  initial: FileMap,
): Promise<EditMutant<ChromiumEdit>[]> {
  const m = editMutants(edits);
  let marks: BookmarksFile | undefined;
  try {
    marks = parseBookmarks(initial[BOOKMARKS]);
  } catch {
    marks = undefined;
  }
  /** The title next to `title` in the folder (after it, else before it), that no edit of the task names. */
  const neighbour = (folder: string[], title: string): string | undefined => {
    const children = (marks && folderAt(marks, folder)?.children) ?? [];
    const at = children.findIndex((c) => c.name === title);
    const named = new Set(edits.flatMap((e) => ('title' in e ? [e.title] : [])));
    for (const k of [at + 1, at - 1]) {
      const c = at < 0 ? undefined : children[k];
      if (c && !named.has(c.name) && children.filter((x) => x.name === c.name).length === 1) return c.name;
    }
    return undefined;
  };
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
    if (
      e.op === 'chromium.delete_bookmark' ||
      e.op === 'chromium.rename_bookmark' ||
      e.op === 'chromium.move_bookmark'
    ) {
      const next = neighbour(e.folder, e.title);
      if (next !== undefined) m.add(i, 'the neighbouring bookmark instead', { ...e, title: next });
    }
    if (e.op === 'chromium.set_search_engine') {
      const next =
        SEARCH_ENGINE_NAMES[(SEARCH_ENGINE_NAMES.indexOf(e.name as never) + 1) % SEARCH_ENGINE_NAMES.length]!;
      m.add(i, `${next} instead`, { ...e, name: next });
    }
    if ((e.op === 'chromium.copy_file' || e.op === 'chromium.print_pdf') && e.to.includes('/')) {
      const name = e.to.slice(e.to.lastIndexOf('/') + 1);
      const parent = e.to.slice(0, e.to.lastIndexOf('/'));
      const up = parent.includes('/') ? `${parent.slice(0, parent.lastIndexOf('/'))}/${name}` : name;
      m.add(i, 'saved one folder up', { ...e, to: up });
    }
  }
  return m.out;
}
