import { en, Faker } from '@faker-js/faker';
import { z } from 'zod';
import {
  type ContentQuota,
  type ContentSet,
  contentSetSchema,
  offlineContentPool,
  TOPIC_SENTENCES,
  wantsTopics,
} from '../../llm/offline/content/kit.ts';
import { drawOrganisation, drawPerson } from '../../llm/offline/content/people.ts';
import { TOWNS } from '../../llm/offline/content/towns.ts';
import type { FramePart, ProseKind, ProseSource } from '../generate.ts';
import { deriveSeed, Rng } from '../random.ts';
import type { SkillSpec } from '../schema.ts';
import { LINES_PER_PARAGRAPH } from './demand.ts';
import { documentType } from './documentTypes.ts';

/**
 * Pooled content: one llm call writes the prose (titles, sentences, paragraphs, product names) for
 * a pool of tasks of a skill; each task takes its own set. Tasks of a pool send the very same
 * request, so the response cache answers all but the first, and the ledger still has one row per
 * task (the first with the tokens, the others as cache hits at $0).
 */
export const CONTENT_POOL_SIZE = 3;
export const CONTENT_NODE_ID = 'content';

const QUOTA: Record<'titles' | 'sentences' | 'paragraphs' | 'products', number> = {
  titles: 10,
  sentences: 14,
  paragraphs: 8,
  products: 10,
};

/** The most loose sentences a set is asked for, however many a task may draw. */
const MAX_SENTENCES = 40;

/**
 * What the content call must produce per set, from the prose kinds the spec's fields use and the
 * most lines one task may draw (`lines`, see demand.ts): beyond what the topics' lines and the
 * set's paragraphs hold, a set brings that many loose sentences, so a task's lists and mailboxes
 * do not come round again (os.files.backup-copy draws up to 38 lines, and 14 made its notes
 * repeat themselves).
 */
export function quotaFor(kinds: readonly ProseKind[], lines = 0): ContentQuota {
  const has = (...k: ProseKind[]) => k.some((x) => kinds.includes(x));
  const quota = {
    titles: has('title', 'words') ? QUOTA.titles : 0,
    sentences: has('sentence') ? QUOTA.sentences : 0,
    paragraphs: has('paragraph') ? QUOTA.paragraphs : 0,
    products: has('product', 'word') ? QUOTA.products : 0,
  };
  if (quota.sentences > 0) {
    const held =
      (wantsTopics(quota) ? quota.titles * TOPIC_SENTENCES : 0) + LINES_PER_PARAGRAPH * quota.paragraphs;
    quota.sentences = Math.min(MAX_SENTENCES, Math.max(quota.sentences, lines - held));
  }
  return quota;
}

/** One schema per (quota, pool size): every task of a pool asks with it (and its JSON Schema is built once). */
const poolSchemas = new Map<string, ReturnType<typeof buildPoolSchema>>();

export function contentPoolSchema(quota: ContentQuota, poolSize: number) {
  const key = `${quota.titles}/${quota.sentences}/${quota.paragraphs}/${quota.products}/${poolSize}`;
  let schema = poolSchemas.get(key);
  if (!schema) {
    schema = buildPoolSchema(quota, poolSize);
    poolSchemas.set(key, schema);
  }
  return schema;
}

function buildPoolSchema(quota: ContentQuota, poolSize: number) {
  const atLeast = (n: number) => z.array(z.string()).min(n);
  const topics = wantsTopics(quota);
  const set = contentSetSchema.extend({
    // With topics the titles are the topics' own: a separate list is optional.
    titles: atLeast(topics ? 0 : quota.titles),
    topics: z
      .array(z.object({ title: z.string(), sentences: atLeast(TOPIC_SENTENCES) }).strict())
      .min(topics ? quota.titles : 0),
    sentences: atLeast(quota.sentences),
    paragraphs: atLeast(quota.paragraphs),
    products: atLeast(quota.products),
  });
  return z
    .object({ sets: z.array(set).min(poolSize) })
    .strict()
    .superRefine((v, ctx) => {
      const text = JSON.stringify(v);
      if (/\blorem\b|\bipsum\b|\bdolor sit\b/i.test(text))
        ctx.addIssue({ code: 'custom', message: 'placeholder Latin is not content' });
      const unknown = text.match(/\{(?!person\}|person2\}|date\}|place\}|org\}|amount\})[a-z0-9_]*\}/i);
      if (unknown) ctx.addIssue({ code: 'custom', message: `unknown slot ${unknown[0]}` });
    });
}

