import { textOf } from '../../preparers/discovery.ts';
import { eventDateProblems } from './eventDates.ts';
import { fold, namedAddresses, nameMatchesAddress, ROLE_LOCALS } from './people.ts';
import { sheetFigureProblems } from './sheetFigures.ts';

/**
 * Whether a task's artefacts contradict each other or themselves, in ways a reader notices and a
 * machine can tell for sure: one address given to two people, a name on someone else's address, a
 * mail signed by someone other than its sender, a weekday that is not that date's, one event on two
 * dates, a figure in prose that the sheet contradicts (eventDates.ts, sheetFigures.ts). What the
 * instruction says and what the files hold are read together (reason `content_incoherent`).
 */
export interface CoherenceInput {
  instruction: string;
  /** The task's prepared documents (each app's own shape: messages, sheets, slides, files). */
  docs: unknown[];
  /**
   * What the task asks to change (the oracle's edits, the checks): a figure named there is the
   * one the agent is to put in, so prose quoting it is not contradicted by the sheet's old one.
   */
  changes?: unknown;
}

/** Strings longer than this are file payloads (pictures, archives), not prose. */
const MAX_PROSE = 200_000;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAY = '(Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)(?:day|nesday|sday|urday|rsday)?';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*';
// "Monday, 3 March 2025", "Mon 3 Mar 2025", "Monday, March 3rd, 2025".
const DAY_FIRST = new RegExp(`\\b${DAY},? (\\d{1,2})(?:st|nd|rd|th)? ${MONTH},? (\\d{4})\\b`, 'g');
const MONTH_FIRST = new RegExp(`\\b${DAY},? ${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'g');

const indexOf = (names: string[], prefix: string) =>
  names.findIndex((n) => n.startsWith(prefix.toLowerCase()));

/** A weekday written beside a date it does not fall on. */
function weekdayProblems(text: string): string[] {
  const out: string[] = [];
  const check = (whole: string, day: string, date: number, month: string, year: number) => {
    const m = indexOf(MONTHS, month.slice(0, 3));
    const d = indexOf(WEEKDAYS, day.slice(0, 3));
    if (m < 0 || d < 0 || date < 1 || date > 31) return;
    const actual = new Date(Date.UTC(year, m, date));
    // "31 February" is a date that does not exist: as wrong as the wrong weekday.
    if (actual.getUTCMonth() !== m) out.push(`"${whole}" is not a date`);
    else if (actual.getUTCDay() !== d) out.push(`"${whole}" falls on a ${WEEKDAYS[actual.getUTCDay()]}`);
  };
  for (const x of text.matchAll(DAY_FIRST)) check(x[0], x[1]!, Number(x[2]), x[3]!, Number(x[4]));
  for (const x of text.matchAll(MONTH_FIRST)) check(x[0], x[1]!, Number(x[3]), x[2]!, Number(x[4]));
  return out;
}

/** Words of a name, folded: "Zoë O'Neil" → ["zoe", "o", "neil"]. */
const nameWords = (name: string) =>
  fold(name)
    .split(/[^a-z]+/)
    .filter(Boolean);

const isRole = (address: string) => {
  const local = fold(address.split('@')[0] ?? '');
  return ROLE_LOCALS.has(local) || ROLE_LOCALS.has(local.replace(/[^a-z]/g, ''));
};

/** Two names of one address that cannot be the same person ("Ann Lee" and "Ann" can). */
function samePerson(a: string, b: string): boolean {
  const wa = nameWords(a);
  const wb = nameWords(b);
  return wa.every((w) => wb.includes(w)) || wb.every((w) => wa.includes(w));
}

function peopleProblems(values: unknown[]): string[] {
  const out: string[] = [];
  const byAddress = new Map<string, string>();
  for (const { name, address } of namedAddresses(values)) {
    if (!nameMatchesAddress(name, address)) {
      out.push(`"${name}" is named on ${address}`);
      continue;
    }
    if (isRole(address)) continue;
    const earlier = byAddress.get(address);
    if (earlier === undefined) byAddress.set(address, name);
    else if (!samePerson(earlier, name)) out.push(`${address} belongs to both "${earlier}" and "${name}"`);
  }
  return [...new Set(out)];
}

const CLOSING =
  /^(?:thanks|thank you|many thanks|thanks again|best|best wishes|best regards|all the best|regards|kind regards|warm regards|cheers|sincerely|yours sincerely|yours|speak soon|talk soon)[,.!]?$/i;
const SENDER = /^\s*"?([^"<]+?)"?\s*<([^<>\s]+@[^<>\s]+)>\s*$/;

/** The first word of the name a letter is signed with: the line after its closing ("Best,\nAnn"). */
function signedName(body: string): string | undefined {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  // The closing sits near the end; anything after the signature (a title, a phone) is allowed.
  for (let i = lines.length - 2; i >= Math.max(0, lines.length - 6); i--) {
    if (!CLOSING.test(lines[i]!)) continue;
    const first = /^([A-Z][\p{L}'’-]+)\b/u.exec(lines[i + 1]!)?.[1];
    return first;
  }
  return undefined;
}

/** Every object shaped like a letter: a sender "Name <address>" and a plain-text body. */
function letters(v: unknown, out: { from: string; text: string }[] = []): { from: string; text: string }[] {
  if (Array.isArray(v)) for (const x of v) letters(x, out);
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.from === 'string' && typeof o.text === 'string') out.push({ from: o.from, text: o.text });
    for (const x of Object.values(o)) letters(x, out);
  }
  return out;
}

/** A mail from a person signed with another person's name. A team's mail may be signed by anyone in it. */
function signatureProblems(docs: unknown[]): string[] {
  const out: string[] = [];
  for (const { from, text } of letters(docs)) {
    const sender = SENDER.exec(from);
    if (!sender || isRole(sender[2]!)) continue;
    const words = nameWords(sender[1]!);
    if (words.length < 2) continue;
    const signed = signedName(text);
    if (!signed) continue;
    const s = fold(signed);
    // A short form of one's own name ("Rob" for Robert) is one's name.
    const own = words.some((w) => w === s || (s.length >= 3 && w.startsWith(s)));
    if (!own) out.push(`a mail from "${sender[1]}" is signed "${signed}"`);
  }
  return out;
}

/** What contradicts what, one line each; empty when the task's content holds together. */
export function coherenceProblems(input: CoherenceInput): string[] {
  const texts = [input.instruction, ...textOf(input.docs)].filter((s) => s.length <= MAX_PROSE);
  return [
    ...peopleProblems([input.instruction, input.docs]),
    ...signatureProblems(input.docs),
    ...new Set(texts.flatMap(weekdayProblems)),
    ...eventDateProblems(input.instruction, input.docs, input.changes),
    ...sheetFigureProblems(input.instruction, input.docs, input.changes),
  ];
}
