import { createHash } from 'node:crypto';
import { sortKeys } from '../infra/canonicalJson.ts';

/** Sorted keys at every level, one line: equal requests hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
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
