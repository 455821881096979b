import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { type Entry, entriesOf, entryKey, folderAt, parseBookmarks } from './bookmarks.ts';
import { historyUrls, ofSite } from './history.ts';
import { foldPdfText, pdfText } from './pdfText.ts';
import {
  BOOKMARKS,
  effectivePref,
  HISTORY,
  PREFERENCES,
  PREFS,
  type PrefPath,
  parsePreferences,
} from './prefs.ts';
import type { ChromiumCheck, FieldValue } from './schema.ts';
import { searchEngineOf } from './searchEngines.ts';

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Text as the checks compare it: lower case, runs of white space as one space. */
export const foldText = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Whether a submitted form field holds the wanted value, as the page took it down: text folded
 * (case, runs of white space); a number however it was typed (a currency sign, thousands commas,
 * "42.50" for 42.5); a date in ISO form or day first, the way the form's own hint writes it.
 * checker.py (chromium_field_ok) is the same.
 */
export function fieldOk(value: unknown, want: FieldValue): boolean {
  if ('number' in want) {
    let n: number | undefined;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string') {
      const bare = value.replace(/[£$€,\s]/g, '');
      if (/^[+-]?\d+(\.\d+)?$/.test(bare)) n = Number(bare);
    }
    return n !== undefined && Math.abs(n - want.number) < 0.005;
  }
  if (typeof value !== 'string') return false;
  if ('text' in want) return foldText(value) === foldText(want.text);
  const v = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v);
  const dayFirst = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(v);
  const ymd = iso ? [iso[1], iso[2], iso[3]] : dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]] : undefined;
  if (ymd === undefined) return false;
  const [y, m, d] = want.date.split('-').map(Number);
  return Number(ymd[0]) === y && Number(ymd[1]) === m && Number(ymd[2]) === d;
}

const sameEntry = (a: Entry, b: Entry) => entryKey(a) === entryKey(b);

/**
 * An address as it takes a person to the same page: scheme and host in any case, and the bare
 * host with or without its "/" (Chromium keeps the home page as typed). checker.py
 * (chromium_address) is the same.
 */
export function addressKey(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (m === null) return url;
  const rest = m[3]!.startsWith('/') ? m[3]! : `/${m[3]!}`;
  return `${m[1]!.toLowerCase()}://${m[2]!.toLowerCase()}${rest}`;
}

/** A setting's value as the check compares it: an address by addressKey, the rest as JSON. */
function samePref(path: PrefPath, value: unknown, want: unknown): boolean {
  if (PREFS[path].type === 'url' && typeof value === 'string' && typeof want === 'string')
    return addressKey(value) === addressKey(want);
  return jsonEqual(value, want);
}

/** Reads a task state's profile the way Chromium does: absent files are an empty profile. */
export class ChromiumState {
  constructor(readonly files: FileMap) {}
  private cache = new Map<string, unknown>();
  private memo<T>(key: string, make: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, make());
    return this.cache.get(key) as T;
  }
  prefs() {
    return this.memo('prefs', () => parsePreferences(this.files[PREFERENCES]));
  }
  bookmarks() {
    return this.memo('bookmarks', () => parseBookmarks(this.files[BOOKMARKS]));
  }
  entries() {
    return this.memo('entries', () => entriesOf(this.bookmarks()));
  }
  history() {
    return this.memo('history', () => historyUrls(this.files[HISTORY]));
  }
}

