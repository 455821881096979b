import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { ContactSpec, MailingListSpec } from './schema.ts';

/** The Personal Address Book file Thunderbird opens by default (ldap_2.servers.pab). */
export const ADDRESS_BOOK_FILE = 'abook.sqlite';
/** Schema version Thunderbird 153 stamps on abook.sqlite (PRAGMA user_version). */
const SCHEMA_VERSION = 4;

const SCHEMA = `
  CREATE TABLE properties (card TEXT, name TEXT, value TEXT);
  CREATE TABLE lists (uid TEXT PRIMARY KEY, name TEXT, nickName TEXT, description TEXT);
  CREATE TABLE list_cards (list TEXT, card TEXT, PRIMARY KEY(list, card));
  CREATE INDEX properties_card ON properties(card);
  CREATE INDEX properties_name ON properties(name);
`;

export interface StoredContact {
  uid: string;
  name: string;
  email: string;
  /** Phone numbers of the card's vCard (TEL lines), as written. */
  phones: string[];
}

function vcardEscape(value: string): string {
  return value.replace(/[\\,;]/g, '\\$&').replace(/\n/g, '\\n');
}

/** Since Thunderbird 102 a card is a vCard (`_vCard`) plus the legacy properties it indexes. */
function cardProperties(contact: ContactSpec): Record<string, string> {
  const first = contact.firstName ?? '';
  const last = contact.lastName ?? '';
  const lines = [
    'BEGIN:VCARD',
    'VERSION:4.0',
    `FN:${vcardEscape(contact.name)}`,
    `N:${vcardEscape(last)};${vcardEscape(first)};;;`,
    `EMAIL;PREF=1:${contact.email}`,
    ...(contact.nickname ? [`NICKNAME:${vcardEscape(contact.nickname)}`] : []),
    ...(contact.phone ? [`TEL;TYPE=work;VALUE=TEXT:${vcardEscape(contact.phone)}`] : []),
    ...(contact.organization ? [`ORG:${vcardEscape(contact.organization)}`] : []),
    'END:VCARD',
  ];
  const props: Record<string, string> = {
    _vCard: `${lines.join('\r\n')}\r\n`,
    DisplayName: contact.name,
    PrimaryEmail: contact.email,
    LastModifiedDate: '1704067200',
    PopularityIndex: '0',
  };
  if (first) props.FirstName = first;
  if (last) props.LastName = last;
  if (contact.nickname) props.NickName = contact.nickname;
  return props;
}

function uidFor(contact: ContactSpec): string {
  const hex = createHash('sha256').update(`${contact.email}\n${contact.name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function open(bytes: Uint8Array | undefined): Database.Database {
  if (bytes !== undefined && bytes.length > 0) return new Database(Buffer.from(bytes));
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return db;
}

/** abook.sqlite with `contacts` added to `existing` (or to a new, empty book). */
export function writeContacts(existing: Uint8Array | undefined, contacts: ContactSpec[]): Uint8Array {
  const db = open(existing);
  try {
    const insert = db.prepare('INSERT INTO properties (card, name, value) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const contact of contacts) {
        const uid = uidFor(contact);
        for (const [name, value] of Object.entries(cardProperties(contact))) insert.run(uid, name, value);
      }
    })();
    return new Uint8Array(db.serialize());
  } finally {
    db.close();
  }
}

/** The cards of an abook.sqlite: display name and primary e-mail. */
export function readContacts(bytes: Uint8Array): StoredContact[] {
  const db = new Database(Buffer.from(bytes), { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT card, name, value FROM properties WHERE name IN ('DisplayName', 'PrimaryEmail', '_vCard')",
      )
      .all() as { card: string; name: string; value: string }[];
    const cards = new Map<string, StoredContact>();
    for (const row of rows) {
      const card = cards.get(row.card) ?? { uid: row.card, name: '', email: '', phones: [] };
      if (row.name === 'DisplayName') card.name = row.value;
      else if (row.name === 'PrimaryEmail') card.email = row.value;
      else {
        // Cards Thunderbird itself saved may hold the data only in the vCard.
        card.name ||= /^FN[^:]*:(.*)$/m.exec(row.value)?.[1]?.trim().replace(/\\(.)/g, '$1') ?? '';
        card.email ||= /^EMAIL[^:]*:(.*)$/m.exec(row.value)?.[1]?.trim() ?? '';
        for (const m of row.value.matchAll(/^TEL[^:]*:(.*)$/gm))
          card.phones.push(m[1]!.trim().replace(/\\(.)/g, '$1'));
      }
      cards.set(row.card, card);
    }
    return [...cards.values()];
  } finally {
    db.close();
  }
}

/** A mailing list of the book with its members' e-mails. */
export interface StoredList {
  name: string;
  members: string[];
}

/** "Ann Lee <ann@x.org>" → name and e-mail; a bare address names itself. */
function splitAddress(address: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(address);
  if (match === null) return { name: address.trim(), email: address.trim() };
  return { name: match[1]!.trim() || match[2]!.trim(), email: match[2]!.trim() };
}

/**
 * abook.sqlite with a mailing list added: each member is the card with that e-mail, or a new
 * card when the book has none (Thunderbird adds one for an address typed into a list).
 */
export function writeMailingList(existing: Uint8Array | undefined, list: MailingListSpec): Uint8Array {
  const people = list.members.map(splitAddress);
  const known = new Set(
    (existing === undefined || existing.length === 0 ? [] : readContacts(existing)).map((c) =>
      c.email.toLowerCase(),
    ),
  );
  const missing = people.filter((p) => !known.has(p.email.toLowerCase()));
  const db = open(writeContacts(existing, missing));
  try {
    const cardOf = db.prepare(
      "SELECT card FROM properties WHERE name = 'PrimaryEmail' AND lower(value) = lower(?) LIMIT 1",
    );
    const uid = uidFor({ name: list.name, email: '' });
    db.transaction(() => {
      db.prepare('INSERT INTO lists (uid, name, nickName, description) VALUES (?, ?, ?, ?)').run(
        uid,
        list.name,
        list.nickname ?? '',
        list.description ?? '',
      );
      const link = db.prepare('INSERT OR IGNORE INTO list_cards (list, card) VALUES (?, ?)');
      for (const person of people) {
        const row = cardOf.get(person.email) as { card: string } | undefined;
        if (row !== undefined) link.run(uid, row.card);
      }
    })();
    return new Uint8Array(db.serialize());
  } finally {
    db.close();
  }
}

/** The book's mailing lists with their member cards' e-mails (from the vCard when need be). */
export function readMailingLists(bytes: Uint8Array): StoredList[] {
  const emails = new Map(readContacts(bytes).map((c) => [c.uid, c.email]));
  const db = new Database(Buffer.from(bytes), { readonly: true });
  try {
    const lists = db.prepare('SELECT uid, name FROM lists ORDER BY name').all() as {
      uid: string;
      name: string;
    }[];
    const cards = db.prepare('SELECT card FROM list_cards WHERE list = ?');
    return lists.map((l) => ({
      name: l.name,
      members: (cards.all(l.uid) as { card: string }[])
        .map((m) => emails.get(m.card) ?? '')
        .filter(Boolean)
        .sort(),
    }));
  } finally {
    db.close();
  }
}
