import { createHash } from 'node:crypto';
import { parseXml, XmlElement, type XmlNode } from './xml.ts';

/**
 * XML parts parsed before, keyed by their text's digest. Verification opens the same packages
 * hundreds of times (every check of every mutant, wrong and right solution), and a state an edit
 * made differs from the one it came from in a part or two: its styles, theme, settings and other
 * slides are the same text. Parsing them again was a fifth of a whole-library round's main-thread
 * time. Entries are pristine parses: a reader gets a copy, since editors change the tree in place.
 */
const MAX_CHARS = 64 << 20;
const entries = new Map<string, { root: XmlElement; chars: number }>();
let chars = 0;

function copy(node: XmlNode): XmlNode {
  return typeof node === 'string'
    ? node
    : new XmlElement(node.name, { ...node.attrs }, node.children.map(copy));
}

/** The part's text parsed: from the cache when the same text was parsed before. */
export function parsePart(text: string): XmlElement {
  const key = createHash('sha1').update(text).digest('base64');
  const hit = entries.get(key);
  if (hit) {
    // Least recently used goes first: a hit moves to the back.
    entries.delete(key);
    entries.set(key, hit);
    return copy(hit.root) as XmlElement;
  }
  const root = parseXml(text);
  if (text.length <= MAX_CHARS / 4) {
    entries.set(key, { root: copy(root) as XmlElement, chars: text.length });
    chars += text.length;
    for (const [k, e] of entries) {
      if (chars <= MAX_CHARS) break;
      entries.delete(k);
      chars -= e.chars;
    }
  }
  return root;
}