const SLOT_HELP =
  'Where a name, date, place, organisation or amount belongs, write the slot {person}, {person2}, {date}, {place}, {org} or {amount}; the engine fills them per task.';

/** The request every task of a pool sends: identical bytes, so the cache serves the pool. */
export function contentPrompt(spec: SkillSpec, domain: string, quota: ContentQuota, poolSize: number) {
  const topics = wantsTopics(quota);
  const wants = [
    topics
      ? `${quota.titles} topics, each a short title (2 to 7 words, as for slides, headings or e-mail subjects) with ${TOPIC_SENTENCES} sentences (8 to 25 words) written about exactly that title, as its slide's bullets or its section's lines`
      : quota.titles
        ? `${quota.titles} short titles (2 to 7 words, as for slides, headings or e-mail subjects)`
        : '',
    quota.sentences
      ? `${quota.sentences} ${topics ? 'further ' : ''}single sentences (8 to 25 words, as for bullets or memo lines)`
      : '',
    quota.paragraphs
      ? `${quota.paragraphs} paragraphs (2 to 4 sentences, as in a memo, report or e-mail)`
      : '',
    quota.products ? `${quota.products} product or item names (2 to 5 words, as in a price list)` : '',
  ].filter(Boolean);
  return [
    `Write English workplace content for ${poolSize} separate tasks of the skill "${spec.title}" (${spec.description}).`,
    `The organisation works in ${domain}. Each task gets its own set with: ${wants.join('; ')}.`,
    'Sets share no text. Write like real people at work: concrete, plain, grammatical; no marketing slogans, no filler.',
    SLOT_HELP,
  ].join('\n');
}

export function poolKeyFor(roundId: string, spec: SkillSpec, domain: string, taskIndex: number): string {
  return `${roundId}|${spec.id}|${domain}|pool-${Math.floor(taskIndex / CONTENT_POOL_SIZE)}`;
}

export function offlineAnswer(domain: string, quota: ContentQuota, poolKey: string) {
  return offlineContentPool(domain, quota, CONTENT_POOL_SIZE, deriveSeed(poolKey, 'content'));
}

/** The task's people, dates and places, fixed per task so a document names the same cast throughout. */
export function castFor(taskSeed: number) {
  const faker = new Faker({ locale: [en], seed: deriveSeed(taskSeed, 'cast') });
  const rng = new Rng(deriveSeed(taskSeed, 'cast-dates'));
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'September',
    'October',
    'November',
  ];
  const dates = Array.from({ length: 4 }, () => `${rng.int(1, 28)} ${rng.pick(months)}`);
  const person = drawPerson(rng);
  let person2 = drawPerson(rng);
  // Two colleagues, not relatives, told apart by first name too: a second person never shares
  // the first one's surname or first name (a mail about "Hugo" must say which).
  while (person2.last === person.last || person2.first === person.first) person2 = drawPerson(rng);
  const place = TOWNS[faker.number.int(TOWNS.length - 1)]!;
  const org = drawOrganisation(rng);
  // The organisation the task's documents come from, never the partner {org} their lines mention.
  let ours = drawOrganisation(rng);
  while (ours === org) ours = drawOrganisation(rng);
  // A partner whose line says what it does is one of that trade, the same one all through the task.
  const partners = ORG_ROLES.map(([, trades], i) => {
    const r = new Rng(deriveSeed(taskSeed, 'org-role', i));
    let name = drawOrganisation(r, trades);
    while (name === ours) name = drawOrganisation(r, trades);
    return name;
  });
  return {
    person: person.name,
    person2: person2.name,
    place,
    org,
    /** The partner a sentence names: of the trade its words say, else the task's one partner. */
    orgIn: (sentence: string) => {
      const role = ORG_ROLES.findIndex(([words]) => words.test(sentence));
      return role < 0 ? org : partners[role]!;
    },
    ours,
    amount: () => `£${(rng.int(12, 480) * 25).toLocaleString('en-GB')}`,
    // One sentence, one date for the whole task: "the cake sale on {date}" in a deck and in a mail
    // of the same task names the same day (the coherence node rejects an event given two dates).
    // A sentence about a season gets a day in it ("the summer fair on 4 February" reads wrong).
    date: (sentence: string) => {
      const key = deriveSeed(taskSeed, 'date', sentence);
      const season = seasonOf(sentence);
      if (!season) return dates[key % dates.length]!;
      const within = dates.filter((d) => season.includes(d.slice(d.indexOf(' ') + 1)));
      return within.length > 0
        ? within[key % within.length]!
        : `${1 + (key % 28)} ${season[Math.floor(key / 28) % season.length]}`;
    },
  };
}

