import { createHash } from 'node:crypto';
import { XmlElement, type XmlNode } from './xml.ts';

/**
 * Parsed XML parts of packages seen before, keyed by the package's digest and the part's path.
 * Verification opens the same few packages hundreds of times (every check of every mutant, wrong
 * and right solution probes the same initial and oracle files); inflating and parsing their parts
 * again was a fifth of a whole-library round's main-thread time. Entries are pristine parses: a
 * reader gets a copy, since editors change the tree in place.
 */
const MAX_CHARS = 64 << 20;
const entries = new Map<string, { root: XmlElement; chars: number }>();
let chars = 0;

/** The key prefix of a package's bytes. */
export function packageDigest(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64');
}

function copy(node: XmlNode): XmlNode {
  return typeof node === 'string'
    ? node
    : new XmlElement(node.name, { ...node.attrs }, node.children.map(copy));
}

/** A copy of the part parsed before from a package with this digest, or undefined. */
export function cachedPart(digest: string, part: string): XmlElement | undefined {
  const key = `${digest}\0${part}`;
  const hit = entries.get(key);
  if (!hit) return undefined;
  // Least recently used goes first: a hit moves to the back.
  entries.delete(key);
  entries.set(key, hit);
  return copy(hit.root) as XmlElement;
}

/** Keeps a copy of a freshly parsed part (of `size` characters of XML) for later readers. */
export function rememberPart(digest: string, part: string, root: XmlElement, size: number): void {
  const key = `${digest}\0${part}`;
  if (entries.has(key) || size > MAX_CHARS / 4) return;
  entries.set(key, { root: copy(root) as XmlElement, chars: size });
  chars += size;
  for (const [k, e] of entries) {
    if (chars <= MAX_CHARS) break;
    entries.delete(k);
    chars -= e.chars;
  }
}
