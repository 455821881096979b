import type { Faker } from '@faker-js/faker';
import { DEPARTMENTS, fictionalPhone, JOB_TITLES, kitProse, streetAddress } from './content/kit.ts';
import { drawOrganisation, drawPerson, FIRST_NAMES, isPersonName, LAST_NAMES } from './content/people.ts';
import { TOWNS } from './content/towns.ts';
import type { Rng } from './prng.ts';
import { sampleRegex } from './regexSample.ts';

/**
 * Fills a JSON schema (the subset structured-output providers accept, plus what z.toJSONSchema
 * emits) with realistic, seeded values. Candidate values from the node's offline hint win where
 * they fit the property's schema.
 */
export type JsonSchema = Record<string, unknown>;

export interface FillOptions {
  rng: Rng;
  /** Seeded by the caller; used for names, companies, words. */
  faker: Faker;
  /** Candidate values per dotted property path (`*` = array item). */
  fields?: Record<string, readonly unknown[]>;
}

interface Ctx extends FillOptions {
  root: JsonSchema;
  used: Map<string, Set<number>>;
}

const MAX_DEPTH = 12;

export function fillSchema(schema: JsonSchema, options: FillOptions): unknown {
  const ctx: Ctx = { ...options, root: schema, used: new Map() };
  return fill(schema, ctx, [], 0);
}

const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 32; hops++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) throw new Error(`offline model: cannot follow external $ref ${ref}`);
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObj(target) ? target[key] : undefined;
    }
    if (!isObj(target)) throw new Error(`offline model: $ref ${ref} does not resolve`);
    const { $ref: _ignored, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s;
}

function typesOf(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if (isObj(schema.properties)) return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array'];
  return ['string'];
}

function mergeAllOf(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const parts = (schema.allOf as unknown[]).filter(isObj).map((p) => resolveRef(p, root));
  const { allOf: _ignored, ...base } = schema;
  const merged: JsonSchema = { ...base };
  for (const part of parts) {
    const properties = {
      ...(isObj(merged.properties) ? merged.properties : {}),
      ...(isObj(part.properties) ? part.properties : {}),
    };
    const required = [
      ...(Array.isArray(merged.required) ? merged.required : []),
      ...(Array.isArray(part.required) ? part.required : []),
    ];
    Object.assign(merged, part, { properties, required });
  }
  return merged;
}

function fill(input: JsonSchema | boolean, ctx: Ctx, path: string[], depth: number): unknown {
  if (input === true || input === false) return ctx.faker.word.noun();
  let schema = resolveRef(input, ctx.root);
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema, ctx.root);

  const hinted = fromHint(schema, ctx, path);
  if (hinted.found) return asOnePerson(hinted.value, schema, ctx);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return ctx.rng.pick(schema.enum);

  const branches = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : []
  ).filter((b): b is JsonSchema => isObj(b) || typeof b === 'boolean');
  if (branches.length > 0) {
    const { anyOf: _a, oneOf: _o, ...outer } = schema;
    // Prefer a non-null branch: an answer full of nulls is valid but useless.
    const nonNull = branches.filter((b) => !(isObj(b) && b.type === 'null'));
    const branch = ctx.rng.pick(
      nonNull.length > 0 && (depth < MAX_DEPTH || nonNull.length === branches.length) ? nonNull : branches,
    );
    return fill(isObj(branch) ? { ...outer, ...branch } : branch, ctx, path, depth + 1);
  }

  const types = typesOf(schema);
  const nonNullTypes = types.filter((t) => t !== 'null');
  const type = nonNullTypes.length === 0 ? 'null' : ctx.rng.pick(nonNullTypes);
  const name = propertyName(path);
  switch (type) {
    case 'object':
      return fillObject(schema, ctx, path, depth);
    case 'array':
      return fillArray(schema, ctx, path, depth);
    case 'integer':
    case 'number':
      return fillNumber(schema, type === 'integer', name, ctx);
    case 'boolean':
      return ctx.rng.next() < 0.5;
    case 'null':
      return null;
    default:
      return fillString(schema, name, ctx);
  }
}

/** The name that says what a value is: `columns.*.name` is a column name, not a person's. */
function propertyName(path: string[]): string {
  const named = path.filter((p) => p !== '*');
  const last = named[named.length - 1] ?? '';
  const parent = (named[named.length - 2] ?? '').replace(/e?s$/, '');
  return /^(name|title|label|id)$/i.test(last) && parent ? `${parent}_${last}` : last;
}

