import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { createRng, type Rng } from '../prng.ts';

/**
 * The English content kit the offline model answers content nodes from: one YAML file per domain
 * (finance, hr, school, clinic, retail, events, it, research, nonprofit, household) with topics
 * (a title and sentences written about exactly that title, so a slide's bullets or a section's
 * paragraph agree with its heading) and product names. Sentences carry slots ({person}, {date}, …)
 * the engine fills with the task's own people, dates and places.
 */
/**
 * One item of a kit list. A YAML flow list splits an unquoted item at its own comma ("Notebook (A5,
 * lined)" became "Notebook (A5" and "lined)"): brackets and quotes must balance within the item.
 */
const balanced = (s: string) =>
  (s.match(/\(/g) ?? []).length === (s.match(/\)/g) ?? []).length && (s.match(/"/g) ?? []).length % 2 === 0;
const item = (min: number) =>
  z.string().min(min).refine(balanced, { message: 'unbalanced brackets or quotes' });

const topicSchema = z.object({ title: item(3), sentences: z.array(item(10)).min(4) }).strict();

export const kitFileSchema = z
  .object({
    keywords: z.array(z.string().min(1)).min(1),
    topics: z.array(topicSchema).min(8),
    // Products are listed, joined and split with commas (price lists, CSV cells, subjects): none inside.
    products: z
      .array(item(2).refine((s) => !s.includes(','), { message: 'a product name holds a comma' }))
      .min(6),
  })
  .strict()
  .superRefine((kit, ctx) => {
    // A sentence under two titles would put one line on two slides of a deck.
    const seen = new Set<string>();
    for (const [i, t] of kit.topics.entries()) {
      if (seen.has(t.title)) ctx.addIssue({ code: 'custom', path: ['topics', i], message: 'repeated title' });
      seen.add(t.title);
      for (const x of t.sentences) {
        if (seen.has(x)) ctx.addIssue({ code: 'custom', path: ['topics', i], message: `repeated: ${x}` });
        seen.add(x);
      }
    }
  });
export type KitTopic = z.infer<typeof topicSchema>;
/** A domain's kit; `titles` and `sentences` are its topics' titles and all their sentences. */
export type ContentKit = z.infer<typeof kitFileSchema> & {
  domain: string;
  titles: string[];
  sentences: string[];
};

const kitDir = path.dirname(fileURLToPath(import.meta.url));
let loaded: Map<string, ContentKit> | undefined;

export function contentKits(): Map<string, ContentKit> {
  if (loaded) return loaded;
  const kits = new Map<string, ContentKit>();
  for (const file of readdirSync(kitDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const parsed = kitFileSchema.safeParse(parse(readFileSync(path.join(kitDir, file), 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`content kit ${file}: ${issue?.path.join('.')}: ${issue?.message}`);
    }
    kits.set(file.replace(/\.yaml$/, ''), {
      ...parsed.data,
      domain: file.replace(/\.yaml$/, ''),
      titles: parsed.data.topics.map((t) => t.title),
      sentences: parsed.data.topics.flatMap((t) => t.sentences),
    });
  }
  loaded = kits;
  return kits;
}

/**
 * A kit keyword as a whole word, plurals too ("patient" finds "patients", not "patiently"). A
 * keyword written in capitals ("IT", "HR") matches only in capitals: "it" is a pronoun.
 */
function keywordPattern(k: string): RegExp {
  const word = k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b${word}(?:s|es)?\\b`, k === k.toUpperCase() ? '' : 'i');
}
const patterns = new Map<string, RegExp[]>();
function hits(domain: string, kit: ContentKit, text: string): number {
  let list = patterns.get(domain);
  if (!list) {
    list = kit.keywords.map(keywordPattern);
    patterns.set(domain, list);
  }
  return list.filter((re) => re.test(text)).length;
}

/**
 * The kit domain a task belongs to: most keyword hits in what the task is about (its parameters
 * and scenario: "wedding slideshow", "tender response"); only when those name no sector, the
 * skill's own words; ties and misses by seed. The skill's words come second because they describe
 * the software ("the file it saves"), not the sector.
 */
export function classifyDomain(subject: string, skillText: string, seed: number): string {
  for (const text of [subject, skillText]) {
    let best: string[] = [];
    let bestScore = 0;
    for (const [domain, kit] of contentKits()) {
      const score = hits(domain, kit, text);
      if (score > bestScore) {
        best = [domain];
        bestScore = score;
      } else if (score === bestScore && score > 0) best.push(domain);
    }
    if (best.length > 0) return createRng(seed).pick(best);
  }
  return createRng(seed).pick([...contentKits().keys()]);
}

/**
 * One task's share of a content pool: what a content node returns per task. `topics` pair titles
 * with sentences written about them (a task that draws a title takes its slide's bullets or its
 * section's paragraph from there); `titles` are drawn in order, topics' titles first.
 */
export const contentSetSchema = z
  .object({
    titles: z.array(z.string().min(3).max(90)).default([]),
    topics: z
      .array(
        z
          .object({
            title: z.string().min(3).max(90),
            sentences: z.array(z.string().min(10).max(300)).min(1),
          })
          .strict(),
      )
      .default([]),
    sentences: z.array(z.string().min(10).max(300)).default([]),
    paragraphs: z.array(z.string().min(40).max(1500)).default([]),
    products: z.array(z.string().min(2).max(60)).default([]),
  })
  .strict();
export type ContentSet = z.infer<typeof contentSetSchema>;

export interface ContentQuota {
  titles: number;
  sentences: number;
  paragraphs: number;
  products: number;
}

/** Sentences a set holds per topic: a slide's three bullets and one spare. */
export const TOPIC_SENTENCES = 4;

/** Titles come as topics (with sentences about each) when the task also writes sentences or paragraphs. */
export function wantsTopics(quota: ContentQuota): boolean {
  return quota.titles > 0 && (quota.sentences > 0 || quota.paragraphs > 0);
}

/**
 * The offline answer to a pooled content request: `poolSize` sets drawn from the domain's kit
 * without replacement across the sets where the kit allows, so the tasks of a pool share no
 * title and no paragraph. Titles come with their topics' sentences when the task writes prose
 * too; the loose sentences prefer the kit's other topics, so they do not take a title's lines.
 * Paragraphs are two to four sentences of one topic, so a paragraph keeps to one subject.
 */
export function offlineContentPool(
  domain: string,
  quota: ContentQuota,
  poolSize: number,
  seed: number,
): { sets: ContentSet[] } {
  const kit = contentKits().get(domain);
  if (!kit) throw new Error(`no content kit for domain ${domain}`);
  const rng = createRng(seed);
  const deal = <T>(items: readonly T[]) => {
    let deck: T[] = [];
    return () => {
      if (deck.length === 0) deck = shuffle(items, rng);
      return deck.pop()!;
    };
  };
  // Within a set nothing repeats while the kit lasts; across the pool, paragraphs never repeat.
  const fresh = <T>(items: readonly T[], n: number) => {
    const next = deal(items);
    return Array.from({ length: n }, next);
  };
  const topic = deal(kit.topics);
  const usedParagraphs = new Set<string>();
  const sets: ContentSet[] = [];
  for (let s = 0; s < poolSize; s++) {
    const paragraphs: string[] = [];
    for (let p = 0, tries = 0; p < quota.paragraphs && tries < 200; tries++) {
      const from = shuffle(topic().sentences, rng);
      const text = from.slice(0, Math.min(from.length, rng.int(2, 4))).join(' ');
      if (usedParagraphs.has(text)) continue;
      usedParagraphs.add(text);
      paragraphs.push(text);
      p++;
    }
    const topics = fresh(kit.topics, quota.titles);
    const titled = new Set(topics.flatMap((t) => t.sentences));
    const loose = [
      ...shuffle(
        kit.sentences.filter((x) => !titled.has(x)),
        rng,
      ),
      ...shuffle([...titled], rng),
    ];
    sets.push({
      titles: topics.map((t) => t.title),
      topics: wantsTopics(quota)
        ? topics.map((t) => ({ title: t.title, sentences: shuffle(t.sentences, rng) }))
        : [],
      sentences: Array.from({ length: quota.sentences }, (_, i) => loose[i % loose.length]!),
      paragraphs,
      products: fresh(kit.products, quota.products),
    });
  }
  return { sets };
}

function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** One piece of kit prose of a kind, for offline fills of fields no hint covers. */
export function kitProse(kind: 'title' | 'sentence' | 'paragraph' | 'product', rng: Rng): string {
  const kit = rng.pick([...contentKits().values()]);
  if (kind === 'title') return rng.pick(kit.titles);
  if (kind === 'product') return rng.pick(kit.products);
  const fill = (s: string) =>
    s
      .replace(/\{person2?\}/g, 'the team')
      .replace(
        /\{(date|place|org|amount)\}/g,
        (_m, k: string) =>
          ({ date: 'next week', place: 'the main office', org: 'our partner', amount: 'the agreed amount' })[
            k
          ]!,
      );
  if (kind === 'sentence') return fill(rng.pick(kit.sentences));
  return [0, 1, 2].map(() => fill(rng.pick(kit.sentences))).join(' ');
}

/** Departments of a workplace (faker's are shop aisles: "Movies", "Baby", "Grocery"). */
export const DEPARTMENTS = [
  'Finance',
  'Human Resources',
  'IT',
  'Sales',
  'Marketing',
  'Operations',
  'Customer Service',
  'Facilities',
  'Legal',
  'Procurement',
  'Research',
  'Training',
  'Warehouse',
  'Payroll',
  'Communications',
  'Fundraising',
  'Estates',
  'Quality',
  'Logistics',
  'Reception',
  'Catering',
  'Health and Safety',
  'Design',
  'Planning',
];

/**
 * A British phone number from the ranges Ofcom keeps for drama (01632 960xxx, 07700 900xxx): it
 * reads like a real one and rings nobody.
 */
export function fictionalPhone(rng: { int(min: number, max: number): number }): string {
  const line = String(rng.int(0, 999)).padStart(3, '0');
  return rng.int(0, 1) === 0 ? `01632 960${line}` : `07700 900${line}`;
}

const STREET_NAMES = [
  'Mill',
  'Church',
  'Station',
  'Victoria',
  'Park',
  'Queen',
  'Orchard',
  'Bridge',
  'Manor',
  'Chapel',
  'School',
  'Albert',
  'York',
  'Meadow',
  'Westfield',
  'Springfield',
  'Windsor',
  'Elm',
  'Beech',
  'Market',
];
const STREET_TYPES = ['Road', 'Street', 'Lane', 'Close', 'Avenue', 'Way', 'Gardens', 'Terrace'];

/** A British street address ("14 Mill Lane"), to sit beside a British town. */
export function streetAddress(rng: {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}): string {
  return `${rng.int(1, 180)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_TYPES)}`;
}

/** Plain job titles, for offline fills (faker's are generated phrases). */
export const JOB_TITLES = [
  'Office Manager',
  'Accountant',
  'Project Coordinator',
  'Sales Manager',
  'HR Advisor',
  'IT Support Technician',
  'Operations Lead',
  'Marketing Assistant',
  'Finance Officer',
  'Customer Service Lead',
  'Research Assistant',
  'Warehouse Supervisor',
  'Volunteer Coordinator',
  'Practice Nurse',
  'Teacher',
  'Events Officer',
];