/** What a partner organisation does, read off the sentence naming it; the first that fits. */
const ORG_ROLES: [RegExp, string[]][] = [
  [/\b(grant|funding|matched gift|appeal)\b/i, ['Trust', 'Foundation', 'Community Fund']],
  [/\b(audit|auditors)\b/i, ['Accountants', 'Audit Partners']],
  [/\b(deliver|deliveries|supplier|stock)\w*/i, ['Logistics', 'Wholesale', 'Supplies', 'Distribution']],
  [/\b(cater|catering)\w*/i, ['Catering', 'Kitchen Catering']],
  [/\b(broadband|phone contract)\b/i, ['Telecom', 'Broadband']],
  [/\b(locum|doctors?|physiotherapy|nurses?)\b/i, ['Medical Staffing', 'Health Partners', 'Physio']],
  [/\b(laptops?|software|release|calendar invites?|servers?)\b/i, ['IT Services', 'Software', 'Systems']],
  [/\b(pipette|experiment|laboratory|lab)\b/i, ['Scientific', 'Lab Supplies', 'Research Partners']],
  [/\b(measured up|quote|roof|builders?)\b/i, ['Builders', 'Joinery', 'Kitchens']],
  [/\binspection\b/i, ['Inspections', 'Compliance']],
  [/\b(coats|donated|sponsor)\w*/i, ['Outfitters', 'Print', 'Energy', 'Logistics']],
];

const SEASONS: [RegExp, string[]][] = [
  [/\bspring\b/i, ['March', 'April', 'May']],
  [/\bsummer\b/i, ['June', 'July', 'August']],
  [/\bautumn\b/i, ['September', 'October', 'November']],
  [/\bchristmas\b/i, ['December']],
  [/\bwinter\b/i, ['December', 'January', 'February']],
];

/**
 * The months a sentence's season puts its date in; none when it names no season, or names one as
 * a time the date is before or after ("book summer leave before {date}" may be in March).
 */
export function seasonOf(sentence: string): string[] | undefined {
  for (const [word, months] of SEASONS) {
    const m = word.exec(sentence);
    if (!m) continue;
    const before = sentence.slice(0, m.index).toLowerCase().split(/\s+/).slice(-3).join(' ');
    if (/\b(before|after|until|till|by|next|last|since)\b/.test(before)) return undefined;
    // "book summer leave before {date}": the date is a deadline for the season, not in it.
    if (/\b(before|by|until)\s+\{date\}/i.test(sentence)) return undefined;
    return months;
  }
  return undefined;
}

/** A paragraph's sentences, as the set's single sentences are written. */
function sentencesIn(paragraph: string): string[] {
  return (paragraph.match(/[^.!?]+[.!?]+/g) ?? []).map((s) => s.trim());
}

/** The template sentence a slot sits in: from the end of the sentence before it to the end of its own. */
function sentenceAround(text: string, at: number): string {
  const start = Math.max(...['.', '!', '?', '\n'].map((p) => text.lastIndexOf(p, at)));
  const ends = /[.!?\n]/.exec(text.slice(at));
  return text.slice(start + 1, ends ? at + ends.index : text.length).trim();
}

