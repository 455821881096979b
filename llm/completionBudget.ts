/**
 * The `max_completion_tokens` of a node, derived from its output schema: the longest JSON the
 * schema allows (string maxLength, array maxItems, enum values, property names), in tokens at a
 * conservative two characters per token, doubled as headroom for reasoning models (whose
 * reasoning counts against the same limit), kept between a floor and a cap. Unbounded strings and arrays
 * get a default size, so a runaway answer is cut off instead of billed without end.
 */
export const COMPLETION_FLOOR = 4096;
export const COMPLETION_CAP = 32_768;
const UNBOUNDED_STRING_CHARS = 2000;
const UNBOUNDED_ARRAY_ITEMS = 20;
const MAX_DEPTH = 12;

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Characters of the longest JSON text the schema admits (approximately, never below it for bounded parts). */
export function maxJsonChars(schema: unknown, root: unknown = schema, depth = 0): number {
  if (!isSchema(schema) || depth > MAX_DEPTH) return UNBOUNDED_STRING_CHARS;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = ref
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (node, key) => (isSchema(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        root,
      );
    return maxJsonChars(target, root, depth + 1);
  }
  const alternatives = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (alternatives) return Math.max(0, ...alternatives.map((s) => maxJsonChars(s, root, depth + 1)));
  if (Array.isArray(schema.enum)) return Math.max(4, ...schema.enum.map((v) => JSON.stringify(v).length));
  if ('const' in schema) return JSON.stringify(schema.const).length;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      // Escapes can double a character; quotes add two.
      return 2 + 2 * (typeof schema.maxLength === 'number' ? schema.maxLength : UNBOUNDED_STRING_CHARS);
    case 'integer':
    case 'number':
      return 24;
    case 'boolean':
    case 'null':
      return 5;
    case 'array': {
      const items = typeof schema.maxItems === 'number' ? schema.maxItems : UNBOUNDED_ARRAY_ITEMS;
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const each = tuple.reduce<number>((sum, s) => sum + maxJsonChars(s, root, depth + 1) + 1, 0);
      const rest = Math.max(0, items - tuple.length) * (maxJsonChars(schema.items, root, depth + 1) + 1);
      return 2 + each + rest;
    }
    case 'object': {
      const props = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
      const fields = props.reduce(
        (sum, [key, s]) => sum + key.length + 4 + maxJsonChars(s, root, depth + 1),
        0,
      );
      const extra = isSchema(schema.additionalProperties)
        ? UNBOUNDED_ARRAY_ITEMS * (40 + maxJsonChars(schema.additionalProperties, root, depth + 1))
        : 0;
      return 2 + fields + extra;
    }
    default:
      return UNBOUNDED_STRING_CHARS;
  }
}

export function maxCompletionTokens(jsonSchema: Record<string, unknown>): number {
  // Half a token per character, doubled for reasoning: one token per character of the bound.
  const tokens = maxJsonChars(jsonSchema);
  return Math.min(COMPLETION_CAP, Math.max(COMPLETION_FLOOR, tokens));
}
