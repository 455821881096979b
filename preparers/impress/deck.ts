import { typedXml } from '../office/asTyped.ts';
import { OoxmlPackage } from '../ooxml/package.ts';
import type { XmlElement } from '../ooxml/xml.ts';
import type { FileMap } from '../types.ts';

export const PRESENTATION = 'ppt/presentation.xml';

/** An opened .pptx and its slides in presentation order. */
export interface Deck {
  pkg: OoxmlPackage;
  presentation: XmlElement;
  slides: SlideRef[];
}

export interface SlideRef {
  part: string;
  /** The p:sldId entry in presentation.xml. */
  entry: XmlElement;
}

/** `typed`: the deck read with quotes as typed (office/asTyped.ts), as the probes read it. */
export async function openPptx(files: FileMap, file: string, typed = false): Promise<Deck> {
  const bytes = files[file];
  if (!bytes)
    throw new Error(`file ${file} does not exist (have: ${Object.keys(files).join(', ') || 'none'})`);
  const pkg = await OoxmlPackage.open(bytes, file, typed ? typedXml : undefined);
  const presentation = await pkg.part(PRESENTATION);
  return { pkg, presentation, slides: await listSlides(pkg, presentation) };
}

export async function listSlides(pkg: OoxmlPackage, presentation: XmlElement): Promise<SlideRef[]> {
  const rels = await pkg.rels(PRESENTATION);
  const list = presentation.first('p:sldIdLst')?.elements('p:sldId') ?? [];
  return list.map((entry) => {
    const rel = rels.find((r) => r.id === entry.attrs['r:id']);
    if (!rel) throw new Error(`presentation.xml lists slide ${entry.attrs.id} without a relationship`);
    return { part: rel.target, entry };
  });
}

export function slideAt(deck: Deck, n: number, what: string): SlideRef {
  const ref = deck.slides[n - 1];
  if (!ref)
    throw new Error(`${what}: slide ${n} does not exist (the presentation has ${deck.slides.length})`);
  return ref;
}

export function spTree(slide: XmlElement): XmlElement {
  const tree = slide.first('p:cSld')?.first('p:spTree');
  if (!tree) throw new Error('slide has no p:spTree');
  return tree;
}

/** Every shape-like element of the tree (p:sp, p:pic, p:graphicFrame), groups flattened. */
export function shapes(tree: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of tree.elements()) {
    if (c.name === 'p:grpSp') out.push(...shapes(c));
    else if (c.name === 'mc:AlternateContent') {
      const choice = c.first('mc:Choice') ?? c.first('mc:Fallback');
      if (choice) out.push(...shapes(choice));
    } else if (c.name === 'p:sp' || c.name === 'p:pic' || c.name === 'p:graphicFrame') out.push(c);
  }
  return out;
}

function nvPr(shape: XmlElement): XmlElement | undefined {
  const nv = shape.first('p:nvSpPr') ?? shape.first('p:nvPicPr') ?? shape.first('p:nvGraphicFramePr');
  return nv?.first('p:nvPr');
}

/** The placeholder element of a shape, if it is one. */
export function placeholder(shape: XmlElement): XmlElement | undefined {
  return nvPr(shape)?.first('p:ph');
}

export type Role = 'title' | 'body';

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** A placeholder without a type is an object/body placeholder (ECMA-376 default "obj"). */
const BODY_TYPES = new Set(['body', 'obj', 'subTitle']);

export function roleOf(shape: XmlElement): Role | undefined {
  if (shape.name !== 'p:sp') return undefined;
  const ph = placeholder(shape);
  if (!ph) return undefined;
  const type = ph.attrs.type ?? 'obj';
  if (TITLE_TYPES.has(type)) return 'title';
  if (BODY_TYPES.has(type)) return 'body';
  return undefined;
}

export function shapesWithRole(tree: XmlElement, role: Role): XmlElement[] {
  return shapes(tree).filter((s) => roleOf(s) === role);
}

export function paragraphText(p: XmlElement): string {
  let s = '';
  for (const c of p.elements()) {
    if (c.name === 'a:r' || c.name === 'a:fld') s += c.first('a:t')?.text() ?? '';
    else if (c.name === 'a:br') s += '\n';
  }
  return s;
}

export function shapeParagraphs(shape: XmlElement): XmlElement[] {
  return shape.first('p:txBody')?.elements('a:p') ?? [];
}

export function shapeText(shape: XmlElement): string {
  return shapeParagraphs(shape).map(paragraphText).join('\n');
}

export async function slideXml(deck: Deck, ref: SlideRef): Promise<XmlElement> {
  return deck.pkg.part(ref.part);
}

export async function slideTitle(deck: Deck, ref: SlideRef): Promise<string> {
  const tree = spTree(await slideXml(deck, ref));
  return shapesWithRole(tree, 'title').map(shapeText).join(' ').trim();
}

export async function notesPart(deck: Deck, ref: SlideRef): Promise<string | undefined> {
  return (await deck.pkg.related(ref.part, 'notesSlide'))[0]?.target;
}

/** Text of the notes placeholder (body) of a slide's notes page, or '' when it has none. */
export async function notesText(deck: Deck, ref: SlideRef): Promise<string> {
  const part = await notesPart(deck, ref);
  const root = part ? await deck.pkg.partIfExists(part) : undefined;
  if (!root) return '';
  return shapes(spTree(root))
    .filter((s) => placeholder(s)?.attrs.type === 'body')
    .map(shapeText)
    .join('\n');
}

/** A shape id not yet used on the slide. */
export function nextShapeId(tree: XmlElement): string {
  let max = 1;
  for (const e of tree.descendants('p:cNvPr')) max = Math.max(max, Number(e.attrs.id) || 0);
  return String(max + 1);
}