const VARIANTS = {
  titles: ['follow-up', 'update', 'next steps', 'questions', 'second round', 'final version'],
  products: ['large', 'small', 'blue', 'grey', 'pack of 2', 'refill', 'deluxe', 'travel size'],
};

/**
 * What a message under a variant title says once its subject's lines are spent: a follow-up mail
 * ("Budget review: follow-up") is a short note about the first one, not lines of another subject.
 */
const FOLLOW_UPS: Record<string, string> = {
  'follow-up': 'Is there anything still missing on {t} from your side, or can we close it?',
  update: 'Nothing has changed on {t} since my last message, but I will tell you as soon as it does.',
  'next steps': 'I will draft the next steps on {t} and send them round by the end of the week.',
  questions:
    'A couple of questions about {t} came up at the team meeting; could we go through them on a call?',
  'second round': 'The second round on {t} is open now, so please send me any comments you still have.',
  'final version':
    'The final version of {t} is in the shared folder now; tell me if anything in it is wrong.',
};

/**
 * The task's prose source over its content set: pieces in order, slots filled with the task's
 * cast; when a task needs more than its set holds, titles and products get plain variants and
 * paragraphs are recombined from the set's own sentences.
 *
 * Topics: after a title is drawn, sentences and paragraphs come from that title's topic (a
 * record's body after its subject, the bullets after a slide's title, until the next title);
 * `about` asks for the topic of the n-th title of the latest run of titles instead (a deck's
 * bullets drawn after all its titles). A topic's sentence is handed out once, so no line sits on two slides; when a topic
 * is spent, or there is none, the set's loose sentences serve as before.
 */
