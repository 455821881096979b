import JSZip from 'jszip';
import { parsePart } from './partCache.ts';
import { el, serializeXml, type XmlElement } from './xml.ts';

const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface Relationship {
  id: string;
  type: string;
  /** Target resolved to a package path (no leading slash); external targets are kept as written. */
  target: string;
  external: boolean;
}

/** Directory of a part path, `word/document.xml` → `word`. */
function dirOf(part: string): string {
  const i = part.lastIndexOf('/');
  return i < 0 ? '' : part.slice(0, i);
}

/** Resolve a relationship target relative to the part that owns it. */
export function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = dirOf(fromPart).split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Target of `toPart` written relative to `fromPart`'s directory. */
export function relativeTarget(fromPart: string, toPart: string): string {
  const from = dirOf(fromPart).split('/').filter(Boolean);
  const to = toPart.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
}

export function relsPathOf(part: string): string {
  const dir = dirOf(part);
  const base = part.slice(dir.length ? dir.length + 1 : 0);
  return `${dir ? `${dir}/` : ''}_rels/${base}.rels`;
}

/**
 * An opened OOXML zip (docx, pptx). Parsed XML parts are cached and written back on `save`,
 * so several edits share one parse.
 */
export class OoxmlPackage {
  private readonly xml = new Map<string, XmlElement>();
  private constructor(
    private readonly zip: JSZip,
    private readonly readAs?: (xml: string) => string,
  ) {}

  /** `readAs` rewrites each part's XML before it is parsed (a probe reading text as typed). */
  static async open(
    bytes: Uint8Array,
    label: string,
    readAs?: (xml: string) => string,
  ): Promise<OoxmlPackage> {
    try {
      return new OoxmlPackage(await JSZip.loadAsync(bytes), readAs);
    } catch (err) {
      throw new Error(`${label} is not a readable OOXML zip: ${(err as Error).message}`);
    }
  }

  has(part: string): boolean {
    return this.xml.has(part) || this.zip.file(part) !== null;
  }

  /** Part paths, optionally only those starting with a prefix. */
  parts(prefix = ''): string[] {
    const out: string[] = [];
    this.zip.forEach((p, f) => {
      if (!f.dir && p.startsWith(prefix)) out.push(p);
    });
    return out;
  }

  async part(part: string): Promise<XmlElement> {
    const cached = this.xml.get(part);
    if (cached) return cached;
    const file = this.zip.file(part);
    if (!file) throw new Error(`part ${part} is missing from the package`);
    const xml = await file.async('string');
    const root = parsePart(this.readAs ? this.readAs(xml) : xml);
    this.xml.set(part, root);
    return root;
  }

  async partIfExists(part: string): Promise<XmlElement | undefined> {
    return this.has(part) ? this.part(part) : undefined;
  }

  setPart(part: string, root: XmlElement): void {
    this.xml.set(part, root);
  }

  setBinary(part: string, bytes: Uint8Array): void {
    this.xml.delete(part);
    this.zip.file(part, bytes);
  }

  deletePart(part: string): void {
    this.xml.delete(part);
    this.zip.remove(part);
  }

  async rels(part: string): Promise<Relationship[]> {
    const root = await this.partIfExists(relsPathOf(part));
    if (!root) return [];
    return root.elements().map((r) => {
      const external = r.attrs.TargetMode === 'External';
      return {
        id: r.attrs.Id,
        type: r.attrs.Type,
        target: external ? r.attrs.Target : resolveTarget(part, r.attrs.Target),
        external,
      };
    });
  }

  /** Targets of `part`'s relationships whose type ends with `/typeSuffix`. */
  async related(part: string, typeSuffix: string): Promise<Relationship[]> {
    return (await this.rels(part)).filter((r) => r.type.endsWith(`/${typeSuffix}`));
  }

  async addRel(part: string, type: string, toPart: string): Promise<string> {
    const relsPath = relsPathOf(part);
    let root = await this.partIfExists(relsPath);
    if (!root) {
      root = el('Relationships', { xmlns: REL_NS });
      this.setPart(relsPath, root);
    }
    const used = new Set(root.elements().map((r) => r.attrs.Id));
    let n = root.elements().length + 1;
    while (used.has(`rId${n}`)) n++;
    const id = `rId${n}`;
    root.children.push(el('Relationship', { Id: id, Type: type, Target: relativeTarget(part, toPart) }));
    return id;
  }

  async removeRel(part: string, id: string): Promise<void> {
    const root = await this.partIfExists(relsPathOf(part));
    if (!root) return;
    root.children = root.children.filter((c) => typeof c === 'string' || c.attrs.Id !== id);
  }

  /** Register a part's content type (Override) or an extension default. */
  async setContentType(part: string, contentType: string): Promise<void> {
    const root = await this.part('[Content_Types].xml');
    root.children = root.children.filter((c) => typeof c === 'string' || c.attrs.PartName !== `/${part}`);
    root.children.push(el('Override', { PartName: `/${part}`, ContentType: contentType }));
  }

  async removeContentType(part: string): Promise<void> {
    const root = await this.part('[Content_Types].xml');
    root.children = root.children.filter((c) => typeof c === 'string' || c.attrs.PartName !== `/${part}`);
  }

  async ensureDefaultContentType(extension: string, contentType: string): Promise<void> {
    const root = await this.part('[Content_Types].xml');
    const ext = extension.toLowerCase();
    if (root.elements('Default').some((d) => d.attrs.Extension?.toLowerCase() === ext)) return;
    root.children.unshift(el('Default', { Extension: ext, ContentType: contentType }));
  }

  /** A part path `prefix<N>suffix` not yet used, N counting from 1. */
  freshName(prefix: string, suffix: string): string {
    let n = 1;
    while (this.has(`${prefix}${n}${suffix}`)) n++;
    return `${prefix}${n}${suffix}`;
  }

  async save(): Promise<Uint8Array> {
    for (const [part, root] of this.xml) this.zip.file(part, serializeXml(root));
    pinEntryDates(this.zip);
    return this.zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: 6 },
    });
  }
}

/**
 * Every entry dated the same fixed moment: the same edits then give the same bytes (JSZip dates a
 * new entry by the clock), so a state can be told equal to another by its bytes and content keys
 * repeat. Office applications ignore the dates of a package's parts.
 */
export function pinEntryDates(zip: JSZip): void {
  zip.forEach((_, entry) => {
    entry.date = PINNED_DATE;
  });
}

const PINNED_DATE = new Date('2024-01-01T00:00:00Z');
