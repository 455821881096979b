import { relsPathOf } from '../ooxml/package.ts';
import { el, type XmlElement } from '../ooxml/xml.ts';
import { isPngBytes, pixelSize } from '../pictureSize.ts';
import type { FileMap } from '../types.ts';
import { LAYOUT_BOXES } from './build.ts';
import {
  type Deck,
  listSlides,
  nextShapeId,
  notesPart,
  notesText,
  openPptx,
  PRESENTATION,
  placeholder,
  type Role,
  roleOf,
  type SlideRef,
  shapes,
  shapesWithRole,
  slideAt,
  slideTitle,
  spTree,
} from './deck.ts';
import {
  isHidden,
  moveShape,
  setBackground,
  setHidden,
  setSlideSize,
  setTransition,
  slideSize,
} from './design.ts';
import { applyFont } from './fonts.ts';
import { pdfOfSlides } from './pdf.ts';
import { patternPng } from './png.ts';
import type { Bullet, ImpressEdit, Layout } from './schema.ts';
import {
  bodyParagraphs,
  emptyTree,
  firstRunProps,
  freshPlaceholder,
  NS,
  pictureShape,
  setShapeParagraphs,
  shapeFromPlaceholder,
  tableShape,
  titleParagraph,
  xfrm,
} from './shapes.ts';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SLIDE_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
const NOTES_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml';

/** The layout part our build made for a layout (pptxgenjs names layouts after their master). */
async function layoutPart(deck: Deck, layout: Layout): Promise<string> {
  for (const part of deck.pkg.parts('ppt/slideLayouts/')) {
    if (!part.endsWith('.xml')) continue;
    const root = await deck.pkg.part(part);
    if (root.first('p:cSld')?.attrs.name === layout) return part;
  }
  throw new Error(`the presentation has no "${layout}" slide layout (was it built by this preparer?)`);
}

async function layoutPlaceholder(
  deck: Deck,
  slidePart: string,
  role: Role,
  nth = 0,
): Promise<XmlElement | undefined> {
  const layout = (await deck.pkg.related(slidePart, 'slideLayout'))[0]?.target;
  if (!layout) return undefined;
  return shapesWithRole(spTree(await deck.pkg.part(layout)), role)[nth];
}

/** The slide's title or first body shape, created from its layout's placeholder when missing. */
async function roleShape(deck: Deck, ref: SlideRef, role: Role): Promise<XmlElement> {
  const tree = spTree(await deck.pkg.part(ref.part));
  const existing = shapesWithRole(tree, role)[0];
  if (existing) return existing;
  const model = await layoutPlaceholder(deck, ref.part, role);
  const id = nextShapeId(tree);
  const shape = model
    ? shapeFromPlaceholder(model, id, [])
    : freshPlaceholder(id, role, LAYOUT_BOXES.title_content[role]!, []);
  tree.children.push(shape);
  return shape;
}

async function isSubtitleLayout(deck: Deck, slidePart: string): Promise<boolean> {
  const layout = (await deck.pkg.related(slidePart, 'slideLayout'))[0]?.target;
  const name = layout ? (await deck.pkg.part(layout)).first('p:cSld')?.attrs.name : undefined;
  return name === 'title' || name === 'section';
}

async function setBody(deck: Deck, ref: SlideRef, bullets: Bullet[]): Promise<void> {
  const shape = await roleShape(deck, ref, 'body');
  const plain = await isSubtitleLayout(deck, ref.part);
  setShapeParagraphs(shape, bodyParagraphs(bullets, firstRunProps(shape), !plain));
}

async function setTitle(deck: Deck, ref: SlideRef, text: string): Promise<void> {
  const shape = await roleShape(deck, ref, 'title');
  setShapeParagraphs(shape, [titleParagraph(text, firstRunProps(shape))]);
}

