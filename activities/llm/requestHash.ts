import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always serialize to equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const src = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(src)
          .sort()
          .map((k) => [k, src[k]]),
      );
    }
    return v;
  });
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The response-cache key: what determines the answer, and nothing else. */
export function requestHash(parts: {
  model: string;
  messages: unknown;
  schema: unknown;
  seed: number;
}): string {
  return sha256Hex(
    canonicalJson({ model: parts.model, messages: parts.messages, schema: parts.schema, seed: parts.seed }),
  );
}
