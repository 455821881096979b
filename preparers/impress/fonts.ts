import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Deck, placeholder, type Role, roleOf, shapes, spTree } from './deck.ts';
import type { FontSpec } from './schema.ts';

/** Child order DrawingML requires in a:rPr. */
const RPR_ORDER = [
  'a:ln',
  'a:noFill',
  'a:solidFill',
  'a:gradFill',
  'a:blipFill',
  'a:pattFill',
  'a:grpFill',
  'a:effectLst',
  'a:effectDag',
  'a:highlight',
  'a:uLnTx',
  'a:uLn',
  'a:uFillTx',
  'a:uFill',
  'a:latin',
  'a:ea',
  'a:cs',
  'a:sym',
  'a:hlinkClick',
  'a:hlinkMouseOver',
  'a:rtl',
  'a:extLst',
];
const FILLS = new Set(['a:noFill', 'a:solidFill', 'a:gradFill', 'a:blipFill', 'a:pattFill', 'a:grpFill']);

function put(rPr: XmlElement, child: XmlElement): void {
  rPr.children = rPr.children.filter(
    (c) => typeof c === 'string' || (c.name !== child.name && !(FILLS.has(child.name) && FILLS.has(c.name))),
  );
  const rank = RPR_ORDER.indexOf(child.name);
  const at = rPr.children.findIndex((c) => typeof c !== 'string' && RPR_ORDER.indexOf(c.name) > rank);
  if (at < 0) rPr.children.push(child);
  else rPr.children.splice(at, 0, child);
}

/** Write the requested properties into a run's (or paragraph end's) a:rPr. */
export function applyFont(rPr: XmlElement, f: FontSpec): void {
  if (f.bold !== undefined) rPr.attrs.b = f.bold ? '1' : '0';
  if (f.italic !== undefined) rPr.attrs.i = f.italic ? '1' : '0';
  if (f.size !== undefined) rPr.attrs.sz = String(Math.round(f.size * 100));
  if (f.color !== undefined) put(rPr, el('a:solidFill', {}, el('a:srgbClr', { val: f.color.toUpperCase() })));
  if (f.font !== undefined) {
    put(rPr, el('a:latin', { typeface: f.font }));
    put(rPr, el('a:ea', { typeface: f.font }));
    put(rPr, el('a:cs', { typeface: f.font }));
  }
}

export interface EffectiveFont {
  bold: boolean;
  italic: boolean;
  size?: number;
  font?: string;
  color?: string;
}

type Level = XmlElement | undefined;

function lvlDefRPr(lstStyle: XmlElement | undefined, level: number): Level {
  return lstStyle?.first(`a:lvl${level + 1}pPr`)?.first('a:defRPr');
}

function matchingPlaceholder(tree: XmlElement | undefined, ph: XmlElement): XmlElement | undefined {
  if (!tree) return undefined;
  const candidates = shapes(tree).filter((s) => placeholder(s));
  const type = ph.attrs.type ?? 'obj';
  const isTitle = type === 'title' || type === 'ctrTitle';
  return (
    candidates.find((s) => ph.attrs.idx !== undefined && placeholder(s)?.attrs.idx === ph.attrs.idx) ??
    candidates.find((s) => {
      const t = placeholder(s)?.attrs.type ?? 'obj';
      return isTitle ? t === 'title' || t === 'ctrTitle' : t === type;
    })
  );
}

/**
 * Resolves run properties the way a presentation program does: run → shape list style →
 * layout placeholder → master placeholder → master text styles, with theme fonts resolved.
 */
export class FontResolver {
  private constructor(
    private readonly layoutTree: XmlElement | undefined,
    private readonly masterTree: XmlElement | undefined,
    private readonly txStyles: XmlElement | undefined,
    private readonly themeFonts: { major?: string; minor?: string },
  ) {}

  static async forSlide(deck: Deck, slidePart: string): Promise<FontResolver> {
    const layoutPart = (await deck.pkg.related(slidePart, 'slideLayout'))[0]?.target;
    const layout = layoutPart ? await deck.pkg.partIfExists(layoutPart) : undefined;
    const masterPart = layoutPart
      ? (await deck.pkg.related(layoutPart, 'slideMaster'))[0]?.target
      : undefined;
    const master = masterPart ? await deck.pkg.partIfExists(masterPart) : undefined;
    const themePart = masterPart ? (await deck.pkg.related(masterPart, 'theme'))[0]?.target : undefined;
    const theme = themePart ? await deck.pkg.partIfExists(themePart) : undefined;
    const scheme = theme?.first('a:themeElements')?.first('a:fontScheme');
    return new FontResolver(layout && spTree(layout), master && spTree(master), master?.first('p:txStyles'), {
      major: scheme?.first('a:majorFont')?.first('a:latin')?.attrs.typeface,
      minor: scheme?.first('a:minorFont')?.first('a:latin')?.attrs.typeface,
    });
  }

  private levels(shape: XmlElement, p: XmlElement, run: XmlElement): Level[] {
    const level = Number(p.first('a:pPr')?.attrs.lvl ?? 0);
    const ph = placeholder(shape);
    const layoutPh = ph && matchingPlaceholder(this.layoutTree, ph);
    const masterPh = ph && matchingPlaceholder(this.masterTree, placeholder(layoutPh ?? shape) ?? ph);
    const role: Role | undefined = roleOf(shape);
    const styleName = role === 'title' ? 'p:titleStyle' : role === 'body' ? 'p:bodyStyle' : 'p:otherStyle';
    return [
      run.first('a:rPr'),
      p.first('a:pPr')?.first('a:defRPr'),
      lvlDefRPr(shape.first('p:txBody')?.first('a:lstStyle'), level),
      lvlDefRPr(layoutPh?.first('p:txBody')?.first('a:lstStyle'), level),
      lvlDefRPr(masterPh?.first('p:txBody')?.first('a:lstStyle'), level),
      lvlDefRPr(this.txStyles?.first(styleName), level),
    ];
  }

  private font(typeface: string | undefined): string | undefined {
    if (typeface === undefined) return undefined;
    if (typeface.startsWith('+mj')) return this.themeFonts.major;
    if (typeface.startsWith('+mn')) return this.themeFonts.minor;
    return typeface;
  }

  effective(shape: XmlElement, p: XmlElement, run: XmlElement): EffectiveFont {
    const levels = this.levels(shape, p, run);
    const attr = (name: string) => levels.find((l) => l?.attrs[name] !== undefined)?.attrs[name];
    const child = (name: string) => levels.find((l) => l?.first(name))?.first(name);
    const fill = levels.find((l) => l?.elements().some((c) => FILLS.has(c.name)));
    const srgb = fill?.first('a:solidFill')?.first('a:srgbClr')?.attrs.val;
    const sz = attr('sz');
    const on = (v: string | undefined) => v === '1' || v === 'true';
    return {
      bold: on(attr('b')),
      italic: on(attr('i')),
      size: sz === undefined ? 18 : Number(sz) / 100,
      font: this.font(child('a:latin')?.attrs.typeface),
      color: srgb?.toUpperCase(),
    };
  }
}
