import { containsProse, mentionsFigure } from '../proseFigures.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { identityKey } from './accountPrefs.ts';
import { readContacts, readMailingLists } from './addressBook.ts';
import { probeCreated } from './created.ts';
import { ACTION_NAMES, actionFolder, parseCondition, parseFilters } from './filters.ts';
import { folderOfUri } from './folders.ts';
import { probeProfileUnchanged } from './invariants.ts';
import { probeListsKept } from './listsKept.ts';
import { FLAG, type StoredMessage } from './mbox.ts';
import { normalizeSubject, parseMessage } from './mime.ts';
import type { PrefValue } from './prefs.ts';
import { probePrefsKept } from './prefsKept.ts';
import { isLive, Profile } from './profile.ts';
import { bareAddress } from './runFilters.ts';
import type { ThunderbirdCheck } from './schema.ts';
import { matches, subjects } from './select.ts';
import { lookupTag, tagNames } from './tags.ts';
import { parseSearches, searchName, VIRTUAL_FOLDERS_FILE } from './virtualFolders.ts';

/**
 * A phone number as dialled: its digits, the UK's international form (+44 20 7946 0123, 0044 …)
 * read as the national one (020 7946 0123), however it is spaced or punctuated.
 */
const digits = (phone: string) => {
  const d = phone.replace(/[^0-9+]/g, '');
  // "+44 (0)20 …" keeps its 0 once the brackets are gone.
  const uk = /^(?:\+|00)440?([1-9]\d+)$/.exec(d);
  return uk ? `0${uk[1]}` : d;
};

type Check<K extends ThunderbirdCheck['kind']> = Extract<ThunderbirdCheck, { kind: K }>;

function folderProbe(
  profile: Profile,
  check: Check<'thunderbird.message_in_folder'> | Check<'thunderbird.message_absent'>,
) {
  const folder = profile.folder(check.folder);
  if (folder === undefined) return { folder: undefined, found: [] as StoredMessage[], subjects: [] };
  const messages = profile.messages(folder);
  return { folder, found: messages.filter((m) => matches(m, check)), subjects: subjects(messages) };
}

function stateOf(message: StoredMessage, names: Map<string, string>) {
  return {
    subject: parseMessage(message.raw).subject,
    read: (message.flags & FLAG.read) !== 0,
    flagged: (message.flags & FLAG.flagged) !== 0,
    tags: message.keywords.map((k) => names.get(k) ?? k),
  };
}

function probeState(profile: Profile, check: Check<'thunderbird.message_state'>): ProbeResult {
  const prefs = profile.prefs();
  const names = tagNames(prefs);
  const folders =
    check.folder === undefined
      ? profile.folders()
      : [profile.folder(check.folder)].filter((f) => f !== undefined);
  const found = folders.flatMap((f) => profile.messages(f).filter((m) => matches(m, check)));
  const tagKey = check.tag === undefined ? undefined : lookupTag(prefs, check.tag);
  const ok = (m: StoredMessage) =>
    (check.read === undefined || ((m.flags & FLAG.read) !== 0) === check.read) &&
    (check.flagged === undefined || ((m.flags & FLAG.flagged) !== 0) === check.flagged) &&
    (tagKey === undefined || m.keywords.includes(tagKey));
  return {
    pass: found.length > 0 && found.every(ok),
    observed: { messages: found.slice(0, 10).map((m) => stateOf(m, names)) },
  };
}

function probeFilter(profile: Profile, check: Check<'thunderbird.filter_rule'>): ProbeResult {
  const prefs = profile.prefs();
  const seen: { name: string; condition: string; actions: string[] }[] = [];
  let pass = false;
  for (const file of profile.filterFiles()) {
    for (const filter of parseFilters(Buffer.from(profile.files[file]).toString('utf8'))) {
      seen.push({
        name: filter.name,
        condition: filter.condition,
        actions: filter.actions.map((a) => `${a.action} ${a.value ?? ''}`.trim()),
      });
      if (filter.enabled !== check.enabled) continue;
      if (check.name !== undefined && filter.name.trim().toLowerCase() !== check.name.trim().toLowerCase())
        continue;
      const termOk = parseCondition(filter.condition).some(
        (t) =>
          (check.field === undefined || t.field.toLowerCase() === check.field) &&
          (check.operator === undefined || t.operator.toLowerCase() === check.operator) &&
          (check.value === undefined || t.value.toLowerCase().includes(check.value.toLowerCase())),
      );
      if (!termOk) continue;
      const actionOk = filter.actions.some((a) => {
        if (a.action !== ACTION_NAMES[check.action]) return false;
        if (check.folder !== undefined && actionFolder(a.value)?.toLowerCase() !== check.folder.toLowerCase())
          return false;
        if (check.tag !== undefined && a.value !== lookupTag(prefs, check.tag)) return false;
        return true;
      });
      if (actionOk) pass = true;
    }
  }
  return { pass, observed: { filters: seen.slice(0, 20) } };
}

