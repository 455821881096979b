import { actionFolder, type ParsedTerm, parseCondition, type StoredFilter } from './filters.ts';
import { type ParsedMessage, parseMessage } from './mime.ts';

/**
 * Running a filter on messages already in a folder (Tools ▸ Run Filters on Folder, or Run Now in the
 * filter list): which messages its terms select and what its actions do to them. Used by the
 * `add_filter` edit's `runOn` and by the invariants, which let a new move/copy filter's matches in
 * the Inbox be where running it would put them.
 */

/** The bare address of "Ann Lee <ann@example.com>" (or the text itself), lower case. */
export function bareAddress(address: string): string {
  const angle = /<([^<>]*)>\s*$/.exec(address);
  return (angle ? angle[1]! : address).trim().toLowerCase();
}

function values(parsed: ParsedMessage, keywords: string[], field: string): string[] {
  const whole = (list: string[]) => list.flatMap((a) => [a, bareAddress(a)]);
  switch (field) {
    case 'subject':
      return [parsed.subject];
    case 'from':
      return whole([parsed.from]);
    case 'to':
      return whole(parsed.to);
    case 'cc':
      return whole(parsed.cc);
    case 'to or cc':
      return whole([...parsed.to, ...parsed.cc]);
    case 'all addresses':
      return whole([parsed.from, ...parsed.to, ...parsed.cc]);
    case 'body':
      return [parsed.text];
    case 'tag':
      return keywords;
    default:
      return [];
  }
}

/** Whether one term holds for a message; string tests are case-insensitive, as Thunderbird's are. */
export function termHolds(parsed: ParsedMessage, keywords: string[], term: ParsedTerm): boolean {
  const want = term.value.toLowerCase();
  const got = values(parsed, keywords, term.field.toLowerCase()).map((v) => v.toLowerCase());
  switch (term.operator.toLowerCase()) {
    case 'contains':
      return got.some((v) => v.includes(want));
    case "doesn't contain":
      return !got.some((v) => v.includes(want));
    case 'is':
      return got.some((v) => v === want);
    case "isn't":
      return !got.some((v) => v === want);
    case 'begins with':
      return got.some((v) => v.startsWith(want));
    case 'ends with':
      return got.some((v) => v.endsWith(want));
    default:
      return false;
  }
}

/** Whether a stored filter's condition selects the message ("ALL" selects every message). */
export function filterSelects(filter: StoredFilter, raw: string, keywords: string[]): boolean {
  if (filter.condition.trim().toUpperCase() === 'ALL') return true;
  const terms = parseCondition(filter.condition);
  if (terms.length === 0) return false;
  const parsed = parseMessage(raw);
  const any = /^\s*OR\b/.test(filter.condition);
  return any
    ? terms.some((t) => termHolds(parsed, keywords, t))
    : terms.every((t) => termHolds(parsed, keywords, t));
}

/** A message's place and state, as a filter's actions change them. */
export interface MessagePlace {
  folder: string;
  read: boolean;
  flagged: boolean;
  /** Tag keys. */
  tags: string[];
}

/**
 * Where a selected message ends up and in what state: read/flag/tag actions change it, Move puts it
 * in the target folder, Copy leaves it (the copy is another message), Delete puts it in Trash.
 * `copies` are the folders a Copy action puts a duplicate in.
 */
export function filterOutcome(
  filter: StoredFilter,
  place: MessagePlace,
): { place: MessagePlace; copies: string[] } {
  const out: MessagePlace = { ...place, tags: [...place.tags] };
  const copies: string[] = [];
  for (const a of filter.actions) {
    if (a.action === 'Mark read') out.read = true;
    else if (a.action === 'Mark unread') out.read = false;
    else if (a.action === 'Mark flagged') out.flagged = true;
    else if (a.action === 'AddTag' && a.value !== undefined && !out.tags.includes(a.value))
      out.tags.push(a.value);
    else if (a.action === 'Move to folder') out.folder = actionFolder(a.value) ?? out.folder;
    else if (a.action === 'Copy to folder') {
      const to = actionFolder(a.value);
      if (to !== undefined) copies.push(to);
    } else if (a.action === 'Delete') out.folder = 'Trash';
    else if (a.action === 'Stop execution') break;
  }
  out.tags.sort();
  return { place: out, copies };
}
