import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * What an LLM node tells the offline model about a good answer, from the skill's offline templates:
 * - `{ fields }`: candidate values per property path (dotted; `*` stands for any array item, e.g.
 *   `columns.*.name`); the model picks one per field with its seeded PRNG and generates the rest;
 * - `{ value }`: the complete answer, returned as is.
 */
export const offlineHintSchema = z.union([
  z.strictObject({ value: z.unknown() }),
  z.strictObject({ fields: z.record(z.string().min(1), z.array(z.unknown()).min(1)) }),
]);
export type OfflineHint = z.infer<typeof offlineHintSchema>;

/** The request header naming a registered hint. */
export const offlineHintHeader = 'x-forge-offline-hint';

/**
 * Hints for requests in flight, shared in-process between the LLM client (which registers the hint
 * and sends its id in a header) and the offline model server (which looks it up). Keeping hints out
 * of the request body keeps the request identical to what a real provider would receive.
 */
export class OfflineHintRegistry {
  #hints = new Map<string, OfflineHint>();

  register(hint: unknown): string {
    const parsed = offlineHintSchema.safeParse(hint);
    if (!parsed.success) {
      throw new TypeError(
        `offline hint must be {value} or {fields: {path: [candidates...]}}: ${parsed.error.message}`,
      );
    }
    const id = randomUUID();
    this.#hints.set(id, parsed.data);
    return id;
  }

  get(id: string): OfflineHint | undefined {
    return this.#hints.get(id);
  }

  release(id: string): void {
    this.#hints.delete(id);
  }

  get size(): number {
    return this.#hints.size;
  }
}
