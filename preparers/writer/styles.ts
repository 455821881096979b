import type { XmlElement } from '../ooxml/xml.ts';
import type { Docx } from './document.ts';

interface StyleDef {
  id: string;
  name: string;
  type: string;
  basedOn?: string;
  pPr?: XmlElement;
  rPr?: XmlElement;
}

/**
 * Resolves paragraph and run properties through the style hierarchy (direct formatting →
 * character style → paragraph style and its basedOn chain → document defaults), which is how
 * both Word and LibreOffice decide what a reader sees.
 */
export class StyleSheet {
  private constructor(
    private readonly styles: Map<string, StyleDef>,
    private readonly defaultPPr: XmlElement | undefined,
    private readonly defaultRPr: XmlElement | undefined,
    private readonly defaultParagraphStyle: string | undefined,
  ) {}

  static async load(docx: Docx): Promise<StyleSheet> {
    const part = (await docx.pkg.related('word/document.xml', 'styles'))[0]?.target ?? 'word/styles.xml';
    const root = await docx.pkg.partIfExists(part);
    const styles = new Map<string, StyleDef>();
    let defaultParagraphStyle: string | undefined;
    for (const s of root?.elements('w:style') ?? []) {
      const id = s.attrs['w:styleId'];
      if (!id) continue;
      const type = s.attrs['w:type'] ?? 'paragraph';
      styles.set(id, {
        id,
        type,
        name: s.first('w:name')?.attrs['w:val'] ?? id,
        basedOn: s.first('w:basedOn')?.attrs['w:val'],
        pPr: s.first('w:pPr'),
        rPr: s.first('w:rPr'),
      });
      if (type === 'paragraph' && (s.attrs['w:default'] === '1' || s.attrs['w:default'] === 'true')) {
        defaultParagraphStyle = id;
      }
    }
    const defaults = root?.first('w:docDefaults');
    return new StyleSheet(
      styles,
      defaults?.first('w:pPrDefault')?.first('w:pPr'),
      defaults?.first('w:rPrDefault')?.first('w:rPr'),
      defaultParagraphStyle,
    );
  }

  /** The style's display name (what the UI shows), e.g. "heading 1"; the id if unknown. */
  name(styleId: string): string {
    return this.styles.get(styleId)?.name ?? styleId;
  }

  /** A style id whose name or id normalises to `wanted` ("heading1"), if any. */
  findByName(wanted: string): string | undefined {
    for (const s of this.styles.values())
      if (s.type === 'paragraph' && normaliseStyleName(s.name) === wanted) return s.id;
    for (const s of this.styles.values())
      if (s.type === 'paragraph' && normaliseStyleName(s.id) === wanted) return s.id;
    return undefined;
  }

  paragraphStyle(p: XmlElement): string | undefined {
    return p.first('w:pPr')?.first('w:pStyle')?.attrs['w:val'] ?? this.defaultParagraphStyle;
  }

  private chain(styleId: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let id = styleId;
    while (id && !seen.has(id)) {
      seen.add(id);
      const s = this.styles.get(id);
      if (!s) break;
      out.push(s);
      id = s.basedOn;
    }
    return out;
  }

  /** The first paragraph-property element named `name` along the hierarchy. */
  paragraphProp(
    p: XmlElement,
    name: string,
    accept: (e: XmlElement) => boolean = () => true,
  ): XmlElement | undefined {
    const levels = [
      p.first('w:pPr'),
      ...this.chain(this.paragraphStyle(p)).map((s) => s.pPr),
      this.defaultPPr,
    ];
    for (const pPr of levels) {
      const found = pPr?.first(name);
      if (found && accept(found)) return found;
    }
    return undefined;
  }

  /** The first run-property element named `name` for a run in paragraph `p`. */
  runProp(p: XmlElement, run: XmlElement, name: string): XmlElement | undefined {
    const rPr = run.first('w:rPr');
    const direct = rPr?.first(name);
    if (direct) return direct;
    for (const s of this.chain(rPr?.first('w:rStyle')?.attrs['w:val'])) {
      const found = s.rPr?.first(name);
      if (found) return found;
    }
    for (const s of this.chain(this.paragraphStyle(p))) {
      const found = s.rPr?.first(name);
      if (found) return found;
    }
    return this.defaultRPr?.first(name);
  }
}

/** "Heading 1", "heading 1", "Heading1" → "heading1". */
export function normaliseStyleName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/** OOXML on/off properties: present without w:val, or with a true value, mean on. */
export function isOn(prop: XmlElement | undefined): boolean {
  if (!prop) return false;
  const v = prop.attrs['w:val'];
  return v === undefined || v === '1' || v === 'true' || v === 'on';
}