async function addSlide(deck: Deck, edit: Extract<ImpressEdit, { op: 'impress.add_slide' }>): Promise<void> {
  const position = edit.position ?? deck.slides.length + 1;
  if (position > deck.slides.length + 1) {
    throw new Error(`${edit.op}: position ${position} is past the end (${deck.slides.length} slides)`);
  }
  const part = deck.pkg.freshName('ppt/slides/slide', '.xml');
  deck.pkg.setPart(
    part,
    el('p:sld', NS, el('p:cSld', {}, emptyTree()), el('p:clrMapOvr', {}, el('a:masterClrMapping'))),
  );
  await deck.pkg.addRel(part, `${REL}/slideLayout`, await layoutPart(deck, edit.layout));
  await deck.pkg.setContentType(part, SLIDE_TYPE);
  const relId = await deck.pkg.addRel(PRESENTATION, `${REL}/slide`, part);
  const list = deck.presentation.ensure('p:sldIdLst');
  const ids = list.elements('p:sldId').map((e) => Number(e.attrs.id) || 0);
  const entry = el('p:sldId', { id: String(Math.max(255, ...ids) + 1), 'r:id': relId });
  const before = list.elements('p:sldId')[position - 1];
  if (before) list.children.splice(list.children.indexOf(before), 0, entry);
  else list.children.push(entry);
  const ref = { part, entry };
  await setTitle(deck, ref, edit.title);
  if (edit.bullets.length > 0) await setBody(deck, ref, edit.bullets);
  if (edit.notes) await setNotes(deck, ref, edit.notes);
}

async function deleteSlide(deck: Deck, ref: SlideRef): Promise<void> {
  const list = deck.presentation.first('p:sldIdLst')!;
  list.remove(ref.entry);
  await deck.pkg.removeRel(PRESENTATION, ref.entry.attrs['r:id']);
  const notes = await notesPart(deck, ref);
  for (const part of [ref.part, ...(notes ? [notes] : [])]) {
    deck.pkg.deletePart(part);
    deck.pkg.deletePart(relsPathOf(part));
    await deck.pkg.removeContentType(part);
  }
}

async function setNotes(deck: Deck, ref: SlideRef, text: string): Promise<void> {
  const existing = await notesPart(deck, ref);
  const paragraphs = text.split('\n').map((line) => titleParagraph(line, undefined));
  if (existing && deck.pkg.has(existing)) {
    const tree = spTree(await deck.pkg.part(existing));
    const body = shapes(tree).find((s) => placeholder(s)?.attrs.type === 'body');
    if (body) {
      setShapeParagraphs(body, paragraphs);
      return;
    }
    const shape = freshPlaceholder(nextShapeId(tree), 'body', { x: 0.75, y: 4.8, w: 6, h: 3.6 }, paragraphs);
    tree.children.push(shape);
    return;
  }
  const master = deck.pkg.parts('ppt/notesMasters/').find((p) => p.endsWith('.xml'));
  if (!master) throw new Error('impress.set_notes: the presentation has no notes master');
  const part = deck.pkg.freshName('ppt/notesSlides/notesSlide', '.xml');
  const tree = emptyTree();
  tree.children.push(
    el(
      'p:sp',
      {},
      el(
        'p:nvSpPr',
        {},
        el('p:cNvPr', { id: '2', name: 'Slide Image Placeholder 1' }),
        el('p:cNvSpPr', {}, el('a:spLocks', { noGrp: '1', noRot: '1', noChangeAspect: '1' })),
        el('p:nvPr', {}, el('p:ph', { type: 'sldImg' })),
      ),
      el('p:spPr'),
    ),
    freshPlaceholder('3', 'body', { x: 0.75, y: 4.8, w: 6, h: 3.6 }, paragraphs),
  );
  deck.pkg.setPart(
    part,
    el('p:notes', NS, el('p:cSld', {}, tree), el('p:clrMapOvr', {}, el('a:masterClrMapping'))),
  );
  await deck.pkg.addRel(part, `${REL}/notesMaster`, master);
  await deck.pkg.addRel(part, `${REL}/slide`, ref.part);
  await deck.pkg.addRel(ref.part, `${REL}/notesSlide`, part);
  await deck.pkg.setContentType(part, NOTES_TYPE);
}

/** A copy of the slide (and of its notes page) right after it; pictures and layout are shared. */
async function duplicateSlide(deck: Deck, ref: SlideRef): Promise<void> {
  const part = deck.pkg.freshName('ppt/slides/slide', '.xml');
  deck.pkg.setPart(part, (await deck.pkg.part(ref.part)).clone());
  await deck.pkg.setContentType(part, SLIDE_TYPE);
  // The same relationship ids (pictures are referenced by id), minus the original's notes page.
  const rels = await deck.pkg.partIfExists(relsPathOf(ref.part));
  if (rels) {
    const copy = rels.clone();
    copy.children = copy.children.filter(
      (c) => typeof c === 'string' || !(c.attrs.Type ?? '').endsWith('/notesSlide'),
    );
    deck.pkg.setPart(relsPathOf(part), copy);
  }
  const relId = await deck.pkg.addRel(PRESENTATION, `${REL}/slide`, part);
  const list = deck.presentation.first('p:sldIdLst')!;
  const ids = list.elements('p:sldId').map((e) => Number(e.attrs.id) || 0);
  const entry = el('p:sldId', { id: String(Math.max(255, ...ids) + 1), 'r:id': relId });
  list.children.splice(list.children.indexOf(ref.entry) + 1, 0, entry);
  const notes = await notesText(deck, ref);
  if (notes.trim() !== '') await setNotes(deck, { part, entry }, notes);
}

