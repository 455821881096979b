import { XMLParser } from 'fast-xml-parser';
import { stripXmlInvalid } from './xmlChars.ts';

/**
 * A small mutable XML tree for editing OOXML parts in place. Element and attribute names keep
 * their prefixes (`w:p`, `r:id`) because OOXML parts use fixed prefixes in practice; the probes
 * match on local names where a foreign writer (LibreOffice) might choose other prefixes.
 */
export class XmlElement {
  constructor(
    public name: string,
    public attrs: Record<string, string> = {},
    public children: XmlNode[] = [],
  ) {}

  get localName(): string {
    const i = this.name.indexOf(':');
    return i < 0 ? this.name : this.name.slice(i + 1);
  }

  /** Element children, optionally only those with this (prefixed) name. */
  elements(name?: string): XmlElement[] {
    const out: XmlElement[] = [];
    for (const c of this.children)
      if (c instanceof XmlElement && (name === undefined || c.name === name)) out.push(c);
    return out;
  }

  first(name: string): XmlElement | undefined {
    for (const c of this.children) if (c instanceof XmlElement && c.name === name) return c;
    return undefined;
  }

  /** The first child with this name, created (appended, or at `index`) when missing. */
  ensure(name: string, index?: number): XmlElement {
    const found = this.first(name);
    if (found) return found;
    const created = new XmlElement(name);
    if (index === undefined) this.children.push(created);
    else this.children.splice(index, 0, created);
    return created;
  }

  /** Every descendant (depth first, document order) with this name. */
  descendants(name: string): XmlElement[] {
    const out: XmlElement[] = [];
    const walk = (e: XmlElement) => {
      for (const c of e.children) {
        if (!(c instanceof XmlElement)) continue;
        if (c.name === name) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }

  /** Concatenated text of all descendant text nodes. */
  text(): string {
    let s = '';
    for (const c of this.children) s += typeof c === 'string' ? c : c.text();
    return s;
  }

  setText(text: string): void {
    this.children = [text];
  }

  remove(child: XmlElement): void {
    const i = this.children.indexOf(child);
    if (i >= 0) this.children.splice(i, 1);
  }

  insertAfter(ref: XmlElement, ...nodes: XmlElement[]): void {
    const i = this.children.indexOf(ref);
    if (i < 0) throw new Error(`insertAfter: <${ref.name}> is not a child of <${this.name}>`);
    this.children.splice(i + 1, 0, ...nodes);
  }

  clone(): XmlElement {
    return new XmlElement(
      this.name,
      { ...this.attrs },
      this.children.map((c) => (typeof c === 'string' ? c : c.clone())),
    );
  }
}

export type XmlNode = XmlElement | string;

/** Build an element tersely: `el('w:b', {'w:val': '1'})`. */
export function el(name: string, attrs: Record<string, string> = {}, ...children: XmlNode[]): XmlElement {
  return new XmlElement(name, attrs, children);
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
});

type Ordered = Record<string, unknown>;

function convert(items: Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of items) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      const value = item[key];
      if (key === '#text') out.push(String(value));
      else if (key === '#cdata')
        out.push(...convert(value as Ordered[]).map((n) => (typeof n === 'string' ? n : '')));
      else if (key === '#comment' || key.startsWith('?')) continue;
      else {
        const attrs = (item[':@'] ?? {}) as Record<string, string>;
        out.push(new XmlElement(key, { ...attrs }, convert(value as Ordered[])));
      }
    }
  }
  return out;
}

/** Parse an XML part; comments and processing instructions are dropped. */
export function parseXml(xml: string): XmlElement {
  const nodes = convert(parser.parse(xml) as Ordered[]);
  const root = nodes.find((n): n is XmlElement => n instanceof XmlElement);
  if (!root) throw new Error('XML part has no root element');
  return root;
}

function escapeText(s: string): string {
  return stripXmlInvalid(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return escapeText(s)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function write(node: XmlNode, out: string[]): void {
  if (typeof node === 'string') {
    out.push(escapeText(node));
    return;
  }
  out.push('<', node.name);
  for (const [k, v] of Object.entries(node.attrs)) out.push(' ', k, '="', escapeAttr(v), '"');
  if (node.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const c of node.children) write(c, out);
  out.push('</', node.name, '>');
}

export function serializeXml(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'];
  write(root, out);
  return out.join('');
}
