import { en, Faker } from '@faker-js/faker';
import { z } from 'zod';
import { DEPARTMENTS, fictionalPhone, JOB_TITLES, streetAddress } from '../llm/offline/content/kit.ts';
import {
  drawOrganisation,
  drawPerson,
  emailFor,
  firmEmail,
  type Person,
} from '../llm/offline/content/people.ts';
import { TOWNS } from '../llm/offline/content/towns.ts';
import { DocumentTypeError, documentType } from './content/documentTypes.ts';
import { type DatasetAttribution, DatasetError, loadDataset } from './datasets.ts';
import { Rng } from './random.ts';

/**
 * Realistic bulk content generated locally from a seed, so the LLM only writes small answers:
 * `generate: {records: 20, fields: {name: full_name, amount: {kind: money, min: 10, max: 900}}}`.
 * Output: `{records: [{…}], rows: [[…]], header: [...], count}` with fields in declaration order.
 * faker is used only for names, addresses, dates, amounts and IDs; the prose kinds (title,
 * sentence, paragraph, words, word, product) come from the task's content set (an llm content
 * node, pooled per skill; see skills/content/pool.ts).
 */
export const PROSE_KINDS = ['title', 'sentence', 'paragraph', 'words', 'word', 'product'] as const;
export type ProseKind = (typeof PROSE_KINDS)[number];

/**
 * Hands out the next piece of prose of a kind; each call gives a new piece while they last.
 * Sentences and paragraphs are about the latest title drawn, or with `about` the `about`-th
 * (0-based) title of the latest run of titles drawn one after another (a node of titles); `left`
 * says how many paragraphs of that title are still to come (this one included), so its lines are
 * shared out among them.
 */
export interface ProseSource {
  next(kind: ProseKind, maxWords?: number, about?: number, left?: number): string;
  /**
   * A part of a document type's frame (skills/content/documentTypes.ts): its heading around the
   * next title drawn (the subject: the paragraphs after it are about it), its opening or closing,
   * or a paragraph of its body.
   */
  frame(type: string, part: FramePart, left?: number, of?: string): string;
}
/** `body`: a paragraph about the subject, with `left` body paragraphs still to come (this one included). */
export type FramePart = 'title' | 'opening' | 'body' | 'closing';
export const FIELD_KINDS = [
  'first_name',
  'last_name',
  'full_name',
  'email',
  'company',
  'product',
  'department',
  'job_title',
  'city',
  'country',
  'street',
  'phone',
  'color',
  'word',
  'words',
  'sentence',
  'paragraph',
  'title',
  'date',
  'int',
  'number',
  'money',
  'percent',
  'pick',
  'seq',
  'bool',
  'filename',
  'column',
] as const;

const fieldObject = z
  .object({
    kind: z.enum(FIELD_KINDS),
    min: z.number().optional(),
    max: z.number().optional(),
    decimals: z.number().int().min(0).max(6).optional(),
    options: z.array(z.unknown()).min(1).optional().describe('for pick'),
    prefix: z.string().optional().describe('for seq and filename'),
    from: z.string().optional().describe('ISO date, for date'),
    to: z.string().optional().describe('ISO date, for date'),
    unique: z.boolean().default(false),
    column: z.string().min(1).optional().describe('for column: the column of the data set to copy'),
    per_title: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe(
        'for sentence and paragraph drawn after a node of titles: record i is about title floor(i / per_title), as slides*3 bullets cut three per slide',
      ),
    frame: z
      .string()
      .min(1)
      .max(60)
      .optional()
      .describe(
        'for title and paragraph: a document type (skills/content/documentTypeTable.ts); a title gets its heading around the subject, a paragraph node of 3 or more records opens and closes in its form',
      ),
    of: z
      .string()
      .min(1)
      .max(80)
      .optional()
      .describe("with frame: the organisation the document is from (default: the task's own)"),
    signed: z
      .union([z.boolean(), z.literal('unnamed')])
      .optional()
      .describe(
        "for sentence and paragraph: written as an e-mail, with a greeting and a sign-off by the record's person (its name field, drawn before); 'unnamed': a sign-off without a name, for mails some of which are sent as someone else",
      ),
  })
  .strict();
const fieldSchema = z.union([z.enum(FIELD_KINDS), fieldObject]);
export type FieldSpec = z.infer<typeof fieldSchema>;

/** As written in a spec: counts and field options may still be `{{ … }}` templates. */
export const generateSpecSchema = z
  .object({
    records: z.union([z.number().int().min(1).max(5000), z.string().min(1)]).describe('count, or a template'),
    fields: z.record(
      z.string().regex(/^[a-z][a-z0-9_]*$/),
      z.union([z.enum(FIELD_KINDS), z.record(z.string(), z.unknown())]),
    ),
    duplicates: z
      .union([z.number().int().min(0), z.string()])
      .default(0)
      .describe('copies of random records to insert'),
    dataset: z
      .string()
      .min(1)
      .max(80)
      .optional()
      .describe(
        'a real table of the vega-datasets package by its name (skills/datasets.ts): the records are that many consecutive rows from a seeded start, and fields of kind column copy its columns',
      ),
  })
  .strict();

