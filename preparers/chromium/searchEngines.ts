import { jsonEqual } from '../deepEqual.ts';
import { getAt, type Json, type JsonObject } from './prefs.ts';

/** Where Chromium keeps the search engine the user chose (DefaultSearchManager). */
export const SEARCH_PREF = 'default_search_provider_data.template_url_data';

/**
 * The prepopulated engines a task may make the default, as Chromium writes them. A closed table:
 * a search URL is where every omnibox query goes, so a spec never writes one of its own.
 */
export const SEARCH_ENGINES = {
  Google: { keyword: 'google.com', url: 'https://www.google.com/search?q={searchTerms}', prepopulate_id: 1 },
  Bing: { keyword: 'bing.com', url: 'https://www.bing.com/search?q={searchTerms}', prepopulate_id: 3 },
  DuckDuckGo: {
    keyword: 'duckduckgo.com',
    url: 'https://duckduckgo.com/?q={searchTerms}',
    prepopulate_id: 92,
  },
} as const;
export type SearchEngine = keyof typeof SEARCH_ENGINES;
export const SEARCH_ENGINE_NAMES = Object.keys(SEARCH_ENGINES) as SearchEngine[];

/** Chromium's default when the profile names none (OSWorld's getter reads it the same way). */
export const DEFAULT_ENGINE = 'Google';

export function engineData(name: SearchEngine): JsonObject {
  return { short_name: name, ...SEARCH_ENGINES[name] };
}

/** The default search engine's name, as the profile says it. */
export function searchEngineOf(prefs: JsonObject): string {
  const name = getAt(prefs, `${SEARCH_PREF}.short_name`);
  return typeof name === 'string' ? name : DEFAULT_ENGINE;
}

/** Why a template_url_data value is not one of the table's engines (Chromium may add its own fields). */
export function engineProblem(value: Json | undefined): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `${SEARCH_PREF} must be an object`;
  const name = value.short_name;
  if (typeof name !== 'string' || !(name in SEARCH_ENGINES))
    return `${SEARCH_PREF} must name one of ${SEARCH_ENGINE_NAMES.join(', ')}`;
  return jsonEqual(value, engineData(name as SearchEngine))
    ? null
    : `${SEARCH_PREF} must be exactly the built-in ${name} entry`;
}
