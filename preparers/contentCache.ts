import { createHash } from 'node:crypto';

/**
 * Values derived from content, kept by the content's digest: least recently used goes first once
 * the values' total size passes `maxSize`; a value over a quarter of it is not kept. Verification
 * derives the same values over and over (each check of each mutant, wrong and right solution reads
 * the same pictures and parts), so the preparers' decoders and parsers keep theirs here.
 */
export class ContentCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private held = 0;

  constructor(private readonly maxSize: number) {}

  /** The value derived from this content before, or `derive`'s (kept with its `size`). */
  get(content: Uint8Array | string, derive: () => V, sizeOf: (v: V) => number): V {
    const key = createHash('sha1').update(content).digest('base64');
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = derive();
    const size = sizeOf(value);
    if (size <= this.maxSize / 4) {
      this.entries.set(key, { value, size });
      this.held += size;
      for (const [k, e] of this.entries) {
        if (this.held <= this.maxSize) break;
        this.entries.delete(k);
        this.held -= e.size;
      }
    }
    return value;
  }
}