/** After templates are rendered: what the generator runs on. */
export const resolvedGenerateSchema = z
  .object({
    records: z.coerce.number().int().min(1).max(5000),
    fields: z.record(z.string(), fieldSchema),
    duplicates: z.coerce.number().int().min(0).default(0),
    dataset: z.string().min(1).optional(),
  })
  .strict();
export type ResolvedGenerateSpec = z.infer<typeof resolvedGenerateSchema>;

export interface Generated {
  records: Record<string, unknown>[];
  rows: unknown[][];
  header: string[];
  count: number;
  /** Where the rows come from, when they are a real data set's. */
  source?: DatasetAttribution;
}

export function generateRecords(spec: ResolvedGenerateSpec, seed: number, prose?: ProseSource): Generated {
  const rng = new Rng(seed);
  const faker = new Faker({ locale: [en], seed: seed });
  const header = Object.keys(spec.fields);
  const seen = new Map<string, Set<unknown>>();
  const records: Record<string, unknown>[] = [];
  // A record with a company and no person's name is the firm's: its address is the firm's too.
  const kinds = header.map((h) => normalise(spec.fields[h]!).kind);
  const firmOnly = kinds.includes('company') && !kinds.some((k) => NAME_KINDS.has(k));
  const dataset = spec.dataset === undefined ? undefined : loadDataset(spec.dataset);
  if (dataset && spec.records > dataset.rows.length)
    throw new DatasetError(
      `data set ${spec.dataset} has ${dataset.rows.length} rows, fewer than ${spec.records}`,
    );
  if (!dataset && kinds.includes('column')) throw new DatasetError('a field of kind column needs a dataset');
  // Consecutive rows, as a real log or register reads (a month of days, a run of years).
  const start = dataset ? rng.int(0, dataset.rows.length - spec.records) : 0;
  for (const name of header) {
    const f = normalise(spec.fields[name]!);
    if (f.frame === undefined) continue;
    documentType(f.frame);
    if (f.kind !== 'title' && f.kind !== 'paragraph')
      throw new DocumentTypeError(`field ${name}: a frame fits a title or a paragraph, not ${f.kind}`);
  }
  for (let i = 0; i < spec.records; i++) {
    const rec: Record<string, unknown> = {};
    // One person per record: its name fields and its e-mail address belong together.
    const who: RecordPerson = { tries: 0, firmOnly, row: dataset?.rows[start + i] };
    for (const name of header) {
      const f = normalise(spec.fields[name]!);
      let value = field(f, i, spec.records, rng, faker, prose, who);
      if (f.unique) {
        const used = seen.get(name) ?? new Set();
        seen.set(name, used);
        for (let tries = 0; used.has(value) && tries < 50; tries++) {
          // A taken name: another person; a taken address: the same person's numbered one.
          if (NAME_KINDS.has(f.kind)) who.person = undefined;
          else if (f.kind === 'email') who.tries++;
          value = field(f, i, spec.records, rng, faker, prose, who);
        }
        if (used.has(value)) value = `${String(value)} ${i + 1}`;
        used.add(value);
      }
      rec[name] = value;
    }
    records.push(rec);
  }
  for (let d = 0; d < spec.duplicates && records.length > 0; d++) {
    const copy = { ...rng.pick(records) };
    records.splice(rng.int(0, records.length), 0, copy);
  }
  return {
    records,
    rows: records.map((r) => header.map((h) => r[h])),
    header,
    count: records.length,
    ...(dataset ? { source: dataset.attribution } : {}),
  };
}

function normalise(f: FieldSpec): z.infer<typeof fieldObject> {
  return typeof f === 'string' ? { kind: f, unique: false } : f;
}

function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/** Prose kinds used by a generate node's fields (templates unresolved are ignored). */
export function proseKindsOf(fields: Record<string, unknown>): ProseKind[] {
  const kinds = new Set<ProseKind>();
  for (const f of Object.values(fields)) {
    const kind = typeof f === 'string' ? f : (f as { kind?: unknown } | null)?.kind;
    if ((PROSE_KINDS as readonly unknown[]).includes(kind)) kinds.add(kind as ProseKind);
  }
  return [...kinds];
}

interface RecordPerson {
  /** Drawn when the record first needs a name or an address (records without people draw none). */
  person?: Person;
  /** Taken addresses of this person so far (a unique e-mail field numbers the next one). */
  tries: number;
  firmOnly: boolean;
  /** The record's company, when it has one. */
  firm?: string;
  /** The data set's row this record copies, when the node reads one. */
  row?: Record<string, string | number>;
}
const NAME_KINDS = new Set(['first_name', 'last_name', 'full_name']);

function personOf(who: RecordPerson, rng: Rng): Person {
  who.person ??= drawPerson(rng);
  return who.person;
}

