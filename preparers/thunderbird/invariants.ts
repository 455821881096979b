import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { readContacts } from './addressBook.ts';
import { deriveCreated } from './created.ts';
import { parseFilters } from './filters.ts';
import { deriveListsKept } from './listsKept.ts';
import { FLAG } from './mbox.ts';
import { normalizeSubject, parseMessage } from './mime.ts';
import { derivePrefsKept } from './prefsKept.ts';
import { isLive, Profile } from './profile.ts';
import { filterOutcome, filterSelects } from './runFilters.ts';

/**
 * "Nothing else changed" in a profile: every message the oracle left alone stays in its folder
 * with its read / flagged state and tags; folders, address-book e-mails and filters that existed
 * stay. A message is known by its Message-ID (subject and sender when it has none).
 */
export interface MessageSnap {
  id: string;
  folder: string;
  read: boolean;
  flagged: boolean;
  tags: string[];
  /** Another state the message may be in: where a new filter run on its folder puts it. */
  or?: { folder: string; read: boolean; flagged: boolean; tags: string[] };
}

export interface ProfileSnap {
  messages: MessageSnap[];
  folders: string[];
  contacts: string[];
  filters: string[];
}

function snapProfile(files: FileMap): ProfileSnap {
  const profile = new Profile(files);
  const messages: MessageSnap[] = [];
  for (const folder of profile.folders()) {
    for (const m of profile.messages(folder)) {
      if (!isLive(m)) continue;
      const parsed = parseMessage(m.raw);
      messages.push({
        id: idOf(parsed),
        folder,
        read: (m.flags & FLAG.read) !== 0,
        flagged: (m.flags & FLAG.flagged) !== 0,
        tags: [...m.keywords].filter((k) => k !== '').sort(),
      });
    }
  }
  const book = profile.addressBook();
  const filters = profile
    .filterFiles()
    .flatMap((f) => parseFilters(Buffer.from(profile.files[f]!).toString('utf8')).map((x) => x.name));
  return {
    messages,
    folders: profile.folders(),
    contacts: book ? readContacts(book).map((c) => c.email.toLowerCase()) : [],
    filters,
  };
}

const same = (a: MessageSnap, b: MessageSnap) => jsonEqual({ ...a, or: undefined }, { ...b, or: undefined });

/** The states a listed message may be in: as it was, or as its `or` says. */
const states = (want: MessageSnap): MessageSnap[] =>
  want.or === undefined ? [want] : [want, { ...want, ...want.or, or: undefined }];

/**
 * Messages a new filter would act on if the person also ran it on the Inbox (Run Now): the generic
 * right `thunderbird-filter-run-existing` for a filter that files mail, a person's own choice for one
 * that tags, stars or marks read. Their entries may be where, and as, running it leaves them.
 */
function filterRuns(initial: FileMap, solved: FileMap): Map<string, NonNullable<MessageSnap['or']>> {
  const out = new Map<string, NonNullable<MessageSnap['or']>>();
  const filtersOf = (files: FileMap) => {
    const p = new Profile(files);
    return p.filterFiles().flatMap((f) => parseFilters(Buffer.from(p.files[f]!).toString('utf8')));
  };
  const had = filtersOf(initial);
  const added = filtersOf(solved).filter((f) => !had.some((g) => jsonEqual(f, g)));
  if (added.length === 0) return out;
  const profile = new Profile(initial);
  const inbox = profile.folder('Inbox');
  if (inbox === undefined) return out;
  for (const m of profile.messages(inbox)) {
    if (!isLive(m)) continue;
    const filter = added.find((f) => filterSelects(f, m.raw, m.keywords));
    if (filter === undefined) continue;
    const { place } = filterOutcome(filter, {
      folder: inbox,
      read: (m.flags & FLAG.read) !== 0,
      flagged: (m.flags & FLAG.flagged) !== 0,
      tags: [...m.keywords].filter((k) => k !== '').sort(),
    });
    out.set(idOf(parseMessage(m.raw)), place);
  }
  return out;
}

const idOf = (parsed: ReturnType<typeof parseMessage>) =>
  parsed.messageId || `${normalizeSubject(parsed.subject)}|${parsed.from.toLowerCase()}`;

