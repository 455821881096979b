/**
 * One named event given two dates, for the coherence node (coherence.ts). Deliberately narrow: a
 * false rejection throws away a good task, a missed one only lets a rare slip through.
 */

import { prose, SENTENCE, tidyWhitespace } from './proseOf.ts';

const MONTH_NAMES =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const WEEKDAY = '(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)[a-z]*,?\\s+';
/** A calendar date with a day and a month: "5 March", "March 5th, 2026", "Thursday 5 March", "2026-03-05". */
const DATE = new RegExp(
  `(?:${WEEKDAY})?(?:\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_NAMES})\\b\\.?(?:,?\\s+(\\d{4})\\b)?` +
    `|\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?` +
    `|\\b(\\d{4})-(\\d{2})-(\\d{2})\\b)`,
  'g',
);
const monthOf = (name: string) =>
  'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(name.slice(0, 3).toLowerCase()) / 3 + 1;

interface When {
  month: number;
  day: number;
  year?: number;
}
function when(m: RegExpMatchArray): When | undefined {
  const [, d1, m1, y1, m2, d2, y2, iy, im, id] = m;
  const w: When | undefined = d1
    ? { day: Number(d1), month: monthOf(m1!), ...(y1 ? { year: Number(y1) } : {}) }
    : m2
      ? { day: Number(d2), month: monthOf(m2), ...(y2 ? { year: Number(y2) } : {}) }
      : { day: Number(id), month: Number(im), year: Number(iy) };
  return w.day >= 1 && w.day <= 31 && w.month >= 1 && w.month <= 12 ? w : undefined;
}
const showWhen = (w: When) =>
  `${w.day} ${'January February March April May June July August September October November December'.split(' ')[w.month - 1]}${w.year ? ` ${w.year}` : ''}`;

/**
 * The last word of an event's name. One person's events (an interview, an appointment, a
 * deadline) are left out: two people's are two events under one name.
 */
const HEADS = new Set(
  'meeting review day sale night fair party dinner lunch breakfast conference workshop launch ceremony concert festival tournament seminar webinar briefing retreat assembly rehearsal exhibition auction gala celebration picnic agm social reception screening outing'.split(
    ' ',
  ),
);
/** Words that end an event's name when read backwards from its last word ("for the cake sale"). */
const BOUNDARY = new Set(
  'the a an our your their my his her its this that these those for to of at in on and or but with by from about after before is are was were be been will would can could should may might must has have had as if so than then when while during into until since per via please let know attend join come see'.split(
    ' ',
  ),
);
/** A name holding one of these is one occurrence among several ("the next board meeting"). */
const RELATIVE =
  /\b(?:next|last|previous|following|first|second|third|fourth|final|another|other|earlier|later|new|old|original|weekly|monthly|daily|fortnightly|yearly|year's|year’s|month's|month’s)\b/;
/** Said of a recurring event, anywhere in the sentence. */
const RECURRING =
  /\b(?:every|each|weekly|fortnightly|monthly|daily|biweekly|recurring|regular|regularly|usual|usually|always)\b/i;
/** Said of an event whose date changed: its two dates are its history, not a contradiction. */
const MOVED =
  /\b(?:moved|moving|move|postponed?|rescheduled?|brought forward|pushed back|put back|changed?|new date|instead|originally|delayed|cancell?ed|now)\b/i;
