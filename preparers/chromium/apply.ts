import type { FileMap } from '../types.ts';
import {
  type BookmarksFile,
  folderAt,
  maxId,
  parseBookmarks,
  renderBookmarks,
  type StoredNode,
} from './bookmarks.ts';
import { deleteHistory, ofSite } from './history.ts';
import { htmlLines, pdfOfLines } from './pdfText.ts';
import { BOOKMARKS, HISTORY, PREFERENCES, parsePreferences, renderPreferences, setAt } from './prefs.ts';
import type { ChromiumEdit } from './schema.ts';
import { engineData, SEARCH_PREF, type SearchEngine } from './searchEngines.ts';

function folder(file: BookmarksFile, path: string[]): StoredNode {
  const at = folderAt(file, path);
  if (at === undefined || at.type !== 'folder') throw new Error(`no bookmark folder ${path.join(' › ')}`);
  at.children ??= [];
  return at;
}

function take(file: BookmarksFile, path: string[], title: string): StoredNode {
  const parent = folder(file, path);
  const i = parent.children!.findIndex((c) => c.name === title);
  if (i < 0) throw new Error(`no bookmark "${title}" in ${path.join(' › ')}`);
  return parent.children!.splice(i, 1)[0]!;
}

function editBookmarks(files: FileMap, change: (file: BookmarksFile) => void): void {
  const file = parseBookmarks(files[BOOKMARKS]);
  change(file);
  files[BOOKMARKS] = renderBookmarks(file);
}

function applyOne(files: FileMap, edit: ChromiumEdit): void {
  switch (edit.op) {
    case 'chromium.set_pref': {
      const prefs = parsePreferences(files[PREFERENCES]);
      setAt(prefs, edit.path, edit.value);
      files[PREFERENCES] = renderPreferences(prefs);
      return;
    }
    case 'chromium.set_search_engine': {
      const prefs = parsePreferences(files[PREFERENCES]);
      setAt(prefs, SEARCH_PREF, engineData(edit.name as SearchEngine));
      files[PREFERENCES] = renderPreferences(prefs);
      return;
    }
    case 'chromium.add_bookmark':
    case 'chromium.add_folder':
      editBookmarks(files, (f) => {
        // A new node takes the next id, as Chromium numbers them.
        const node =
          edit.op === 'chromium.add_bookmark'
            ? { type: 'url' as const, url: edit.url }
            : { type: 'folder' as const, children: [] };
        folder(f, edit.folder).children!.push({ id: String(maxId(f) + 1), name: edit.title, ...node });
      });
      return;
    case 'chromium.delete_bookmark':
      editBookmarks(files, (f) => {
        take(f, edit.folder, edit.title);
      });
      return;
    case 'chromium.move_bookmark':
      editBookmarks(files, (f) => {
        const node = take(f, edit.folder, edit.title);
        folder(f, edit.to).children!.push(node);
      });
      return;
    case 'chromium.rename_bookmark':
      editBookmarks(files, (f) => {
        const node = folder(f, edit.folder).children!.find((c) => c.name === edit.title);
        if (node === undefined) throw new Error(`no bookmark "${edit.title}" in ${edit.folder.join(' › ')}`);
        node.name = edit.newTitle;
      });
      return;
    case 'chromium.delete_history': {
      const bytes = files[HISTORY];
      if (bytes === undefined) throw new Error('the profile has no History');
      const site = edit.site;
      files[HISTORY] = deleteHistory(
        bytes,
        (url) => edit.all === true || url === edit.url || (site !== undefined && ofSite(url, site)),
      );
      return;
    }
    case 'chromium.copy_file': {
      const bytes = files[edit.from];
      if (bytes === undefined) throw new Error(`${edit.from} does not exist`);
      files[edit.to] = bytes;
      return;
    }
    case 'chromium.write_file':
      files[edit.path] = new Uint8Array(Buffer.from(edit.content, 'utf8'));
      return;
    case 'chromium.print_pdf': {
      const bytes = files[edit.page];
      if (bytes === undefined) throw new Error(`${edit.page} does not exist`);
      const html = Buffer.from(bytes).toString('utf8');
      const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? edit.page;
      files[edit.to] = pdfOfLines(title, htmlLines(html));
      return;
    }
  }
}

export async function applyChromium(files: FileMap, edits: ChromiumEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  for (const [i, edit] of edits.entries()) {
    try {
      applyOne(out, edit);
    } catch (err) {
      throw new Error(`edit ${i} (${edit.op}): ${(err as Error).message}`);
    }
  }
  return out;
}