/** Equal but for an unread message that is now read: opening a message marks it read. */
const opened = (want: MessageSnap, now: MessageSnap) =>
  states(want).some((w) => !w.read && now.read && same(w, { ...now, read: false }));

/**
 * Unread messages an agent may open while doing a task whose subject is not read state: reading a
 * message or three is work, marking a folder read is a bulk change.
 */
export const MAY_OPEN = 3;

export async function thunderbirdInvariants(initial: FileMap, solved: FileMap): Promise<unknown[]> {
  const before = snapProfile(initial);
  const after = snapProfile(solved);
  // Read state is part of the task only when the oracle changes it (mark read, a read filter);
  // otherwise an agent that opens a message to do its work has changed nothing that matters.
  const readIsTask = before.messages.some((m) =>
    after.messages.some((n) => n.id === m.id && n.folder === m.folder && n.read !== m.read),
  );
  const runs = filterRuns(initial, solved);
  return [
    {
      kind: 'thunderbird.unchanged',
      messages: before.messages
        .filter((m) => after.messages.some((n) => same(m, n)))
        .map((m) => {
          const or = m.folder === 'Inbox' ? runs.get(m.id) : undefined;
          return or === undefined || jsonEqual(or, { ...m, id: undefined }) ? m : { ...m, or };
        }),
      folders: before.folders.filter((f) => after.folders.includes(f)),
      contacts: before.contacts.filter((c) => after.contacts.includes(c)),
      filters: before.filters.filter((f) => after.filters.includes(f)),
      // A folder the oracle does not make is collateral (a stray one, or one in the wrong place).
      exactFolders: true,
      made: after.folders.filter((f) => !before.folders.includes(f)),
      // Likewise a card the oracle does not add (a second contact, a duplicate).
      exactContacts: true,
      madeContacts: after.contacts.filter((c) => !before.contacts.includes(c)),
      readOnOpen: readIsTask ? 0 : MAY_OPEN,
    },
    { kind: 'thunderbird.created', ...deriveCreated(initial, solved) },
    { kind: 'thunderbird.prefs_kept', ...derivePrefsKept(initial, solved) },
    { kind: 'thunderbird.lists_kept', ...deriveListsKept(initial, solved) },
  ];
}

/**
 * `thunderbird.unchanged`: each listed message is live in the listed folder with exactly that
 * read / flagged state and those tag keys (up to `readOnOpen` unread ones may have become read);
 * each listed folder, contact e-mail and filter name exists; with `exactFolders`, no other folder
 * exists but those the task makes (`made`); with `exactContacts`, no other card's e-mail but those
 * it adds (`madeContacts`).
 */
export function probeProfileUnchanged(
  files: FileMap,
  check: ProfileSnap & {
    exactFolders?: boolean;
    made?: string[];
    exactContacts?: boolean;
    madeContacts?: string[];
    readOnOpen?: number;
  },
): ProbeResult {
  let mayOpen = check.readOnOpen ?? 0;
  const now = snapProfile(files);
  const problems: unknown[] = [];
  let changed = 0;
  for (const want of check.messages) {
    const found = now.messages.filter((m) => m.id === want.id);
    if (found.some((m) => states(want).some((w) => same(m, w)))) continue;
    if (mayOpen > 0 && found.some((m) => opened(want, m))) {
      mayOpen--;
      continue;
    }
    changed++;
    if (problems.length < 6) problems.push({ message: want, now: found.slice(0, 2) });
  }
  const lost = {
    folders: check.folders.filter((f) => !now.folders.includes(f)),
    contacts: check.contacts.filter((c) => !now.contacts.includes(c)),
    filters: check.filters.filter((f) => !now.filters.includes(f)),
    newFolders: check.exactFolders
      ? now.folders.filter((f) => !check.folders.includes(f) && !(check.made ?? []).includes(f))
      : [],
    newContacts: check.exactContacts
      ? now.contacts.filter((c) => !check.contacts.includes(c) && !(check.madeContacts ?? []).includes(c))
      : [],
  };
  const pass = changed === 0 && Object.values(lost).every((l) => l.length === 0);
  return {
    pass,
    observed: pass
      ? { messages: check.messages.length }
      : { changedMessages: changed, examples: problems, lost },
  };
}