async function exportPdf(deck: Deck, out: FileMap, to: string): Promise<void> {
  const pages: { title: string }[] = [];
  for (const ref of deck.slides) {
    if (!isHidden(await deck.pkg.part(ref.part))) pages.push({ title: await slideTitle(deck, ref) });
  }
  out[to] = pdfOfSlides(pages, slideSize(deck.presentation));
}

/**
 * Insert > Image of a home file: its bytes embedded unchanged, placed at its size at 96 dpi
 * (shrunk to fit the slide) and centred, unless the edit gives a box.
 */
async function insertPicture(
  deck: Deck,
  ref: SlideRef,
  edit: Extract<ImpressEdit, { op: 'impress.insert_picture' }>,
  out: FileMap,
): Promise<void> {
  const bytes = out[edit.from];
  if (bytes === undefined) throw new Error(`${edit.op}: no file ${edit.from} to insert`);
  const size = pixelSize(bytes);
  if (!size) throw new Error(`${edit.op}: ${edit.from} is neither a PNG nor a JPEG file`);
  const ext = isPngBytes(bytes) ? 'png' : 'jpeg';
  const media = deck.pkg.freshName('ppt/media/forge-picture', `.${ext}`);
  deck.pkg.setBinary(media, bytes);
  await deck.pkg.ensureDefaultContentType(ext, ext === 'png' ? 'image/png' : 'image/jpeg');
  const relId = await deck.pkg.addRel(ref.part, `${REL}/image`, media);
  const slide = slideSize(deck.presentation);
  const natural = { w: size.width / 96, h: size.height / 96 };
  const fit = Math.min(1, (slide.width * 0.9) / natural.w, (slide.height * 0.9) / natural.h);
  const w = edit.w ?? natural.w * fit;
  const h = edit.h ?? (w * size.height) / size.width;
  const box = { x: edit.x ?? (slide.width - w) / 2, y: edit.y ?? (slide.height - h) / 2, w, h };
  const tree = spTree(await deck.pkg.part(ref.part));
  const name = edit.name ?? edit.from.slice(edit.from.lastIndexOf('/') + 1);
  tree.children.push(pictureShape(nextShapeId(tree), relId, name, box));
}