function fromHint(schema: JsonSchema, ctx: Ctx, path: string[]): { found: boolean; value?: unknown } {
  const key = path.join('.');
  const candidates = ctx.fields?.[key];
  if (!candidates || candidates.length === 0) return { found: false };
  const fitting = candidates.map((c, i) => [c, i] as const).filter(([c]) => conforms(schema, c, ctx.root));
  if (fitting.length === 0) return { found: false };
  // Sample without replacement per path, so array items hinted by one list come out distinct.
  const used = ctx.used.get(key) ?? new Set<number>();
  ctx.used.set(key, used);
  const fresh = fitting.filter(([, i]) => !used.has(i));
  const [value, index] = ctx.rng.pick(fresh.length > 0 ? fresh : fitting);
  used.add(index);
  return { found: true, value: structuredClone(value) };
}

function fillObject(schema: JsonSchema, ctx: Ctx, path: string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObj(schema.properties) ? schema.properties : {};
  for (const [key, sub] of Object.entries(properties)) {
    if (isObj(sub) || typeof sub === 'boolean') out[key] = fill(sub, ctx, [...path, key], depth + 1);
  }
  pairPeople(out, schema, ctx);
  return asOnePerson(out, schema, ctx) as Record<string, unknown>;
}

/**
 * Sibling fields naming one person, `owner` / `owner_name` beside `owner_email`: drawn together
 * (hint lists of names and of addresses are picked independently, so they would not match).
 */
function pairPeople(out: Record<string, unknown>, schema: JsonSchema, ctx: Ctx): void {
  for (const emailKey of Object.keys(out)) {
    const base = /^(.+)_e?mail$/.exec(emailKey)?.[1];
    if (!base || typeof out[emailKey] !== 'string') continue;
    const nameKey = [base, `${base}_name`].find((k) => typeof out[k] === 'string');
    if (!nameKey || !isPersonName(out[nameKey] as string)) continue;
    const person = drawPerson(ctx.rng);
    const candidate = { ...out, [nameKey]: person.name, [emailKey]: person.email };
    if (conforms(schema, candidate, ctx.root)) Object.assign(out, candidate);
  }
}

/**
 * A person's name and address drawn together, so the display name matches the address. Person
 * candidates of an offline hint are examples: a round's cast is drawn, not the hint list's few.
 */
function asOnePerson(value: unknown, schema: JsonSchema, ctx: Ctx): unknown {
  if (!isObj(value) || typeof value.name !== 'string' || typeof value.email !== 'string') return value;
  // A team, a newsletter or a firm keeps its own name and address.
  if (!isPersonName(value.name)) return value;
  const person = drawPerson(ctx.rng);
  const candidate = { ...value, name: person.name, email: person.email };
  return conforms(schema, candidate, ctx.root) ? candidate : value;
}

function fillArray(schema: JsonSchema, ctx: Ctx, path: string[], depth: number): unknown[] {
  // Tuples: `prefixItems` (2020-12) or an `items` array (draft-07).
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  const prefix = tuple.filter((p) => isObj(p) || typeof p === 'boolean');
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const open = isObj(rest) || rest === true || (prefix.length === 0 && rest === undefined);
  const min = num(schema.minItems) ?? (depth >= MAX_DEPTH ? 0 : 1);
  const max = num(schema.maxItems) ?? Math.max(min, depth >= MAX_DEPTH ? min : Math.min(min + 4, 6));
  const count = open ? Math.max(prefix.length, ctx.rng.int(min, Math.max(min, max))) : prefix.length;
  const items = isObj(rest) || typeof rest === 'boolean' ? rest : {};
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? (prefix[i] as JsonSchema | boolean) : items;
    let value = fill(itemSchema, ctx, [...path, '*'], depth + 1);
    // uniqueItems: a few tries for a fresh value; then stop short if the minimum is already met.
    for (
      let tries = 0;
      schema.uniqueItems === true && seen.has(JSON.stringify(value)) && tries < 8;
      tries++
    ) {
      value = fill(itemSchema, ctx, [...path, '*'], depth + 1);
    }
    if (schema.uniqueItems === true && seen.has(JSON.stringify(value)) && out.length >= min) break;
    seen.add(JSON.stringify(value));
    out.push(value);
  }
  return out;
}

function numberRange(name: string): [number, number] {
  if (/year/i.test(name)) return [1990, 2030];
  if (/month/i.test(name)) return [1, 12];
  if (/day/i.test(name)) return [1, 28];
  if (/age/i.test(name)) return [18, 80];
  if (/percent|pct|rate|ratio|score/i.test(name)) return [0, 100];
  if (/price|amount|cost|total|salary|revenue|budget|balance|fee/i.test(name)) return [5, 5000];
  if (/count|qty|quantity|rows|number|num|size|index/i.test(name)) return [1, 40];
  return [1, 100];
}

