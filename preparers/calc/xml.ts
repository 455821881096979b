import { XMLParser } from 'fast-xml-parser';
import type JSZip from 'jszip';

/** Raw OOXML access for what exceljs does not model (charts, drawings, some LibreOffice output). */

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
});

export type XmlNode = Record<string, unknown>;

export function parseXml(text: string): XmlNode {
  return parser.parse(text) as XmlNode;
}

/** Child elements; a text-only element (parsed as a plain string) becomes `{'#text': [s]}`. */
function children(node: unknown): XmlNode[] {
  if (!Array.isArray(node)) return [];
  return node.flatMap((n): XmlNode[] => {
    if (typeof n === 'string' || typeof n === 'number') return [{ '#text': [String(n)] }];
    return typeof n === 'object' && n !== null ? [n as XmlNode] : [];
  });
}

/** Every element named `tag` (namespace prefix removed) below `node`, depth first. */
export function findAll(node: XmlNode, tag: string): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: XmlNode): void => {
    for (const [key, value] of Object.entries(n)) {
      if (key.startsWith('@_') || key === '#text') continue;
      for (const child of children(value)) {
        if (key === tag) out.push(child);
        walk(child);
      }
    }
  };
  walk(node);
  return out;
}

export function first(node: XmlNode, tag: string): XmlNode | undefined {
  return findAll(node, tag)[0];
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const v = node?.[`@_${name}`];
  return typeof v === 'string' ? v : undefined;
}

/** Concatenated text of a node and its descendants (text-only elements parse as plain strings). */
export function text(node: XmlNode | undefined): string {
  if (!node) return '';
  let s = '';
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_')) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string' || typeof item === 'number') s += String(item);
      else if (typeof item === 'object' && item !== null) s += text(item as XmlNode);
    }
  }
  return s;
}

export async function readPart(zip: JSZip, path: string): Promise<string | undefined> {
  return zip.file(path)?.async('string');
}

export interface Relationship {
  id: string;
  type: string;
  /** Resolved package path, e.g. `xl/charts/chart1.xml`. */
  target: string;
}

export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash)}/_rels/${part.slice(slash + 1)}.rels`;
}

export function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = fromPart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

export async function relationships(zip: JSZip, part: string): Promise<Relationship[]> {
  const xml = await readPart(zip, relsPathOf(part));
  if (!xml) return [];
  return findAll(parseXml(xml), 'Relationship').map((r) => ({
    id: attr(r, 'Id') ?? '',
    type: attr(r, 'Type') ?? '',
    target: resolveTarget(part, attr(r, 'Target') ?? ''),
  }));
}

/** Worksheets in workbook order with their part paths. */
export async function sheetParts(zip: JSZip): Promise<{ name: string; path: string }[]> {
  const wb = await readPart(zip, 'xl/workbook.xml');
  if (!wb) throw new Error('not an xlsx workbook: xl/workbook.xml is missing');
  const rels = await relationships(zip, 'xl/workbook.xml');
  return findAll(parseXml(wb), 'sheet').map((s) => {
    const rid = attr(s, 'id') ?? '';
    return { name: attr(s, 'name') ?? '', path: rels.find((r) => r.id === rid)?.target ?? '' };
  });
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
