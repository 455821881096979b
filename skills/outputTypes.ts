import { z } from 'zod';

/**
 * The small type language of an LLM node's `output`. Model-written strings that later become file
 * names, sheet names or identifiers pass through these narrow types before they touch anything.
 *
 *   scalar:  string | text | int | number | bool | filename | sheet_name | identifier | email | enum(a|b)
 *   array:   <scalar>[min..max]   or   {array: <decl>, min: n, max: m}
 *   object:  a map of field name → decl
 */
export type OutputDecl =
  | string
  | { array: OutputDecl; min?: number; max?: number }
  | { [field: string]: OutputDecl };

export const outputDeclSchema: z.ZodType<OutputDecl> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z
      .object({
        array: outputDeclSchema,
        min: z.number().int().min(0).optional(),
        max: z.number().int().min(1).optional(),
      })
      .strict(),
    z.record(
      z.string().regex(/^[a-z][a-z0-9_]*$/, 'output fields are lowercase identifiers'),
      outputDeclSchema,
    ),
  ]),
);

type JsonSchema = Record<string, unknown>;
export interface CompiledOutput {
  zod: z.ZodType;
  json: JsonSchema;
}

const noControl = /^[^\u0000-\u0008\u000b-\u001f\u007f]*$/;
const scalars: Record<string, () => CompiledOutput> = {
  string: () => ({
    zod: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters or newlines'),
    json: { type: 'string', minLength: 1, maxLength: 200 },
  }),
  text: () => ({
    zod: z.string().min(1).max(2000).regex(noControl, 'no control characters'),
    json: { type: 'string', minLength: 1, maxLength: 2000 },
  }),
  int: () => ({ zod: z.number().int(), json: { type: 'integer' } }),
  number: () => ({ zod: z.number().finite(), json: { type: 'number' } }),
  bool: () => ({ zod: z.boolean(), json: { type: 'boolean' } }),
  filename: () =>
    pattern(
      '^[A-Za-z0-9][A-Za-z0-9 _-]{0,47}$',
      'a file name: letters, digits, space, _ or -, no dots, at most 48',
    ),
  sheet_name: () =>
    pattern('^[A-Za-z0-9][A-Za-z0-9 _-]{0,30}$', 'a sheet name: letters, digits, space, _ or -, at most 31'),
  identifier: () => pattern('^[a-z][a-z0-9_]{0,39}$', 'a lowercase identifier'),
  email: () =>
    pattern('^[a-z0-9._-]{1,40}@[a-z0-9-]{1,30}(\\.[a-z0-9-]{1,20}){1,3}$', 'a lowercase e-mail address'),
};

function pattern(source: string, message: string): CompiledOutput {
  return { zod: z.string().regex(new RegExp(source), message), json: { type: 'string', pattern: source } };
}

export class OutputDeclError extends Error {
  override name = 'OutputDeclError';
}

export function compileOutput(decl: OutputDecl, where = 'output'): CompiledOutput {
  if (typeof decl === 'string') return compileString(decl.trim(), where);
  if (
    'array' in decl &&
    (typeof decl.array === 'string' || typeof decl.array === 'object') &&
    !Array.isArray(decl.array)
  ) {
    const keys = Object.keys(decl);
    if (keys.every((k) => k === 'array' || k === 'min' || k === 'max')) {
      const d = decl as { array: OutputDecl; min?: number; max?: number };
      return arrayOf(compileOutput(d.array, `${where}.array`), d.min ?? 1, d.max ?? 20, where);
    }
  }
  const fields = Object.entries(decl as Record<string, OutputDecl>);
  if (fields.length === 0) throw new OutputDeclError(`${where}: an object needs at least one field`);
  const shape: Record<string, z.ZodType> = {};
  const properties: Record<string, JsonSchema> = {};
  for (const [name, sub] of fields) {
    const c = compileOutput(sub, `${where}.${name}`);
    shape[name] = c.zod;
    properties[name] = c.json;
  }
  return {
    zod: z.object(shape).strict(),
    json: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  };
}

function compileString(decl: string, where: string): CompiledOutput {
  const arr = /^(.+)\[(\d+)\.\.(\d+)\]$/.exec(decl);
  if (arr) return arrayOf(compileString(arr[1]!, where), Number(arr[2]), Number(arr[3]), where);
  const en = /^enum\(([^)]+)\)$/.exec(decl);
  if (en) {
    const options = en[1]!
      .split('|')
      .map((s) => s.trim())
      .filter(Boolean);
    if (options.length === 0) throw new OutputDeclError(`${where}: enum() needs options`);
    return { zod: z.enum(options as [string, ...string[]]), json: { type: 'string', enum: options } };
  }
  const scalar = scalars[decl];
  if (!scalar) {
    throw new OutputDeclError(
      `${where}: unknown output type "${decl}" (known: ${Object.keys(scalars).join(', ')}, enum(a|b), T[min..max])`,
    );
  }
  return scalar();
}

function arrayOf(item: CompiledOutput, min: number, max: number, where: string): CompiledOutput {
  if (min > max) throw new OutputDeclError(`${where}: array min ${min} exceeds max ${max}`);
  return {
    zod: z.array(item.zod).min(min).max(max),
    json: { type: 'array', items: item.json, minItems: min, maxItems: max },
  };
}