async function applyOne(deck: Deck, edit: ImpressEdit, out: FileMap): Promise<void> {
  if (edit.op === 'impress.add_slide') return addSlide(deck, edit);
  if (edit.op === 'impress.export_pdf') return exportPdf(deck, out, edit.to);
  if (edit.op === 'impress.set_slide_size') {
    setSlideSize(deck.presentation, { width: edit.width, height: edit.height });
    return;
  }
  if ((edit.op === 'impress.set_background' || edit.op === 'impress.set_transition') && !edit.slide) {
    for (const ref of deck.slides) {
      const root = await deck.pkg.part(ref.part);
      if (edit.op === 'impress.set_background') setBackground(root, edit.color);
      else setTransition(root, edit.effect);
    }
    return;
  }
  if (edit.op === 'impress.set_font_all') {
    const { op: _o, file: _f, target, ...font } = edit;
    const roles: Role[] = target === 'all' ? ['title', 'body'] : [target];
    for (const ref of deck.slides) {
      const tree = spTree(await deck.pkg.part(ref.part));
      for (const shape of roles.flatMap((role) => shapesWithRole(tree, role))) {
        for (const p of shape.first('p:txBody')?.elements('a:p') ?? []) {
          for (const r of p.elements('a:r')) applyFont(r.ensure('a:rPr', 0), font);
        }
      }
    }
    return;
  }
  const ref = slideAt(deck, edit.slide!, edit.op);
  switch (edit.op) {
    case 'impress.duplicate_slide':
      return duplicateSlide(deck, ref);
    case 'impress.hide_slide':
      return setHidden(await deck.pkg.part(ref.part), edit.hidden);
    case 'impress.set_background':
      return setBackground(await deck.pkg.part(ref.part), edit.color);
    case 'impress.set_transition':
      return setTransition(await deck.pkg.part(ref.part), edit.effect);
    case 'impress.move_shape': {
      const { x, y, w, h } = edit;
      const to = Object.fromEntries(Object.entries({ x, y, w, h }).filter(([, v]) => v !== undefined));
      return moveShape(deck, ref, edit.shape, edit.nth, to);
    }
    case 'impress.delete_slide':
      return deleteSlide(deck, ref);
    case 'impress.move_slide': {
      if (edit.to > deck.slides.length) {
        throw new Error(`${edit.op}: position ${edit.to} is past the end (${deck.slides.length} slides)`);
      }
      const list = deck.presentation.first('p:sldIdLst')!;
      list.remove(ref.entry);
      const others = list.elements('p:sldId');
      const before = others[edit.to - 1];
      if (before) list.children.splice(list.children.indexOf(before), 0, ref.entry);
      else list.children.push(ref.entry);
      return;
    }
    case 'impress.set_title':
      return setTitle(deck, ref, edit.text);
    case 'impress.set_body':
      return setBody(deck, ref, edit.bullets);
    case 'impress.set_notes':
      return setNotes(deck, ref, edit.text);
    case 'impress.set_font': {
      const { op: _o, file: _f, slide: _s, target, ...font } = edit;
      const tree = spTree(await deck.pkg.part(ref.part));
      const targets = shapesWithRole(tree, target);
      if (targets.length === 0)
        throw new Error(`${edit.op}: slide ${edit.slide} has no ${target} placeholder`);
      for (const shape of targets) {
        for (const p of shape.first('p:txBody')?.elements('a:p') ?? []) {
          for (const r of p.elements('a:r')) applyFont(r.ensure('a:rPr', 0), font);
          const end = p.first('a:endParaRPr');
          if (end) applyFont(end, font);
        }
      }
      return;
    }
    case 'impress.add_image': {
      const { image } = edit;
      const media = deck.pkg.freshName('ppt/media/forge-image', '.png');
      deck.pkg.setBinary(media, patternPng(image.pixels.width, image.pixels.height, image.color, image.seed));
      await deck.pkg.ensureDefaultContentType('png', 'image/png');
      const relId = await deck.pkg.addRel(ref.part, `${REL}/image`, media);
      const tree = spTree(await deck.pkg.part(ref.part));
      tree.children.push(pictureShape(nextShapeId(tree), relId, image.name, image));
      return;
    }
    case 'impress.insert_picture':
      return insertPicture(deck, ref, edit, out);
    case 'impress.add_table': {
      const tree = spTree(await deck.pkg.part(ref.part));
      tree.children.push(tableShape(nextShapeId(tree), edit.table));
      return;
    }
    case 'impress.set_layout': {
      const target = await layoutPart(deck, edit.layout);
      const rel = (await deck.pkg.related(ref.part, 'slideLayout'))[0];
      if (rel) await deck.pkg.removeRel(ref.part, rel.id);
      await deck.pkg.addRel(ref.part, `${REL}/slideLayout`, target);
      // Placeholders the new layout lacks would float without geometry: give them their own.
      const tree = spTree(await deck.pkg.part(ref.part));
      for (const shape of shapes(tree)) {
        const role = roleOf(shape);
        if (!role || shape.first('p:spPr')?.first('a:xfrm')) continue;
        const box = LAYOUT_BOXES[edit.layout][role] ?? LAYOUT_BOXES.title_content[role]!;
        shape.ensure('p:spPr', 1).children.unshift(xfrm('a:xfrm', box));
      }
      return;
    }
  }
}

/** Apply oracle edits in order; slide numbers refer to the order after the previous edits. */
export async function applyImpress(files: FileMap, edits: ImpressEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  const opened = new Map<string, Deck>();
  for (const edit of edits) {
    let deck = opened.get(edit.file);
    if (!deck) {
      deck = await openPptx(out, edit.file);
      opened.set(edit.file, deck);
    }
    await applyOne(deck, edit, out);
    deck.slides = await listSlides(deck.pkg, deck.presentation);
  }
  for (const [file, deck] of opened) out[file] = await deck.pkg.save();
  return out;
}