function fillNumber(schema: JsonSchema, integer: boolean, name: string, ctx: Ctx): number {
  const [defLo, defHi] = numberRange(name);
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  const lo = num(schema.minimum) ?? exMin ?? Number.NEGATIVE_INFINITY;
  const hi = num(schema.maximum) ?? exMax ?? Number.POSITIVE_INFINITY;
  // The name's plausible range, moved inside the schema's bounds (z.int() alone bounds at ±2^53).
  let a = Math.max(lo, defLo);
  let b = Math.min(hi, defHi);
  if (a > b) {
    if (defLo > hi) [a, b] = [Math.max(lo, hi - (defHi - defLo)), hi];
    else [a, b] = [lo, Math.min(hi, lo + (defHi - defLo))];
  }
  const step = num(schema.multipleOf) ?? (integer ? 1 : 0.01);
  const unit = integer ? Math.max(1, Math.ceil(step)) : step;
  let first = Math.ceil(a / unit) * unit;
  if (exMin !== undefined && first <= exMin) first += unit;
  let last = Math.floor(b / unit) * unit;
  if (exMax !== undefined && last >= exMax) last -= unit;
  if (last < first) return Number(first.toFixed(10));
  const steps = Math.round((last - first) / unit);
  const value = first + ctx.rng.int(0, steps) * unit;
  return Number(value.toFixed(integer ? 0 : 10));
}

function byFormat(format: string, ctx: Ctx): string | undefined {
  const f = ctx.faker;
  switch (format) {
    case 'date-time':
      return f.date.between({ from: '2020-01-01T00:00:00Z', to: '2026-12-31T00:00:00Z' }).toISOString();
    case 'date':
      return f.date
        .between({ from: '2020-01-01T00:00:00Z', to: '2026-12-31T00:00:00Z' })
        .toISOString()
        .slice(0, 10);
    case 'time':
      return f.date
        .between({ from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' })
        .toISOString()
        .slice(11, 19);
    case 'email':
      return drawPerson(ctx.rng).email;
    case 'uri':
    case 'url':
      return f.internet.url();
    case 'uuid':
      return f.string.uuid();
    case 'ipv4':
      return f.internet.ipv4();
    case 'ipv6':
      return f.internet.ipv6();
    case 'hostname':
      return f.internet.domainName();
    default:
      return undefined;
  }
}

/** Realistic text chosen by the property's name. */
function byName(name: string, ctx: Ctx): string {
  const f = ctx.faker;
  const n = name.toLowerCase();
  const slug = () =>
    f.word
      .words(ctx.rng.int(1, 2))
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_');
  if (/file_?name|filename|^file$/.test(n)) return slug();
  if (/folder|directory|^dir/.test(n)) return f.word.noun();
  if (/sheet/.test(n)) return ctx.rng.pick(DEPARTMENTS);
  if (/email/.test(n)) return drawPerson(ctx.rng).email;
  if (/column|header|field|label|key|tag|keyword/.test(n))
    return f.word.noun().replace(/^./, (c) => c.toUpperCase());
  if (/first_?name/.test(n)) return ctx.rng.pick(FIRST_NAMES);
  if (/last_?name|surname/.test(n)) return ctx.rng.pick(LAST_NAMES);
  if (/company|organi[sz]ation|employer|vendor|supplier|customer/.test(n)) return drawOrganisation(ctx.rng);
  if (/(^|_)name$|person|author|sender|recipient|owner|manager|contact/.test(n))
    return drawPerson(ctx.rng).name;
  // The cast's places and numbers as the content kit writes them (British towns and streets, drama
  // phone ranges): faker's cities read as people ("Port Kris") and its numbers may ring someone.
  if (/city|town/.test(n)) return ctx.rng.pick(TOWNS);
  if (/country/.test(n)) return f.location.country();
  if (/address|street/.test(n)) return streetAddress(ctx.rng);
  if (/phone/.test(n)) return fictionalPhone(ctx.rng);
  if (/url|link|website/.test(n)) return f.internet.url();
  if (/date/.test(n))
    return f.date
      .between({ from: '2020-01-01T00:00:00Z', to: '2026-12-31T00:00:00Z' })
      .toISOString()
      .slice(0, 10);
  if (/colou?r/.test(n)) return f.color.human();
  if (/currency/.test(n)) return ctx.rng.pick(['GBP', 'EUR', 'USD']);
  if (/product|item/.test(n)) return kitProse('product', ctx.rng);
  if (/department|team/.test(n)) return ctx.rng.pick(DEPARTMENTS);
  if (/category/.test(n)) return f.commerce.department();
  if (/job|role|position/.test(n)) return ctx.rng.pick(JOB_TITLES);
  // Prose comes from the English content kit, never from random words.
  if (/title|subject|heading|topic/.test(n)) return kitProse('title', ctx.rng);
  if (/sentence|line|bullet/.test(n)) return kitProse('sentence', ctx.rng);
  if (
    /instruction|description|body|text|summary|content|message|prompt|note|comment|reason|rationale/.test(n)
  ) {
    return kitProse('paragraph', ctx.rng);
  }
  return f.word.words(ctx.rng.int(1, 3));
}

function fitLength(value: string, min: number, max: number, ctx: Ctx): string {
  let s = value;
  while (s.length < min) s += (s ? ' ' : '') + ctx.faker.word.noun();
  if (s.length > max) s = s.slice(0, max).trimEnd();
  while (s.length < min) s += 'x';
  return s;
}

function fillString(schema: JsonSchema, name: string, ctx: Ctx): string {
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? Number.POSITIVE_INFINITY;
  const natural =
    (typeof schema.format === 'string' ? byFormat(schema.format, ctx) : undefined) ?? byName(name, ctx);
  if (typeof schema.pattern === 'string') return fillPattern(schema.pattern, natural, min, max, ctx);
  return fitLength(natural, min, max, ctx);
}

function fillPattern(pattern: string, natural: string, min: number, max: number, ctx: Ctx): string {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return fitLength(natural, min, max, ctx);
  }
  const ok = (s: string) => re.test(s) && s.length >= min && s.length <= max;
  // Realistic first (a name-based value often fits a file-name pattern), then sampled from the pattern.
  if (ok(natural)) return natural;
  const lowered = natural.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  if (ok(lowered)) return lowered;
  let last = natural;
  for (let i = 0; i < 12; i++) {
    try {
      last = sampleRegex(pattern, ctx.rng);
    } catch {
      break;
    }
    if (ok(last)) return last;
  }
  return last;
}

/** Whether a value fits a schema (the subset above); decides if a hint candidate can be used. */
export function conforms(input: JsonSchema | boolean, value: unknown, root: JsonSchema): boolean {
  if (input === true) return true;
  if (input === false) return false;
  let schema = resolveRef(input, root);
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema, root);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    return false;
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (branches) return branches.some((b) => (isObj(b) || typeof b === 'boolean') && conforms(b, value, root));
  if (schema.type === undefined && !isObj(schema.properties) && schema.items === undefined) return true;
  return typesOf(schema).some((t) => conformsType(t, schema, value, root));
}