/** The signature text of an identity: htmlSigText, or the signature file when one is attached. */
function signatureOf(profile: Profile, prefs: Map<string, PrefValue>, key: string): string {
  const prefix = `mail.identity.${key}`;
  if (prefs.get(`${prefix}.attach_signature`) === true) {
    const relative = String(prefs.get(`${prefix}.sig_file-rel`) ?? '');
    const absolute = String(prefs.get(`${prefix}.sig_file`) ?? '');
    const path = relative.startsWith('[ProfD]')
      ? profile.path(relative.slice('[ProfD]'.length))
      : /^\/home\/[^/]+\/(.+)$/.exec(absolute)?.[1];
    const bytes = path === undefined ? undefined : profile.files[path];
    if (bytes !== undefined) return Buffer.from(bytes).toString('utf8');
  }
  return String(prefs.get(`${prefix}.htmlSigText`) ?? '');
}

export async function probeThunderbird(files: FileMap, check: ThunderbirdCheck): Promise<ProbeResult> {
  const profile = new Profile(files);
  switch (check.kind) {
    case 'thunderbird.message_in_folder': {
      const { folder, found, subjects } = folderProbe(profile, check);
      return {
        pass: found.length > 0,
        observed: { folder: folder ?? null, matching: found.length, subjects },
      };
    }
    case 'thunderbird.message_absent': {
      const { folder, found, subjects } = folderProbe(profile, check);
      return {
        pass: found.length === 0,
        observed: { folder: folder ?? null, matching: found.length, subjects },
      };
    }
    case 'thunderbird.folder_exists': {
      const folder = profile.folder(check.folder);
      return { pass: folder !== undefined, observed: { folders: profile.folders() } };
    }
    case 'thunderbird.message_state':
      return probeState(profile, check);
    case 'thunderbird.filter_rule':
      return probeFilter(profile, check);
    case 'thunderbird.identity_signature': {
      const prefs = profile.prefs();
      let key: string;
      try {
        key = identityKey(prefs, check.email);
      } catch (error) {
        return { pass: false, observed: { error: (error as Error).message } };
      }
      const signature = signatureOf(profile, prefs, key);
      const pass =
        (check.contains === undefined || signature.includes(check.contains)) &&
        (check.equals === undefined || signature.trimEnd() === check.equals.trimEnd());
      return { pass, observed: { identity: key, signature: signature.slice(0, 400) } };
    }
    case 'thunderbird.contact_exists': {
      const book = profile.addressBook();
      const contacts = book === undefined ? [] : readContacts(book);
      const pass = contacts.some(
        (c) =>
          (check.email === undefined || c.email.toLowerCase() === check.email.toLowerCase()) &&
          (check.name === undefined || c.name.trim().toLowerCase() === check.name.trim().toLowerCase()) &&
          (check.phone === undefined || c.phones.some((p) => digits(p) === digits(check.phone!))),
      );
      return {
        pass,
        observed: {
          contacts: contacts
            .slice(0, 30)
            .map((c) => `${c.name} <${c.email}>${c.phones.length ? ` ${c.phones.join(', ')}` : ''}`),
        },
      };
    }
    case 'thunderbird.draft':
      return probeDraft(profile, check);
    case 'thunderbird.unchanged':
      return probeProfileUnchanged(profile.files, check);
    case 'thunderbird.created':
      return probeCreated(profile.files, check);
    case 'thunderbird.prefs_kept':
      return probePrefsKept(profile.files, check);
    case 'thunderbird.lists_kept':
      return probeListsKept(profile.files, check);
    case 'thunderbird.pref': {
      const value = profile.prefs().get(check.name);
      const read = (v: unknown) => (check.address ? bareAddress(String(v)) : String(v));
      const pass = value !== undefined && (check.value === undefined || read(value) === read(check.value));
      return { pass, observed: { value: value ?? null } };
    }
    case 'thunderbird.message_file':
      return probeMessageFile(profile, check);
    case 'thunderbird.saved_search':
      return probeSavedSearch(profile, check);
    case 'thunderbird.mailing_list': {
      const book = profile.addressBook();
      const lists = book === undefined ? [] : readMailingLists(book);
      const wanted = check.members.map((m) => m.toLowerCase());
      const pass = lists.some((l) => {
        if (l.name.trim().toLowerCase() !== check.name.trim().toLowerCase()) return false;
        const members = l.members.map((m) => m.toLowerCase());
        if (!wanted.every((w) => members.includes(w))) return false;
        return !check.exact || members.every((m) => wanted.includes(m));
      });
      return { pass, observed: { lists: lists.slice(0, 10) } };
    }
  }
}

