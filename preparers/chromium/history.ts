import Database from 'better-sqlite3';
import { HISTORY_DDL, HISTORY_LAST_COMPATIBLE, HISTORY_VERSION } from './historySchema.ts';

export interface VisitSpec {
  url: string;
  title: string;
  /** ISO date-times of the visits, oldest first. */
  visits: string[];
}

/** Chromium's time base: microseconds since 1601-01-01 UTC. */
const EPOCH_OFFSET_US = 11_644_473_600_000_000n;
export function chromeTime(iso: string): bigint {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`not a date-time: ${JSON.stringify(iso)}`);
  return BigInt(ms) * 1000n + EPOCH_OFFSET_US;
}

/** A typed link (core page transition 1) that started a navigation chain, as the omnibox records it. */
const TRANSITION_TYPED = 0x30000001;

/**
 * A History database with these pages and visits, in the schema Chromium creates. Visit times are
 * absolute: Chromium expires visits older than 90 days (and then their URLs) soon after it starts,
 * so a task's history must be dated within 90 days of the day the task runs: skills date it back
 * from `task.today`, the day the task is authored.
 */
export function buildHistory(pages: VisitSpec[]): Uint8Array {
  const db = new Database(':memory:');
  try {
    db.defaultSafeIntegers(true);
    for (const ddl of HISTORY_DDL) db.exec(ddl);
    const meta = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
    meta.run('mmap_status', '-1');
    meta.run('version', String(HISTORY_VERSION));
    meta.run('last_compatible_version', String(HISTORY_LAST_COMPATIBLE));
    addVisits(db, pages);
    return new Uint8Array(db.serialize());
  } finally {
    db.close();
  }
}

function addVisits(db: Database.Database, pages: VisitSpec[]): void {
  const url = db.prepare(
    'INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time, hidden) VALUES (?, ?, ?, ?, ?, 0)',
  );
  const visit = db.prepare(
    'INSERT INTO visits(url, visit_time, from_visit, transition, segment_id, visit_duration, incremented_omnibox_typed_score) VALUES (?, ?, 0, ?, 0, 0, 0)',
  );
  for (const page of pages) {
    const times = page.visits.map(chromeTime).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const last = times[times.length - 1] ?? 0n;
    const id = url.run(page.url, page.title, times.length, times.length, last).lastInsertRowid;
    for (const t of times) visit.run(id, t, TRANSITION_TYPED);
  }
}

/** The URLs the History database holds (the history page lists one row per URL with visits). */
export function historyUrls(bytes: Uint8Array | undefined): string[] {
  if (bytes === undefined || bytes.length === 0) return [];
  const db = new Database(Buffer.from(bytes), { readonly: true });
  try {
    const rows = db.prepare('SELECT url FROM urls ORDER BY id').all() as { url: string }[];
    return rows.map((r) => r.url);
  } finally {
    db.close();
  }
}

/** Deletes the URLs `drop` picks and their visits, as Chromium's "Delete from history" does. */
export function deleteHistory(bytes: Uint8Array, drop: (url: string) => boolean): Uint8Array {
  const db = new Database(Buffer.from(bytes));
  try {
    const rows = db.prepare('SELECT id, url FROM urls').all() as { id: number; url: string }[];
    const gone = rows.filter((r) => drop(r.url));
    const delVisits = db.prepare('DELETE FROM visits WHERE url = ?');
    const delUrl = db.prepare('DELETE FROM urls WHERE id = ?');
    const delTerms = db.prepare('DELETE FROM keyword_search_terms WHERE url_id = ?');
    for (const r of gone) {
      delVisits.run(r.id);
      delTerms.run(r.id);
      delUrl.run(r.id);
    }
    return new Uint8Array(db.serialize());
  } finally {
    db.close();
  }
}

/** The host of a URL, lower case, or "" (file URLs have none). */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** A URL is of a site when its host is the site's or one of its subdomains ("youtube.com" takes "m.youtube.com"). */
export function ofSite(url: string, site: string): boolean {
  const host = hostOf(url);
  const s = site.toLowerCase();
  return host === s || host.endsWith(`.${s}`);
}
