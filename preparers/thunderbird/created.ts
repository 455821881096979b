import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { actionFolder, parseCondition, parseFilters, type StoredFilter } from './filters.ts';
import { folderOfUri } from './folders.ts';
import { addresses, attachmentFiles, parseMessage } from './mime.ts';
import { isLive, Profile } from './profile.ts';
import { bareAddress } from './runFilters.ts';
import { tagNames } from './tags.ts';
import { parseSearches, type StoredSearch, searchName, VIRTUAL_FOLDERS_FILE } from './virtualFolders.ts';

/**
 * `thunderbird.created`: nothing but the oracle's filters, saved searches and new messages exist. A
 * filter or search that was there is still there with its whole state, name included; any other
 * must equal one the oracle created in every term (field, operator, value; a domain term of an address
 * field as "contains" or "ends with", with or without its "@"; a whole address also as "is"), match type, action (the
 * exact set), enabled state and whether it runs on new mail — but may have any name (a person names
 * a filter as they like; a skill whose instruction fixes the name checks it). Every message with a
 * Message-ID the initial state did not have (a draft, a template) must be one of the oracle's new
 * messages: same folder, the same To, Cc and Bcc address sets (a reply to several people: To and Cc as
 * one set) and the same attachments, by name and
 * bytes (text attachments modulo line endings and trailing newlines); an attachment the oracle took
 * from a file of the task must be that file as it is now (or, an office document, an office document:
 * LibreOffice's save changes the bytes, the document's own checks judge its content). That the
 * oracle's new objects exist at all is for the skill's own checks (a filter_rule, a draft): this one
 * holds on the untouched state, so what it catches is a discriminating kill.
 */
export interface FilterSnap {
  /** Only for a filter the initial state had. */
  name?: string;
  enabled: boolean;
  /** Runs on new mail (before or after junk classification). */
  incoming: boolean;
  match: 'all' | 'any';
  /** "field|operator|value", lower case, sorted. */
  terms: string[];
  /** "action|value", sorted; folders and tag names lower case. */
  actions: string[];
}

export interface SearchSnap {
  name?: string;
  scope: string[];
  match: 'all' | 'any';
  terms: string[];
}

export interface AttachmentSnap {
  name: string;
  sha256?: string;
  file?: string;
}

export interface NewMessageSnap {
  folder: string;
  to: string[];
  cc: string[];
  bcc: string[];
  /**
   * A reply to several people ("Re:"): To and Cc are compared as one set. Reply All keeps the
   * original Cc in Cc, but a person who puts everyone in To (or moves someone to Cc) reaches the
   * same people; a recipient missing or added still differs.
   */
  oneSet?: true;
  attachments: AttachmentSnap[];
}

export interface CreatedCheck {
  filters: FilterSnap[];
  searches: SearchSnap[];
  /** Message ids of the initial state; a message with another id is new. */
  known: string[];
  messages: NewMessageSnap[];
}

