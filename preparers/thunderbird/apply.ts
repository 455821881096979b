import type { FileMap } from '../types.ts';
import { identityKey, signaturePrefs } from './accountPrefs.ts';
import { ADDRESS_BOOK_FILE, writeContacts, writeMailingList } from './addressBook.ts';
import { flagsOf } from './build.ts';
import { parseFilters, renderFilters, type StoredFilter, toStoredFilter } from './filters.ts';
import { FLAG, type StoredMessage } from './mbox.ts';
import { attachmentBytes, composeMessage } from './mime.ts';
import { isLive, Profile } from './profile.ts';
import { filterOutcome, filterSelects } from './runFilters.ts';
import type { ThunderbirdEdit } from './schema.ts';
import { matches, type Selector } from './select.ts';
import { lookupTag, resolveTag } from './tags.ts';
import { parseSearches, renderSearches, toStoredSearch, VIRTUAL_FOLDERS_FILE } from './virtualFolders.ts';

/** The first live message of a folder matching the selector; fails when none does. */
function first(profile: Profile, folder: string, selector: Selector) {
  const found = profile.messages(folder).find((m) => matches(m, selector));
  if (found === undefined) throw new Error(`no message in ${folder} matches ${JSON.stringify(selector)}`);
  return found;
}

type Compose = Extract<ThunderbirdEdit, { op: 'thunderbird.save_draft' | 'thunderbird.save_template' }>;

/** Composes a message from the identity and stores it in Drafts or Templates, as the compose window does. */
async function saveComposed(profile: Profile, edit: Compose, folder: 'Drafts' | 'Templates') {
  const prefs = profile.prefs();
  const key = identityKey(prefs, edit.identity);
  const name = String(prefs.get(`mail.identity.${key}.fullName`) ?? '');
  const email = String(prefs.get(`mail.identity.${key}.useremail`) ?? '');
  const raw = await composeMessage({
    from: name ? `${name} <${email}>` : email,
    to: edit.to,
    cc: edit.cc,
    subject: edit.subject,
    date: edit.date,
    text: edit.body,
    // A home file attached is read as it is now (after the edits before this one).
    attachments: edit.attachments.map((a) => {
      if (a.file === undefined) return a;
      const bytes = profile.files[a.file];
      if (bytes === undefined) throw new Error(`no file ${a.file} to attach`);
      return {
        filename: a.filename,
        base64: Buffer.from(bytes).toString('base64'),
        contentType: a.contentType,
      };
    }),
    headers: {
      'X-Mozilla-Draft-Info':
        'internal/draft; vcard=0; receipt=0; DSN=0; uuencode=0; attachmentreminder=0; deliveryformat=0',
      'X-Identity-Key': key,
    },
  });
  const flags = flagsOf({ read: true, replied: false, flagged: false, attachments: edit.attachments });
  const target = profile.ensureFolder(folder);
  profile.setMessages(target, [...profile.messages(target), { raw, flags, keywords: [] }]);
}

/** Runs a filter on the live messages of a folder (Run Now): its actions on every message it selects. */
function runFilter(profile: Profile, filter: StoredFilter, folder: string) {
  const messages = profile.messages(folder);
  const kept: StoredMessage[] = [];
  const moved = new Map<string, StoredMessage[]>();
  const add = (to: string, m: StoredMessage) => {
    const at = profile.ensureFolder(to);
    moved.set(at, [...(moved.get(at) ?? []), m]);
  };
  for (const m of messages) {
    if (!isLive(m) || !filterSelects(filter, m.raw, m.keywords)) {
      kept.push(m);
      continue;
    }
    const { place, copies } = filterOutcome(filter, {
      folder,
      read: (m.flags & FLAG.read) !== 0,
      flagged: (m.flags & FLAG.flagged) !== 0,
      tags: m.keywords.filter((k) => k !== ''),
    });
    m.flags = (place.read ? m.flags | FLAG.read : m.flags & ~FLAG.read) >>> 0;
    m.flags = (place.flagged ? m.flags | FLAG.flagged : m.flags & ~FLAG.flagged) >>> 0;
    for (const k of place.tags) if (!m.keywords.includes(k)) m.keywords.push(k);
    for (const to of copies) add(to, { ...m, keywords: [...m.keywords] });
    if (profile.folder(place.folder) === profile.folder(folder)) kept.push(m);
    else add(place.folder, m);
  }
  profile.setMessages(folder, kept);
  for (const [to, list] of moved) profile.setMessages(to, [...profile.messages(to), ...list]);
}

/** Removes the matching messages from a folder and returns them; fails when none match. */
function take(profile: Profile, folder: string, selector: Selector) {
  const messages = profile.messages(folder);
  const taken = messages.filter((m) => matches(m, selector));
  if (taken.length === 0) throw new Error(`no message in ${folder} matches ${JSON.stringify(selector)}`);
  profile.setMessages(
    folder,
    messages.filter((m) => !taken.includes(m)),
  );
  return taken;
}