/** Between an event's name and its date: "on", "is on", "will take place on", ":", "—", ", Monday". */
const LINK =
  /(?:\s*(?:(?:is|was|will be|has been|is being|takes place|will take place|took place|is held|will be held|was held|is scheduled|is set|falls|happens)\s+)?on\s+|\s*[:,—–(]\s*|\s[-–—]\s*)$/;
/** After the date: a range or a second day ("5 March – 7 March", "5 March to the 7th"). */
const RANGE_AFTER = /^\s*(?:[-–—]|to|until|till|through|and|&)\s*(?:the\s+)?\d/;

interface Mention {
  name: string;
  when: When;
  list: object | undefined;
}

/** The event named right before a date: read back from a head noun to a boundary, two to four words. */
function eventName(before: string): string | undefined {
  const words = before.trimEnd().split(/\s+/);
  const out: string[] = [];
  for (let i = words.length - 1; i >= 0; i--) {
    const raw = words[i]!;
    // Punctuation inside the run ("Lunch, board meeting") ends the name before it.
    const bare = raw.replace(/^[("'“‘]+/, '');
    if (out.length > 0 && /[,.:;!?)"”]$/.test(raw)) break;
    const w = bare.toLowerCase().replace(/[,.:;!?)"”]+$/, '');
    if (out.length === 0 && !HEADS.has(w)) return undefined;
    if (BOUNDARY.has(w) || !/^[\p{L}][\p{L}'’&-]*$/u.test(w)) break;
    out.unshift(w);
    if (bare !== raw) break;
    if (out.length > 4) return undefined;
  }
  if (out.length < 2 || RELATIVE.test(out.join(' '))) return undefined;
  // "her performance review", "Ann's review": someone's own, and someone else's is another.
  const owner = words[words.length - out.length - 1]?.toLowerCase() ?? '';
  if (/^(?:his|her|their|my|your)$|['’]s?$/.test(owner) || /['’]s$/.test(out[0]!)) return undefined;
  return out.join(' ');
}

function mentions(text: string, list: object | undefined, out: Mention[]): void {
  for (const sentence of text.split(SENTENCE)) {
    if (RECURRING.test(sentence)) continue;
    const dates = [...sentence.matchAll(DATE)];
    // Two dates in one sentence are a range, a list or a change: none is the event's one date.
    if (dates.length !== 1) continue;
    const d = dates[0]!;
    const w = when(d);
    if (!w || RANGE_AFTER.test(sentence.slice(d.index! + d[0].length))) continue;
    const before = sentence.slice(0, d.index);
    const link = LINK.exec(before);
    if (!link) continue;
    const name = eventName(before.slice(0, link.index));
    if (name) out.push({ name, when: w, list });
  }
}

const differ = (a: When, b: When) =>
  a.month !== b.month || a.day !== b.day
    ? a.year === undefined || b.year === undefined || a.year === b.year
    : false;

/**
 * One event, two dates: the same name ("the cake sale", "Board meeting") tied straight to two
 * different days across the instruction and the files. Not compared: names holding an ordinal or
 * a recurrence ("next", "weekly"), sentences about a recurring or moved event, ranges, a sentence
 * with two dates, dates in different years, two items of one list (a schedule), a name seen with
 * three dates or more (a series), sheets (tables list occurrences), and an event whose name or
 * either date the task's changes hold (the task is to set its date right).
 */
export function eventDateProblems(instruction: string, docs: unknown[], changes?: unknown): string[] {
  const all: [string, object | undefined][] = [[tidyWhitespace(instruction), undefined], ...prose(docs)];
  const found: Mention[] = [];
  for (const [text, list] of all) mentions(text, list, found);
  const changesText = JSON.stringify(changes ?? null);
  const changed = {
    name: changesText.toLowerCase(),
    days: new Set(
      [...changesText.matchAll(DATE)].flatMap((d) => {
        const w = when(d);
        return w ? [`${w.month}-${w.day}`] : [];
      }),
    ),
  };
  const out: string[] = [];
  const byName = new Map<string, Mention[]>();
  for (const m of found) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  for (const [name, ms] of byName) {
    const days = new Set(ms.map((m) => `${m.when.month}-${m.when.day}`));
    if (days.size !== 2) continue;
    if (all.some(([t]) => t.toLowerCase().includes(name) && MOVED.test(t))) continue;
    if (changed.name.includes(name) || ms.some((m) => changed.days.has(`${m.when.month}-${m.when.day}`)))
      continue;
    const a = ms[0]!;
    const b = ms.find((m) => differ(a.when, m.when));
    if (!b || (a.list && a.list === b.list)) continue;
    out.push(`"${name}" is on ${showWhen(a.when)} and on ${showWhen(b.when)}`);
  }
  return out;
}