export function probeState(state: ChromiumState, check: ChromiumCheck): ProbeResult {
  switch (check.kind) {
    case 'chromium.pref': {
      const value = effectivePref(state.prefs(), check.path);
      return { pass: samePref(check.path, value, check.value), observed: { value } };
    }
    case 'chromium.search_engine': {
      const name = searchEngineOf(state.prefs());
      return { pass: name === check.name, observed: { name } };
    }
    case 'chromium.bookmark': {
      if (folderAt(state.bookmarks(), check.folder)?.type !== 'folder')
        return { pass: false, observed: { folder: null } };
      const here = state.entries().filter((e) => jsonEqual(e.folder, check.folder));
      const pass = here.some(
        (e) =>
          e.type === check.type &&
          (check.title === undefined || e.title === check.title) &&
          (check.url === undefined || e.url === check.url),
      );
      return { pass, observed: { titles: here.map((e) => e.title) } };
    }
    case 'chromium.no_bookmark': {
      const hits = state
        .entries()
        .filter(
          (e) =>
            (check.url !== undefined && e.url === check.url) ||
            (check.title !== undefined && e.title === check.title),
        );
      return { pass: hits.length === 0, observed: { count: hits.length } };
    }
    case 'chromium.history': {
      const urls = state.history().filter((u) => ofSite(u, check.site));
      return { pass: urls.length > 0 === check.present, observed: { urls } };
    }
    case 'chromium.file': {
      const bytes = state.files[check.path];
      const sha256 = bytes === undefined ? null : sha256Of(bytes);
      const source = check.sameAs === undefined ? undefined : state.files[check.sameAs];
      const want =
        check.sameAs === undefined ? check.sha256 : source === undefined ? undefined : sha256Of(source);
      return { pass: sha256 !== null && sha256 === want, observed: { sha256 } };
    }
    case 'chromium.file_text': {
      const bytes = state.files[check.path];
      if (bytes === undefined) return { pass: false, observed: { exists: false } };
      const text = foldText(Buffer.from(bytes).toString('utf8'));
      const missing = check.contains.filter((s) => !text.includes(foldText(s)));
      return { pass: missing.length === 0, observed: { missing } };
    }
    case 'chromium.pdf_text': {
      const bytes = state.files[check.path];
      if (bytes === undefined) return { pass: false, observed: { exists: false } };
      const text = pdfText(bytes);
      if (text === undefined) return { pass: false, observed: { pdf: false } };
      const folded = foldPdfText(text);
      const missing = check.contains.filter((s) => !folded.includes(foldPdfText(s)));
      return { pass: missing.length === 0, observed: { missing } };
    }
    case 'chromium.json_fields': {
      const bytes = state.files[check.path];
      if (bytes === undefined) return { pass: false, observed: { exists: false } };
      let data: unknown;
      try {
        data = JSON.parse(Buffer.from(bytes).toString('utf8'));
      } catch {
        data = undefined;
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data))
        return { pass: false, observed: { json: false } };
      const record = data as Record<string, unknown>;
      const values: Record<string, unknown> = {};
      const wrong: string[] = [];
      for (const [name, want] of Object.entries(check.fields)) {
        const has = Object.hasOwn(record, name);
        values[name] = has ? record[name] : null;
        if (!has || !fieldOk(record[name], want)) wrong.push(name);
      }
      return { pass: wrong.length === 0, observed: { wrong, values } };
    }
    case 'chromium.unchanged': {
      const changed: string[] = [];
      for (const [path, want] of Object.entries(check.prefs)) {
        if (!jsonEqual(effectivePref(state.prefs(), path as PrefPath), want)) changed.push(`pref ${path}`);
      }
      if (check.searchEngine !== undefined && searchEngineOf(state.prefs()) !== check.searchEngine)
        changed.push('search engine');
      if (check.bookmarks !== undefined) {
        const have = [...state.entries()];
        for (const keep of check.bookmarks.keep) {
          const i = have.findIndex((e) => sameEntry(e, keep as Entry));
          if (i < 0) changed.push(`bookmark ${[...keep.folder, keep.title].join(' › ')}`);
          else have.splice(i, 1);
        }
        // At most the oracle's: an extra bookmark or folder is collateral; fewer is the task's
        // checks' to judge (or a kept entry's, missing), so the untouched tree passes.
        if (state.entries().length > check.bookmarks.count)
          changed.push(`bookmark count ${state.entries().length}`);
      }
      if (check.history !== undefined) {
        const urls = new Set(state.history());
        for (const url of check.history) if (!urls.has(url)) changed.push(`history ${url}`);
      }
      for (const [path, sha] of Object.entries(check.files)) {
        const bytes = state.files[path];
        if (bytes === undefined || sha256Of(bytes) !== sha) changed.push(`file ${path}`);
      }
      return { pass: changed.length === 0, observed: { changed } };
    }
  }
}

export async function probeChromium(files: FileMap, check: ChromiumCheck): Promise<ProbeResult> {
  return probeState(new ChromiumState(files), check);
}
