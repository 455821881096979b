import { ContentCache } from '../contentCache.ts';
import { parseXml, XmlElement, type XmlNode } from './xml.ts';

/**
 * XML parts parsed before, keyed by their text's digest. A state an edit made differs from the one
 * it came from in a part or two: its styles, theme, settings and other slides are the same text, so
 * mutants and alternatives parse only what changed. Parsing them again was a fifth of a
 * whole-library round's main-thread time. Entries are pristine parses: a reader gets a copy, since
 * editors change the tree in place.
 */
const parsed = new ContentCache<XmlElement>(64 << 20);

function copy(node: XmlNode): XmlNode {
  return typeof node === 'string'
    ? node
    : new XmlElement(node.name, { ...node.attrs }, node.children.map(copy));
}

/** The part's text parsed: from the cache when the same text was parsed before. */
export function parsePart(text: string): XmlElement {
  return copy(
    parsed.get(
      text,
      () => parseXml(text),
      () => text.length,
    ),
  ) as XmlElement;
}