function conformsType(type: string, schema: JsonSchema, value: unknown, root: JsonSchema): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
    case 'number': {
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        (type === 'integer' && !Number.isInteger(value))
      )
        return false;
      const [lo, hi, xlo, xhi] = [
        schema.minimum,
        schema.maximum,
        schema.exclusiveMinimum,
        schema.exclusiveMaximum,
      ].map(num);
      return !(
        (lo !== undefined && value < lo) ||
        (hi !== undefined && value > hi) ||
        (xlo !== undefined && value <= xlo) ||
        (xhi !== undefined && value >= xhi)
      );
    }
    case 'string': {
      if (typeof value !== 'string') return false;
      const [lo, hi] = [num(schema.minLength), num(schema.maxLength)];
      if ((lo !== undefined && value.length < lo) || (hi !== undefined && value.length > hi)) return false;
      if (typeof schema.pattern === 'string') {
        try {
          if (!new RegExp(schema.pattern, 'u').test(value)) return false;
        } catch {
          return false;
        }
      }
      return true;
    }
    case 'array': {
      if (!Array.isArray(value)) return false;
      const [lo, hi] = [num(schema.minItems), num(schema.maxItems)];
      if ((lo !== undefined && value.length < lo) || (hi !== undefined && value.length > hi)) return false;
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const items = isObj(schema.items) || typeof schema.items === 'boolean' ? schema.items : true;
      return value.every((v, i) => {
        const s = i < prefix.length ? prefix[i] : items;
        return (isObj(s) || typeof s === 'boolean') && conforms(s, v, root);
      });
    }
    case 'object': {
      if (!isObj(value)) return false;
      const properties = isObj(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      if (!required.every((k) => typeof k === 'string' && k in value)) return false;
      if (schema.additionalProperties === false && Object.keys(value).some((k) => !(k in properties)))
        return false;
      return Object.entries(value).every(([k, v]) => {
        const s = properties[k];
        return s === undefined || ((isObj(s) || typeof s === 'boolean') && conforms(s, v, root));
      });
    }
    default:
      return true;
  }
}
