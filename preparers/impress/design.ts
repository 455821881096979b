import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Deck, type SlideRef, shapes, shapesWithRole, spTree } from './deck.ts';
import { EMU_PER_INCH, xfrm } from './shapes.ts';

/**
 * Slide-level properties a viewer sees besides text: hidden or shown, background colour,
 * transition, slide size, and where objects sit. Each is read the way LibreOffice writes it into a
 * .pptx, so a deck saved by LibreOffice gives the same answers as ours.
 */

const inches = (emu: string | undefined) => Math.round(((Number(emu) || 0) / EMU_PER_INCH) * 1000) / 1000;

/** `show="0"` on p:sld hides the slide from the slide show. */
export function isHidden(slide: XmlElement): boolean {
  const show = slide.attrs.show;
  return show === '0' || show === 'false';
}

export function setHidden(slide: XmlElement, hidden: boolean): void {
  if (hidden) slide.attrs.show = '0';
  else delete slide.attrs.show;
}

/** The srgb colour of a p:bg's solid fill, upper-case; '' for anything else (theme refs, pictures). */
function bgColor(bg: XmlElement): string {
  const val = bg.first('p:bgPr')?.first('a:solidFill')?.first('a:srgbClr')?.attrs.val;
  const c = val ? val.toUpperCase() : '';
  // White is the default page; LibreOffice may spell it out where we leave it implicit.
  return c === 'FFFFFF' ? '' : c;
}

/** The background a slide shows: its own p:bg, else its layout's, else its master's ('' = default). */
export async function backgroundOf(deck: Deck, ref: SlideRef): Promise<string> {
  let part: string | undefined = ref.part;
  for (const next of ['slideLayout', 'slideMaster', undefined]) {
    const root = part ? await deck.pkg.partIfExists(part) : undefined;
    if (!root) return '';
    const bg = root.first('p:cSld')?.first('p:bg');
    if (bg) return bgColor(bg);
    if (!next) return '';
    part = (await deck.pkg.related(part!, next))[0]?.target;
  }
  return '';
}

export function setBackground(slide: XmlElement, color: string): void {
  const cSld = slide.first('p:cSld');
  if (!cSld) throw new Error('slide has no p:cSld');
  cSld.children = cSld.children.filter((c) => typeof c === 'string' || c.name !== 'p:bg');
  cSld.children.unshift(
    el(
      'p:bg',
      {},
      el(
        'p:bgPr',
        {},
        el('a:solidFill', {}, el('a:srgbClr', { val: color.toUpperCase() })),
        el('a:effectLst'),
      ),
    ),
  );
}

/** p:transition elements of a slide: direct, or inside mc:AlternateContent (LibreOffice's p14 form). */
function transitions(slide: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of slide.elements()) {
    if (c.name === 'p:transition') out.push(c);
    else if (c.name === 'mc:AlternateContent') {
      for (const branch of c.elements()) out.push(...branch.elements('p:transition'));
    }
  }
  return out;
}

/** The transition effect of a slide, by element name without prefix ('none' when it has none). */
export function transitionOf(slide: XmlElement): string {
  for (const t of transitions(slide)) {
    const names = t.elements().map((c) => c.name.replace(/^[^:]*:/, ''));
    const effect = names.find((n) => n !== 'sndAc' && n !== 'extLst');
    if (effect) return effect;
  }
  return 'none';
}

export function setTransition(slide: XmlElement, effect: string): void {
  slide.children = slide.children.filter(
    (c) =>
      typeof c === 'string' ||
      (c.name !== 'p:transition' &&
        !(c.name === 'mc:AlternateContent' && c.descendants('p:transition').length > 0)),
  );
  if (effect === 'none') return;
  // CT_Slide order: cSld, clrMapOvr, transition, timing, extLst.
  const after = slide.children.findIndex(
    (c) => typeof c !== 'string' && (c.name === 'p:timing' || c.name === 'p:extLst'),
  );
  const node = el('p:transition', { spd: 'med' }, el(`p:${effect}`));
  if (after < 0) slide.children.push(node);
  else slide.children.splice(after, 0, node);
}