export function proseSourceFor(set: ContentSet, taskSeed: number): ProseSource {
  const cast = castFor(taskSeed);
  const fill = (text: string) =>
    text
      // Dates first: a date is keyed by its sentence as written, before amounts are drawn into it.
      .replace(/\{date\}/g, (_slot, at: number, whole: string) => cast.date(sentenceAround(whole, at)))
      .replace(/\{person\}/g, cast.person)
      .replace(/\{person2\}/g, cast.person2)
      .replace(/\{place\}/g, cast.place)
      .replace(/\{org\}/g, (_slot, at: number, whole: string) => cast.orgIn(sentenceAround(whole, at)))
      .replace(/\{amount\}/g, () => cast.amount());
  const topics = set.topics ?? [];
  const topicOf = new Map(topics.map((t) => [t.title, t]));
  const titles = topics.length
    ? [...topics.map((t) => t.title), ...set.titles.filter((t) => !topicOf.has(t))]
    : set.titles;
  const topicSentences = new Set(topics.flatMap((t) => t.sentences));
  const sentencesFromParagraphs = set.paragraphs.flatMap(sentencesIn);
  const allSentences = [
    ...set.sentences,
    ...sentencesFromParagraphs.filter((x) => !set.sentences.includes(x)),
  ];
  // Loose sentences are not a topic's: those stay for their titles.
  const looseSentences = allSentences.filter((x) => !topicSentences.has(x));
  // A sentence handed out on its own never also sits inside a paragraph handed out to the same
  // task: a document would say it twice (and "this sentence appears once" would be ambiguous).
  const givenParagraphs: string[] = [];
  const used = new Set<string>();
  const fresh = (x: string) => !used.has(x) && !givenParagraphs.some((p) => p.includes(x));
  /** The topic of each title drawn so far, in order; the latest is the current one. */
  const drawn: ({ title: string; sentences: string[] } | undefined)[] = [];
  // `about` counts from the first title of the latest run of titles (a deck's title node): a
  // composite's earlier steps may have drawn titles of their own.
  let runStart = 0;
  let lastWasTitle = false;
  const topicFor = (about?: number) => {
    lastWasTitle = false;
    return about === undefined ? drawn.at(-1) : drawn[runStart + about];
  };
  const counters = new Map<string, number>();
  const take = (key: string) => {
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    return n;
  };
  // `spread`: consecutive items get different variants ("Budget: follow-up", "Travel: update"), as
  // an Inbox's later mails are not all follow-ups.
  const cycled = (
    items: string[],
    variants: string[],
    n: number,
    join: (a: string, v: string) => string,
    spread = false,
  ) => {
    if (items.length === 0) throw new Error('the content set has no items of this kind');
    const base = items[n % items.length]!;
    const round = Math.floor(n / items.length);
    return round === 0 ? base : join(base, variants[(round - 1 + (spread ? n : 0)) % variants.length]!);
  };
  // Titles are handed out in order, except that a title whose topic lines an earlier file of the
  // task already used (a composite's memo before its deck) waits: its slide would get loose lines.
  const remaining = [...titles];
  const nextTitle = () => {
    if (remaining.length === 0)
      return cycled(
        titles,
        VARIANTS.titles,
        titles.length + take('title-variant'),
        (a, v) => `${a}: ${v}`,
        true,
      );
    const lines = (t: string) => {
      const topic = topicOf.get(t);
      return topic ? Math.min(3, topic.sentences.filter(fresh).length) : 0;
    };
    let best = 0;
    for (let j = 1; j < remaining.length; j++) if (lines(remaining[j]!) > lines(remaining[best]!)) best = j;
    return remaining.splice(best, 1)[0]!;
  };
  /**
   * Lines for text whose own topic has none left: loose ones first; then the fresh lines of topics
   * whose titles this task has not drawn; then any fresh line rather than one the task already has.
   */
  const spareLines = () => [
    ...looseSentences,
    ...topics.filter((t) => !drawn.includes(t)).flatMap((t) => t.sentences.filter(fresh)),
    ...topics.filter((t) => drawn.includes(t)).flatMap((t) => t.sentences.filter(fresh)),
  ];
  /** The lines handed out since the latest title: the document (or slide) that title heads. */
  const sinceTitle = new Set<string>();
  let latestTitle = '';
  /** Variant titles whose follow-up note is out: a second paragraph under one says something else. */
  const noted = new Set<string>();
  /** A paragraph of a topic's lines, handed out: its lines are spent. */
  const paragraphOf = (lines: string[]) => {
    for (const x of lines) {
      used.add(x);
      sinceTitle.add(x);
    }
    givenParagraphs.push(lines.join(' '));
    return fill(lines.join(' '));
  };
  const source: ProseSource = {
    frame(name: string, part: FramePart, left = 1, of?: string): string {
      const type = documentType(name);
      if (part === 'body') {
        // The subject's lines shared out over the body paragraphs still to come, one to three
        // each, so a long document stays on its subject instead of spending it in one paragraph.
        const topic = topicFor();
        const own = topic?.sentences.filter(fresh) ?? [];
        if (own.length > 0)
          return paragraphOf(own.slice(0, Math.min(3, Math.ceil(own.length / Math.max(1, left)))));
        // Its subject spent by the task's other files (a composite's mail drew its lines as spare
        // ones before the plan was headed by it): the subject's lines again, those this document
        // has not said, rather than another subject's. Only under the subject's first heading: a
        // second one (a follow-up mail in the same folder) would repeat the first's lines.
        const first = drawn.filter((t) => t === topic).length === 1;
        const again = first ? (topic?.sentences.filter((x) => !sinceTitle.has(x)) ?? []) : [];
        if (again.length >= 2)
          return paragraphOf(again.slice(0, Math.min(3, Math.ceil(again.length / Math.max(1, left)))));
        return source.next('paragraph');
      }
      const variants = part === 'title' ? type.title : type[part];
      const pick = variants[deriveSeed(taskSeed, 'frame', name, part) % variants.length]!;
      // The heading's title is drawn like any other: the paragraphs after it are about it.
      if (part === 'title') return pick.replace('{title}', source.next('title'));
      return fill(pick).replace(/\{ours\}/g, of ?? cast.ours);
    },
    next(kind: ProseKind, maxWords?: number, about?: number, left = 1): string {
      switch (kind) {
        case 'title': {
          if (titles.length === 0) throw new Error('the content set has no items of this kind');
          const title = nextTitle();
          latestTitle = title;
          sinceTitle.clear();
          if (!lastWasTitle) runStart = drawn.length;
          lastWasTitle = true;
          // A variant ("Budget: follow-up") is its title's topic, spent by then.
          drawn.push(topicOf.get(title) ?? topicOf.get(title.replace(/: [^:]+$/, '')));
          return fill(title);
        }
        case 'product':
          // No comma: a product name is one item wherever a list of them is joined or split.
          return cycled(set.products, VARIANTS.products, take('product'), (a, v) => `${a} (${v})`);
        case 'word': {
          const n = take('word');
          const words = set.products.flatMap((p) => p.toLowerCase().match(/[a-z]{4,}/g) ?? []);
          return words[n % words.length] ?? 'records';
        }
        case 'words': {
          // Takes from the titles: a short phrase never repeats a title used elsewhere.
          const n = take('title');
          if (maxWords === 1) {
            const words = titles.flatMap((t) => t.toLowerCase().match(/[a-z]{5,}/g) ?? []);
            return words[n % words.length] ?? 'default';
          }
          return fill(nextTitle());
        }
        case 'sentence': {
          const own = topicFor(about)?.sentences.find(fresh);
          if (own) {
            used.add(own);
            sinceTitle.add(own);
            return fill(own);
          }
          const pool = spareLines();
          let pick = '';
          if (pool.some(fresh))
            for (let tries = 0; tries < pool.length; tries++) {
              pick = pool[take('sentence') % pool.length] ?? '';
              if (fresh(pick)) break;
            }
          // All handed out: cycle as before, only never inside a paragraph of the task.
          else
            for (let tries = 0; tries < allSentences.length; tries++) {
              pick = allSentences[take('sentence') % allSentences.length] ?? '';
              if (!givenParagraphs.some((p) => p.includes(pick))) break;
            }
          used.add(pick);
          return fill(pick || (titles[0] ?? ''));
        }
        case 'paragraph': {
          const own = topicFor(about)?.sentences.filter(fresh) ?? [];
          // Shared out over the paragraphs of this title still to come (a chapter of two
          // paragraphs gets two lines each from a four-line topic, not three and then none).
          if (own.length >= 2) {
            return paragraphOf(own.slice(0, Math.max(2, Math.min(3, Math.ceil(own.length / left)))));
          }
          // A follow-up under a variant title, its subject spent: a short note about the first.
          const variant = about === undefined ? /^(.+): ([a-z -]+)$/.exec(latestTitle) : null;
          const note = variant && !noted.has(latestTitle) ? FOLLOW_UPS[variant[2]!] : undefined;
          if (note && variant) {
            noted.add(latestTitle);
            // "the flu clinic", but "Blue Harbor launch" keeps its name's capitals.
            const t = variant[1]!;
            const named = /^[A-Z][a-z'-]+( [a-z]|$)/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
            return fill(note.replace('{t}', named));
          }
          // A set paragraph is handed out only when none of its sentences is out already: two of
          // them may share one (the offline kit's are recombined from a topic's lines).
          const spent = (text: string) =>
            [...used].some((x) => text.includes(x)) || !sentencesIn(text).every(fresh);
          let n = take('paragraph');
          while (n < set.paragraphs.length && spent(set.paragraphs[n]!)) n = take('paragraph');
          if (n < set.paragraphs.length) {
            givenParagraphs.push(set.paragraphs[n]!);
            for (const x of sentencesIn(set.paragraphs[n]!)) sinceTitle.add(x);
            return fill(set.paragraphs[n]!);
          }
          // The set's paragraphs all handed out: one of lines the task has not used yet, so a
          // mailbox of many messages says nothing twice: measured over the library, sentences
          // repeated within a file 24 → 13 (12 of them the duplicate slides of remove-duplicate),
          // at the cost of 4 of 187 lines under a heading of another subject in composites' long
          // documents.
          const unused = spareLines().filter(fresh);
          if (unused.length >= 2) return paragraphOf([...new Set(unused)].slice(0, 3));
          const k = allSentences.length;
          if (k === 0) return fill(set.paragraphs[n % set.paragraphs.length]!);
          const start = (n * 3) % k;
          return fill([0, 1, 2].map((i) => allSentences[(start + i * 5) % k]).join(' '));
        }
      }
    },
  };
  return source;
}