async function applyOne(profile: Profile, edit: ThunderbirdEdit): Promise<void> {
  switch (edit.op) {
    case 'thunderbird.move_message': {
      const moved = take(profile, edit.folder, edit);
      const to = profile.ensureFolder(edit.to);
      profile.setMessages(to, [...profile.messages(to), ...moved]);
      return;
    }
    case 'thunderbird.create_folder':
      profile.ensureFolder(edit.path);
      return;
    case 'thunderbird.add_filter': {
      const prefs = profile.prefs();
      const file = profile.localFilterFile();
      const existing = profile.read(file);
      const filters = existing === undefined ? [] : parseFilters(Buffer.from(existing).toString('utf8'));
      const stored = toStoredFilter(edit.filter, (tag) => resolveTag(prefs, tag));
      filters.push(stored);
      profile.write(file, renderFilters(filters));
      profile.setPrefs(prefs);
      if (edit.runOn !== undefined) runFilter(profile, stored, edit.runOn);
      return;
    }
    case 'thunderbird.set_flag': {
      const prefs = profile.prefs();
      const messages = profile.messages(edit.folder);
      const selected = messages.filter((m) => matches(m, edit));
      if (selected.length === 0)
        throw new Error(`no message in ${edit.folder} matches ${JSON.stringify(edit)}`);
      for (const message of selected) {
        if (edit.read !== undefined)
          message.flags = edit.read ? message.flags | FLAG.read : message.flags & ~FLAG.read;
        if (edit.flagged !== undefined)
          message.flags = edit.flagged ? message.flags | FLAG.flagged : message.flags & ~FLAG.flagged;
        message.flags >>>= 0;
        if (edit.addTag !== undefined) {
          const key = resolveTag(prefs, edit.addTag);
          if (!message.keywords.includes(key)) message.keywords.push(key);
        }
        if (edit.removeTag !== undefined) {
          const key = lookupTag(prefs, edit.removeTag);
          message.keywords = message.keywords.filter((k) => k !== key);
        }
      }
      profile.setMessages(edit.folder, messages);
      profile.setPrefs(prefs);
      return;
    }
    case 'thunderbird.set_signature': {
      const prefs = profile.prefs();
      const key = identityKey(prefs, edit.email);
      for (const [name, value] of Object.entries(signaturePrefs(key, edit.signature, edit.isHtml)))
        prefs.set(name, value);
      profile.setPrefs(prefs);
      return;
    }
    case 'thunderbird.add_contact':
      profile.write(ADDRESS_BOOK_FILE, writeContacts(profile.addressBook(), [edit.contact]));
      return;
    case 'thunderbird.save_draft':
      return saveComposed(profile, edit, 'Drafts');
    case 'thunderbird.save_template':
      return saveComposed(profile, edit, 'Templates');
    case 'thunderbird.set_pref': {
      const prefs = profile.prefs();
      prefs.set(edit.name, edit.value);
      profile.setPrefs(prefs);
      return;
    }
    case 'thunderbird.save_message_file': {
      // Thunderbird's "Save As > File" writes the message as received, without mbox bookkeeping.
      profile.files[edit.to] = new Uint8Array(Buffer.from(first(profile, edit.folder, edit).raw, 'utf8'));
      return;
    }
    case 'thunderbird.save_attachment': {
      const bytes = attachmentBytes(first(profile, edit.folder, edit).raw, edit.filename);
      if (bytes === undefined) throw new Error(`the message has no attachment named ${edit.filename}`);
      profile.files[edit.to] = bytes;
      return;
    }
    case 'thunderbird.add_saved_search': {
      const existing = profile.read(VIRTUAL_FOLDERS_FILE);
      const searches = existing === undefined ? [] : parseSearches(Buffer.from(existing).toString('utf8'));
      searches.push(toStoredSearch(edit.search));
      profile.write(VIRTUAL_FOLDERS_FILE, renderSearches(searches));
      return;
    }
    case 'thunderbird.add_mailing_list':
      profile.write(ADDRESS_BOOK_FILE, writeMailingList(profile.addressBook(), edit.list));
      return;
    case 'thunderbird.delete_message': {
      const deleted = take(profile, edit.folder, edit);
      const trash = profile.ensureFolder('Trash');
      if (!edit.permanent && trash !== profile.folder(edit.folder))
        profile.setMessages(trash, [...profile.messages(trash), ...deleted]);
      return;
    }
  }
}

/** Applies oracle edits to the profile's real files, as Thunderbird would store the result. */
export async function applyThunderbird(files: FileMap, edits: ThunderbirdEdit[]): Promise<FileMap> {
  const profile = new Profile(files);
  for (const [index, edit] of edits.entries()) {
    try {
      await applyOne(profile, edit);
    } catch (error) {
      throw new Error(`edit ${index} (${edit.op}): ${(error as Error).message}`);
    }
  }
  return profile.files;
}