function probeDraft(profile: Profile, check: Check<'thunderbird.draft'>): ProbeResult {
  const folder = profile.folder(check.folder);
  const drafts = (folder === undefined ? [] : profile.messages(folder))
    .filter(isLive)
    .map((m) => parseMessage(m.raw));
  const inHeader = (list: string[], address: string) =>
    list.some((a) => a.toLowerCase().includes(address.toLowerCase()));
  const has = (d: (typeof drafts)[number], address: string) => inHeader([...d.to, ...d.cc], address);
  const pass = drafts.some(
    (d) =>
      (check.to === undefined ||
        (check.toHeader === 'to or cc' ? has(d, check.to) : inHeader(d[check.toHeader], check.to))) &&
      (check.recipients === undefined || check.recipients.every((r) => has(d, r))) &&
      (check.subject === undefined || normalizeSubject(d.subject) === normalizeSubject(check.subject)) &&
      (check.attachment === undefined ||
        d.attachments.some((a) => a.toLowerCase() === check.attachment!.toLowerCase())) &&
      (check.bodyContains === undefined || containsProse(d.text, check.bodyContains)) &&
      (check.bodyFigure === undefined || mentionsFigure(d.text, check.bodyFigure)),
  );
  const observed = drafts
    .slice(0, 10)
    .map((d) => ({ to: [...d.to, ...d.cc], subject: d.subject, attachments: d.attachments }));
  return { pass, observed: { folder: folder ?? null, drafts: observed } };
}

/** A saved .eml: a file whose header block has a From or Subject, matching the selector. */
function probeMessageFile(profile: Profile, check: Check<'thunderbird.message_file'>): ProbeResult {
  const bytes = profile.files[check.path];
  if (bytes === undefined) return { pass: false, observed: { path: check.path, exists: false } };
  const raw = Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
  const message = parseMessage(raw);
  const isMessage = message.headers.has('from') || message.headers.has('subject');
  const pass =
    isMessage &&
    matches({ raw, flags: 0, keywords: [] }, check) &&
    (check.bodyContains === undefined || containsProse(message.text, check.bodyContains));
  return {
    pass,
    observed: { path: check.path, isMessage, subject: message.subject, from: message.from },
  };
}

function probeSavedSearch(profile: Profile, check: Check<'thunderbird.saved_search'>): ProbeResult {
  const bytes = profile.read(VIRTUAL_FOLDERS_FILE);
  const searches = bytes === undefined ? [] : parseSearches(Buffer.from(bytes).toString('utf8'));
  const pass = searches.some(
    (s) =>
      searchName(s).trim().toLowerCase() === check.name.trim().toLowerCase() &&
      (check.scope === undefined ||
        s.scope.some((u) => folderOfUri(u)?.toLowerCase() === check.scope!.toLowerCase())) &&
      parseCondition(s.terms).some(
        (t) =>
          (check.field === undefined || t.field.toLowerCase() === check.field) &&
          (check.operator === undefined || t.operator.toLowerCase() === check.operator) &&
          (check.value === undefined || t.value.toLowerCase().includes(check.value.toLowerCase())),
      ),
  );
  return {
    pass,
    observed: {
      searches: searches.slice(0, 10).map((s) => ({
        name: searchName(s),
        scope: s.scope.map((u) => folderOfUri(u) ?? u),
        terms: s.terms,
      })),
    },
  };
}
