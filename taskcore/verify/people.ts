/**
 * People as a task's content names them: a display name beside an address ("Ann Lee <ann@…>", or
 * {name, email} in a generator's output), and whether the two belong together. Shared by the
 * coherence node (taskcore/verify/coherence.ts) and the round's content figures (app/contentFigures.ts).
 */

export const ROLE_LOCALS = new Set(
  'office info accounts account admin support help helpdesk team hello contact sales billing orders hr it finance reception noreply no-reply bookings booking events press news newsletter payroll facilities operations ops service services enquiries inquiries mail me owner staff all everyone it-support team-leads managers board committee volunteers members alerts notifications updates statements receipts invoices jobs careers recruiting marketing membership'.split(
    ' ',
  ),
);

export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Whether a display name fits an address: the local part holds one of the name's words (three
 * letters or more), or is a role address (office@, accounts@…), or the name is an organisation's
 * whose words make up the domain ("City Library <notices@citylibrary.org>"), or not a person's.
 */
export function nameMatchesAddress(name: string, address: string): boolean {
  const local = fold(address.split('@')[0] ?? '');
  if (ROLE_LOCALS.has(local) || ROLE_LOCALS.has(local.replace(/[^a-z]/g, ''))) return true;
  const words = fold(name)
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3);
  if (words.length === 0) return true;
  const letters = local.replace(/[^a-z]/g, '');
  if (words.some((w) => letters.includes(w))) return true;
  const domain = fold(address.split('@')[1] ?? '').replace(/[^a-z]/g, '');
  if (words.every((w) => domain.includes(w))) return true;
  // Initials of a name of two or more words, as in "jd@…" for John Doe.
  const initials = fold(name)
    .split(/[^a-z]+/)
    .filter(Boolean)
    .map((w) => w[0])
    .join('');
  return initials.length >= 2 && letters === initials;
}

// A display name right before its address: capitalised words (and name particles), optionally quoted.
const NAMED_ADDRESS =
  /"?([A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|de|van|von|da|di|del|le|la|der|&)){0,4})"?\s*<([^<>\s@]+@[^<>\s]+)>/g;
const NAME_KEY = /^(name|full_?name|display_?name|sender_?name|from_?name|contact|person)$/i;
const EMAIL_KEY = /^(e-?mail|address|email_?address|sender_?email|from_?email)$/i;

export interface Pair {
  name: string;
  address: string;
}

/** Name and address pairs in a value: "Name <addr>" strings and {name, email} objects. */
export function namedAddresses(value: unknown, out: Pair[] = []): Pair[] {
  if (typeof value === 'string') {
    for (const m of value.matchAll(NAMED_ADDRESS))
      out.push({ name: m[1]!.trim(), address: m[2]!.toLowerCase() });
  } else if (Array.isArray(value)) {
    for (const v of value) namedAddresses(v, out);
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const email = entries.find(([k, v]) => EMAIL_KEY.test(k) && typeof v === 'string' && v.includes('@'));
    let name = entries.find(([k, v]) => NAME_KEY.test(k) && typeof v === 'string')?.[1] as string | undefined;
    if (name === undefined) {
      const first = entries.find(([k]) => /^first_?name$/i.test(k))?.[1];
      const last = entries.find(([k]) => /^last_?name$/i.test(k))?.[1];
      if (typeof first === 'string' && typeof last === 'string') name = `${first} ${last}`;
    }
    if (email && name && !name.includes('@')) out.push({ name, address: (email[1] as string).toLowerCase() });
    for (const [, v] of entries) namedAddresses(v, out);
  }
  return out;
}