export interface SlideSize {
  width: number;
  height: number;
}

export function slideSize(presentation: XmlElement): SlideSize {
  const sz = presentation.first('p:sldSz');
  return { width: inches(sz?.attrs.cx), height: inches(sz?.attrs.cy) };
}

export function setSlideSize(presentation: XmlElement, size: SlideSize): void {
  const sz = presentation.ensure('p:sldSz');
  sz.attrs = {
    cx: String(Math.round(size.width * EMU_PER_INCH)),
    cy: String(Math.round(size.height * EMU_PER_INCH)),
  };
}

export type ShapeKind = 'picture' | 'table' | 'title' | 'body';

/** The slide's objects of one kind, in drawing order. */
export function shapesOfKind(tree: XmlElement, kind: ShapeKind): XmlElement[] {
  if (kind === 'title' || kind === 'body') return shapesWithRole(tree, kind);
  if (kind === 'picture') return shapes(tree).filter((s) => s.name === 'p:pic');
  return shapes(tree).filter((s) => s.name === 'p:graphicFrame' && s.descendants('a:tbl').length > 0);
}

function ownXfrm(shape: XmlElement): XmlElement | undefined {
  return shape.name === 'p:graphicFrame' ? shape.first('p:xfrm') : shape.first('p:spPr')?.first('a:xfrm');
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function boxOf(x: XmlElement): Box {
  const off = x.first('a:off');
  const ext = x.first('a:ext');
  return {
    x: inches(off?.attrs.x),
    y: inches(off?.attrs.y),
    w: inches(ext?.attrs.cx),
    h: inches(ext?.attrs.cy),
  };
}

/** Where an object sits: its own xfrm, or (a placeholder without one) its layout placeholder's. */
export async function shapeBox(
  deck: Deck,
  ref: SlideRef,
  kind: ShapeKind,
  nth: number,
): Promise<Box | undefined> {
  const shape = shapesOfKind(spTree(await deck.pkg.part(ref.part)), kind)[nth - 1];
  if (!shape) return undefined;
  const own = ownXfrm(shape);
  if (own) return boxOf(own);
  if (kind !== 'title' && kind !== 'body') return undefined;
  const layout = (await deck.pkg.related(ref.part, 'slideLayout'))[0]?.target;
  const model = layout ? shapesWithRole(spTree(await deck.pkg.part(layout)), kind)[0] : undefined;
  const inherited = model ? ownXfrm(model) : undefined;
  return inherited ? boxOf(inherited) : undefined;
}

export async function moveShape(
  deck: Deck,
  ref: SlideRef,
  kind: ShapeKind,
  nth: number,
  to: Partial<Box>,
): Promise<void> {
  const shape = shapesOfKind(spTree(await deck.pkg.part(ref.part)), kind)[nth - 1];
  if (!shape) throw new Error(`impress.move_shape: the slide has no ${kind} number ${nth}`);
  const now = await shapeBox(deck, ref, kind, nth);
  if (!now) throw new Error(`impress.move_shape: the ${kind} has no position to move`);
  const box = { ...now, ...to };
  if (shape.name === 'p:graphicFrame') {
    const old = shape.first('p:xfrm')!;
    shape.children[shape.children.indexOf(old)] = xfrm('p:xfrm', box);
    // LibreOffice sizes a table by its columns and rows, not by its frame: scale them too.
    const scale = (e: XmlElement, attr: string, f: number) => {
      if (e.attrs[attr] !== undefined) e.attrs[attr] = String(Math.round(Number(e.attrs[attr]) * f));
    };
    for (const col of shape.descendants('a:gridCol')) scale(col, 'w', box.w / now.w);
    for (const row of shape.descendants('a:tr')) scale(row, 'h', box.h / now.h);
    return;
  }
  const spPr = shape.ensure('p:spPr', 1);
  const old = spPr.first('a:xfrm');
  if (old) spPr.children[spPr.children.indexOf(old)] = xfrm('a:xfrm', box);
  else spPr.children.unshift(xfrm('a:xfrm', box));
}