function field(
  f: z.infer<typeof fieldObject>,
  index: number,
  count: number,
  rng: Rng,
  faker: Faker,
  prose: ProseSource | undefined,
  who: RecordPerson,
): unknown {
  const min = f.min ?? 0;
  const max = f.max ?? 1000;
  if ((PROSE_KINDS as readonly string[]).includes(f.kind)) {
    if (!prose) throw new Error(`field kind ${f.kind} needs a content set (an llm content node)`);
    if (f.frame !== undefined) {
      if (f.kind === 'title') return prose.frame(f.frame, 'title');
      if (index === 0) return prose.frame(f.frame, 'opening', 1, f.of);
      const closes = count >= 3;
      if (index === count - 1 && closes) return prose.frame(f.frame, 'closing', 1, f.of);
      return prose.frame(f.frame, 'body', (closes ? count - 1 : count) - index);
    }
    const text = prose.next(
      f.kind as ProseKind,
      f.max,
      f.per_title === undefined ? undefined : Math.floor(index / f.per_title),
      f.per_title === undefined ? undefined : f.per_title - (index % f.per_title),
    );
    if (!f.signed) return text;
    return signedMail(text, f.signed === 'unnamed' ? undefined : who.person?.first, rng);
  }
  switch (f.kind) {
    case 'first_name':
      return personOf(who, rng).first;
    case 'last_name':
      return personOf(who, rng).last;
    case 'full_name':
      return personOf(who, rng).name;
    case 'email': {
      if (who.firmOnly && who.firm) return firmEmail(who.firm, rng, who.tries);
      const p = personOf(who, rng);
      return who.tries === 0 ? p.email : emailFor(p.first, p.last, rng, who.tries);
    }
    case 'company':
      who.firm = drawOrganisation(rng);
      return who.firm;
    case 'department':
      return rng.pick(DEPARTMENTS);
    case 'job_title':
      return rng.pick(JOB_TITLES);
    case 'city':
      return rng.pick(TOWNS);
    case 'country':
      return faker.location.country();
    case 'street':
      return streetAddress(rng);
    case 'phone':
      return fictionalPhone(rng);
    case 'color':
      return faker.color.human();
    case 'date': {
      const from = Date.parse(f.from ?? '2024-01-01');
      const to = Date.parse(f.to ?? '2025-12-31');
      const day = 86_400_000;
      return new Date(from + rng.int(0, Math.max(0, Math.floor((to - from) / day))) * day)
        .toISOString()
        .slice(0, 10);
    }
    case 'int':
      return rng.int(Math.ceil(min), Math.floor(max));
    case 'number':
      return round(min + rng.next() * (max - min), f.decimals ?? 2);
    case 'money':
      return round(min + rng.next() * (max - min), f.decimals ?? 2);
    case 'percent':
      return round((f.min ?? 0) + rng.next() * ((f.max ?? 1) - (f.min ?? 0)), f.decimals ?? 3);
    case 'pick':
      return rng.pick(f.options ?? ['a', 'b', 'c']);
    case 'seq':
      return `${f.prefix ?? ''}${String(index + 1 + Math.floor(min)).padStart(3, '0')}`;
    case 'bool':
      return rng.next() < 0.5;
    case 'filename':
      return f.prefix
        ? `${f.prefix}${rng.pick(FILE_WORDS)}_${rng.int(10, 99)}`
        : `${rng.pick(WRITTEN_FILE_WORDS)}_${rng.int(10, 99)}`;
    case 'column': {
      const value = f.column === undefined ? undefined : who.row?.[f.column];
      if (value === undefined)
        throw new DatasetError(`the data set has no column ${String(f.column).slice(0, 60)}`);
      return value;
    }
    default:
      throw new Error(`field kind ${f.kind} needs a content set`);
  }
}

const GREETINGS = ['Hi all,', 'Hello,', 'Hi,', 'Morning all,', 'Hi everyone,', 'Hello all,'];
const SIGN_OFFS = ['Thanks', 'Best wishes', 'Cheers', 'Kind regards', 'Many thanks', 'Best'];

/**
 * A message body as people write one: a greeting, the text, a sign-off with the sender's first
 * name (a bare paragraph in an Inbox reads as a fragment, not a mail).
 */
function signedMail(text: string, first: string | undefined, rng: Rng): string {
  const close = rng.pick(SIGN_OFFS);
  return `${rng.pick(GREETINGS)}\n\n${text}\n\n${first ? `${close},\n${first}` : close}`;
}

/**
 * Stems for a file with no prefix: what such a file holds is written text (a sentence, a
 * paragraph), so its name says a written kind ("photo_69.csv" or "receipt_12.txt" holding a
 * paragraph about the network read as a collage).
 */
const WRITTEN_FILE_WORDS = [
  'notes',
  'report',
  'draft',
  'summary',
  'minutes',
  'letter',
  'plan',
  'agenda',
  'memo',
  'update',
  'review',
  'proposal',
];

/** Plain English stems for generated file names (faker's random nouns made names like "sausage_14"). */
const FILE_WORDS = [
  'notes',
  'report',
  'scan',
  'draft',
  'summary',
  'minutes',
  'invoice',
  'receipt',
  'photo',
  'letter',
  'budget',
  'plan',
  'schedule',
  'list',
  'form',
  'record',
  'statement',
  'agenda',
  'contract',
  'memo',
];