const OFFICE = /\.(xlsx|docx|pptx|ods|odt|odp)$/i;
const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const ADDRESS_FIELDS = new Set(['from', 'to', 'cc', 'to or cc', 'all addresses']);
/** "example.org" or "@example.org": a mail domain, as a person types it to pick out one organisation. */
const DOMAIN = /^@?[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
/** "news@example.org": one sender's whole address. */
const ADDRESS = /^[a-z0-9._%+'-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/**
 * One term as compared. An address term on a mail domain reads the same with "contains" or "ends with"
 * and with or without the "@" (every address at the domain ends with it, as Thunderbird matches each
 * address of the header), so those are written one way: "from|contains|example.org"; on one whole
 * address "is" joins them ("from is news@example.org" picks out that sender as "contains" does). Any
 * other operator ("begins with", "is" on a domain) stays itself: it selects other mail.
 */
function termKey(field: string, operator: string, value: string): string {
  const f = field.toLowerCase();
  const op = operator.toLowerCase();
  const v = value.trim().toLowerCase();
  if (ADDRESS_FIELDS.has(f) && (op === 'contains' || op === 'ends with') && DOMAIN.test(v))
    return `${f}|contains|${v.replace(/^@/, '')}`;
  if (ADDRESS_FIELDS.has(f) && (op === 'contains' || op === 'ends with' || op === 'is') && ADDRESS.test(v))
    return `${f}|contains|${v}`;
  return `${f}|${op}|${v}`;
}

function termsOf(condition: string): { match: 'all' | 'any'; terms: string[] } {
  const terms = parseCondition(condition).map((t) => termKey(t.field, t.operator, t.value));
  return { match: terms.length > 1 && /^\s*OR\b/.test(condition) ? 'any' : 'all', terms: sorted(terms) };
}

function filterSnap(f: StoredFilter, names: Map<string, string>): FilterSnap {
  const actions = f.actions.map((a) => {
    if (a.action === 'Move to folder' || a.action === 'Copy to folder')
      return `${a.action}|${(actionFolder(a.value) ?? a.value ?? '').toLowerCase()}`;
    if (a.action === 'AddTag')
      return `${a.action}|${(names.get(a.value ?? '') ?? a.value ?? '').toLowerCase()}`;
    if (a.action === 'Forward') return `${a.action}|${(a.value ?? '').toLowerCase()}`;
    return a.value === undefined ? a.action : `${a.action}|${a.value}`;
  });
  return {
    name: f.name,
    enabled: f.enabled,
    incoming: (f.type & 33) !== 0,
    ...termsOf(f.condition),
    actions: sorted(actions),
  };
}

function searchSnap(s: StoredSearch): SearchSnap {
  return {
    name: searchName(s),
    scope: sorted(s.scope.map((u) => (folderOfUri(u) ?? u).toLowerCase())),
    ...termsOf(s.terms),
  };
}

/** Bytes as compared: line endings as LF, trailing newlines dropped. */
function normalHash(bytes: Uint8Array): string {
  let b = Buffer.from(bytes);
  if (b.includes(13)) b = Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  let end = b.length;
  while (end > 0 && b[end - 1] === 10) end--;
  return createHash('sha256').update(b.subarray(0, end)).digest('hex');
}

interface Found {
  folder: string;
  id: string;
  reply: boolean;
  to: string[];
  cc: string[];
  bcc: string[];
  attachments: { name: string; sha256: string; office: boolean }[];
}

function snapshot(files: FileMap) {
  const profile = new Profile(files);
  const names = tagNames(profile.prefs());
  const filters = profile
    .filterFiles()
    .flatMap((f) => parseFilters(Buffer.from(profile.files[f]!).toString('utf8')))
    .map((f) => filterSnap(f, names));
  const vf = profile.read(VIRTUAL_FOLDERS_FILE);
  const searches = (vf === undefined ? [] : parseSearches(Buffer.from(vf).toString('utf8'))).map(searchSnap);
  const messages: Found[] = [];
  for (const folder of profile.folders())
    for (const m of profile.messages(folder)) {
      if (!isLive(m)) continue;
      const p = parseMessage(m.raw);
      const list = (xs: string[]) => sorted(xs.map(bareAddress));
      messages.push({
        folder,
        id: p.messageId || `${p.subject.replace(/\s+/g, ' ').trim().toLowerCase()}|${p.from.toLowerCase()}`,
        reply: /^\s*re\s*:/i.test(p.subject),
        to: list(p.to),
        cc: list(p.cc),
        bcc: list(addresses(p.headers.get('bcc'))),
        // In any order: by name, then content.
        attachments: attachmentFiles(m.raw)
          .map((a) => ({
            name: a.name,
            sha256: normalHash(a.bytes),
            office: a.bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')),
          }))
          .sort((a, b) => {
            const x = `${a.name.toLowerCase()}|${a.sha256}`;
            const y = `${b.name.toLowerCase()}|${b.sha256}`;
            return x < y ? -1 : x > y ? 1 : 0;
          }),
      });
    }
  return { filters, searches, messages };
}

const strip = <T extends { name?: string }>(x: T): T => {
  const { name: _, ...rest } = x;
  return rest as T;
};

/** The check for a solved state, from the initial one. */
export function deriveCreated(initial: FileMap, solved: FileMap): CreatedCheck {
  const before = snapshot(initial);
  const after = snapshot(solved);
  const had = <T>(list: T[], x: T) => list.some((y) => jsonEqual(x, y));
  const known = [...new Set(before.messages.map((m) => m.id))].sort();
  const profileDir = new Profile(solved).dir;
  // Files of the task outside the profile, by content: an attachment that is one of them was attached from it.
  const homeFiles = Object.entries(solved)
    .filter(([p]) => !p.startsWith(`${profileDir}/`) && !p.startsWith('.'))
    .map(([p, bytes]) => [p, normalHash(bytes)] as const);
  return {
    filters: after.filters.map((f) => (had(before.filters, f) ? f : strip(f))),
    searches: after.searches.map((s) => (had(before.searches, s) ? s : strip(s))),
    known,
    messages: after.messages
      .filter((m) => !known.includes(m.id))
      .map((m) => ({
        folder: m.folder,
        to: m.to,
        cc: m.cc,
        bcc: m.bcc,
        ...(m.reply && new Set([...m.to, ...m.cc]).size > 1 ? { oneSet: true as const } : {}),
        attachments: m.attachments.map((a) => {
          const from = homeFiles.find(([, hash]) => hash === a.sha256)?.[0];
          return from === undefined ? { name: a.name, sha256: a.sha256 } : { name: a.name, file: from };
        }),
      })),
  };
}

/** Pairs what is wanted with what is there: named (kept) ones first, exactly; then the rest by state. */
function pair<T extends { name?: string }>(want: T[], now: T[]): { missing: T[]; extra: T[] } {
  const left = [...now];
  const missing: T[] = [];
  const take = (w: T, same: (x: T) => boolean) => {
    const at = left.findIndex(same);
    if (at < 0) missing.push(w);
    else left.splice(at, 1);
  };
  for (const w of want) if (w.name !== undefined) take(w, (x) => jsonEqual(x, w));
  for (const w of want) if (w.name === undefined) take(w, (x) => jsonEqual(strip(x), strip(w)));
  return { missing, extra: left };
}

/** To and Cc as one sorted set of addresses. */
const oneSet = (to: string[], cc: string[]) => sorted([...new Set([...to, ...cc])]);

export function probeCreated(files: FileMap, check: CreatedCheck): ProbeResult {
  const now = snapshot(files);
  const filters = pair(check.filters, now.filters);
  const searches = pair(check.searches, now.searches);
  const left = now.messages.filter((m) => !check.known.includes(m.id));
  const attachmentOk = (want: AttachmentSnap, got: Found['attachments'][number]) => {
    if (want.name.toLowerCase() !== got.name.toLowerCase()) return false;
    if (want.sha256 !== undefined) return want.sha256 === got.sha256;
    const bytes = files[want.file ?? ''];
    if (bytes !== undefined && normalHash(bytes) === got.sha256) return true;
    return OFFICE.test(want.file ?? '') && got.office;
  };
  for (const want of check.messages) {
    const at = left.findIndex(
      (m) =>
        m.folder === want.folder &&
        (want.oneSet
          ? jsonEqual(oneSet(m.to, m.cc), oneSet(want.to, want.cc))
          : jsonEqual(m.to, want.to) && jsonEqual(m.cc, want.cc)) &&
        jsonEqual(m.bcc, want.bcc) &&
        m.attachments.length === want.attachments.length &&
        want.attachments.every((a, i) => attachmentOk(a, m.attachments[i]!)),
    );
    if (at >= 0) left.splice(at, 1);
  }
  // Only what was there must still be there; the oracle's new objects are the skill's checks to ask for.
  const kept = <T extends { name?: string }>(list: T[]) => list.filter((x) => x.name !== undefined);
  const problems = {
    missing: { filters: kept(filters.missing), searches: kept(searches.missing) },
    extra: {
      filters: filters.extra,
      searches: searches.extra,
      messages: left.map((m) => ({
        folder: m.folder,
        to: m.to,
        cc: m.cc,
        bcc: m.bcc,
        attachments: m.attachments.map((a) => ({ name: a.name, sha256: a.sha256 })),
      })),
    },
  };
  const pass = [...Object.values(problems.missing), ...Object.values(problems.extra)].every(
    (l) => l.length === 0,
  );
  return {
    pass,
    observed: pass
      ? { filters: check.filters.length, searches: check.searches.length, messages: check.messages.length }
      : problems,
  };
}
