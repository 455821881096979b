import { folderOfUri, folderUri } from './folders.ts';
import type { SavedSearchSpec } from './schema.ts';

/** Profile-relative file where Thunderbird keeps its saved searches (virtual folders). */
export const VIRTUAL_FOLDERS_FILE = 'virtualFolders.dat';

/** A saved search as stored: the folder it shows as, the folders it searches and its terms. */
export interface StoredSearch {
  uri: string;
  scope: string[];
  terms: string;
}

/** The search's name: the last segment of its folder URI. */
export function searchName(search: StoredSearch): string {
  return folderOfUri(search.uri)?.split('/').pop() ?? '';
}

/** Search folders live under Local Folders; the terms read like a filter's condition. */
export function toStoredSearch(spec: SavedSearchSpec): StoredSearch {
  const join = spec.match === 'all' ? 'AND' : 'OR';
  return {
    uri: folderUri(spec.name),
    scope: spec.scope.map(folderUri),
    terms: spec.conditions
      .map((c) => `${join} (${c.field},${c.operator},${/[)"]/.test(c.value) ? `"${c.value}"` : c.value})`)
      .join(' '),
  };
}

/** virtualFolders.dat: "version=1", then per folder uri=, scope= (|-separated), terms=, searchOnline=. */
export function renderSearches(searches: StoredSearch[]): string {
  let text = 'version=1\n';
  for (const s of searches)
    text += `uri=${s.uri}\nscope=${s.scope.join('|')}\nterms=${s.terms}\nsearchOnline=false\n`;
  return text;
}

export function parseSearches(text: string): StoredSearch[] {
  const out: StoredSearch[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    const key = line.slice(0, at);
    const value = line.slice(at + 1);
    const current = out[out.length - 1];
    if (key === 'uri') out.push({ uri: value, scope: [], terms: '' });
    else if (current === undefined) continue;
    else if (key === 'scope') current.scope = value.split('|').filter(Boolean);
    else if (key === 'terms') current.terms = value;
  }
  return out;
}
