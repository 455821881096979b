import PptxModule from 'pptxgenjs';

// pptxgenjs ships CJS typings whose default export TypeScript (NodeNext) sees as `.default`;
// at run time the default import is the class itself.
const PptxGenJS = PptxModule as unknown as typeof PptxModule.default;
type PptxGenJS = PptxModule.default;
type PlaceholderProps = PptxModule.default.PlaceholderProps;
type TextPropsOptions = PptxModule.default.TextPropsOptions;
type TextProps = PptxModule.default.TextProps;

import { OoxmlPackage } from '../ooxml/package.ts';
import type { FileMap } from '../types.ts';
import { patternPng } from './png.ts';
import type { Bullet, FontSpec, ImpressDoc, Layout, SlideSpec } from './schema.ts';

type Box = { x: number; y: number; w: number; h: number };

/** Placeholder geometry (inches, 16:9 slide of 10 × 5.625 in) of each layout. */
export const LAYOUT_BOXES: Record<Layout, { title?: Box; body?: Box; right?: Box }> = {
  title: { title: { x: 0.5, y: 1.4, w: 9, h: 1.3 }, body: { x: 0.5, y: 2.9, w: 9, h: 1.2 } },
  title_content: { title: { x: 0.5, y: 0.25, w: 9, h: 0.9 }, body: { x: 0.5, y: 1.3, w: 9, h: 3.9 } },
  section: { title: { x: 0.5, y: 1.8, w: 9, h: 1.2 }, body: { x: 0.5, y: 3.1, w: 9, h: 0.9 } },
  two_content: {
    title: { x: 0.5, y: 0.25, w: 9, h: 0.9 },
    body: { x: 0.5, y: 1.3, w: 4.4, h: 3.9 },
    right: { x: 5.1, y: 1.3, w: 4.4, h: 3.9 },
  },
  blank: {},
};

/**
 * The OOXML layout type each layout is written with, so LibreOffice recognises it as one of its
 * own layouts and keeps it when it saves (an untyped layout, or secHead, is saved as "Blank
 * Slide"). Measured with LibreOffice 7.4: title → "Title Slide", tx → "Title, Content",
 * twoObj → "Title, 2 Content", titleOnly → "Title Only", blank → "Blank Slide". LibreOffice has
 * no section-header layout: its nearest, and the one a person picks there, is Title Only.
 */
export const LAYOUT_OOXML_TYPE: Record<Layout, string> = {
  title: 'title',
  title_content: 'tx',
  section: 'titleOnly',
  two_content: 'twoObj',
  blank: 'blank',
};

/** Writes each layout's OOXML type (pptxgenjs writes none); layouts are found by their name. */
async function typeLayouts(bytes: Uint8Array): Promise<Uint8Array> {
  const pkg = await OoxmlPackage.open(bytes, 'built deck');
  for (const part of pkg.parts('ppt/slideLayouts/')) {
    if (!part.endsWith('.xml')) continue;
    const root = await pkg.part(part);
    const name = root.first('p:cSld')?.attrs.name ?? '';
    if (Object.hasOwn(LAYOUT_OOXML_TYPE, name))
      root.attrs = { ...root.attrs, type: LAYOUT_OOXML_TYPE[name as Layout] };
  }
  return pkg.save();
}

function defineLayouts(pres: PptxGenJS): void {
  for (const [name, boxes] of Object.entries(LAYOUT_BOXES)) {
    const objects = (['title', 'body', 'right'] as const).flatMap((role) => {
      const b = boxes[role];
      if (!b) return [];
      const type = role === 'title' ? 'title' : 'body';
      return [{ placeholder: { options: { name: role, type, ...b } as PlaceholderProps, text: '' } }];
    });
    pres.defineSlideMaster({ title: name, objects });
  }
}

function fontOptions(f: FontSpec | undefined): TextPropsOptions {
  if (!f) return {};
  return {
    bold: f.bold,
    italic: f.italic,
    fontSize: f.size,
    fontFace: f.font,
    color: f.color?.toUpperCase(),
  };
}

export function bulletParts(b: Bullet): { text: string; level: number } {
  return typeof b === 'string' ? { text: b, level: 0 } : { text: b.text, level: b.level };
}

function bulletRuns(bullets: Bullet[], font: FontSpec | undefined): TextProps[] {
  return bullets.map((b) => {
    const { text, level } = bulletParts(b);
    return { text, options: { bullet: true, indentLevel: level, breakLine: true, ...fontOptions(font) } };
  });
}

const LINE_HEIGHT = 1.2;
/** Text frames keep 0.1 in of inset on each side. */
const INSET_PT = 14.4;

/** Lines a text wraps to in a box `widthIn` wide at `sizePt` (average glyph ≈ 0.52 em). */
export function wrappedLines(text: string, widthIn: number, sizePt: number): number {
  const perLine = Math.max(8, Math.floor(((widthIn - 0.2) * 72) / (sizePt * 0.52)));
  let lines = 1;
  let used = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (used === 0) used = Math.min(word.length, perLine);
    else if (used + 1 + word.length <= perLine) used += 1 + word.length;
    else {
      lines += Math.ceil(word.length / perLine);
      used = word.length % perLine || perLine;
    }
  }
  return lines;
}

/**
 * The largest size from `sizes` at which the paragraphs fit the box (wrapping counted), so a
 * title that wraps never runs into the bullets below it and long bullets shrink instead of
 * spilling off the slide. The smallest size is the floor; `fit: shrink` covers what is left.
 */
export function fittingSize(
  paragraphs: { text: string; indentIn: number }[],
  box: Box,
  sizes: number[],
): number {
  for (const size of sizes) {
    const lines = paragraphs.reduce((n, p) => n + wrappedLines(p.text, box.w - p.indentIn, size), 0);
    const spacing = paragraphs.length > 1 ? paragraphs.length * size * 0.25 : 0;
    if (lines * size * LINE_HEIGHT + spacing <= box.h * 72 - INSET_PT) return size;
  }
  return sizes[sizes.length - 1]!;
}

const TITLE_SIZES = [32, 28, 24, 22, 20, 18];
const BODY_SIZES = [24, 20, 18, 16, 14, 12, 11, 10];

function sized(font: FontSpec | undefined, size: number): FontSpec {
  return { ...font, size: font?.size ?? size };
}

function addSlide(pres: PptxGenJS, spec: SlideSpec): void {
  const slide = pres.addSlide({ masterName: spec.layout });
  if (spec.hidden) slide.hidden = true;
  const boxes = LAYOUT_BOXES[spec.layout];
  if (spec.title !== undefined && boxes.title) {
    const size = fittingSize([{ text: spec.title, indentIn: 0 }], boxes.title, TITLE_SIZES);
    slide.addText(spec.title, {
      placeholder: 'title',
      fit: 'shrink',
      ...fontOptions(sized(spec.titleFont, size)),
    });
  }
  const bodyFont = (box: Box | undefined, bullets: Bullet[]) =>
    box
      ? sized(
          spec.bodyFont,
          fittingSize(
            bullets.map((b) => ({ text: bulletParts(b).text, indentIn: 0.35 + 0.4 * bulletParts(b).level })),
            box,
            BODY_SIZES,
          ),
        )
      : spec.bodyFont;
  if (spec.body.length > 0 && boxes.body) {
    // The title layout's body is a subtitle: plain paragraphs, no bullets.
    const font = bodyFont(boxes.body, spec.body);
    const runs =
      spec.layout === 'title' || spec.layout === 'section'
        ? spec.body.map((b) => ({
            text: bulletParts(b).text,
            options: { breakLine: true, ...fontOptions(font) },
          }))
        : bulletRuns(spec.body, font);
    slide.addText(runs, { placeholder: 'body', fit: 'shrink' });
  }
  if (spec.right.length > 0 && boxes.right)
    slide.addText(bulletRuns(spec.right, bodyFont(boxes.right, spec.right)), {
      placeholder: 'right',
      fit: 'shrink',
    });
  for (const img of spec.images) {
    const png = Buffer.from(patternPng(img.pixels.width, img.pixels.height, img.color, img.seed)).toString(
      'base64',
    );
    slide.addImage({
      data: `image/png;base64,${png}`,
      x: img.x,
      y: img.y,
      w: img.w,
      h: img.h,
      altText: img.name,
    });
  }
  for (const t of spec.tables) {
    const rows = t.rows.map((r, i) => r.map((text) => ({ text, options: { bold: i === 0 } })));
    // Rows of the chosen size (plus cell margins) fit the table's height, and the table the slide.
    const fontSize =
      [14, 12, 11, 10, 9].find((s) => t.rows.length * (s * LINE_HEIGHT + 7.2) <= t.h * 72) ?? 9;
    slide.addTable(rows, {
      x: t.x,
      y: t.y,
      w: Math.min(t.w, 10 - t.x - 0.2),
      h: t.h,
      fontSize,
      autoPage: false,
      border: { type: 'solid', pt: 1, color: '808080' },
    });
  }
  if (spec.notes) slide.addNotes(spec.notes);
}

export async function buildPptx(doc: ImpressDoc): Promise<Uint8Array> {
  const pres = new PptxGenJS();
  pres.layout = 'LAYOUT_16x9';
  pres.author = 'cua-forge';
  defineLayouts(pres);
  for (const s of doc.slides) addSlide(pres, s);
  const out = await pres.write({ outputType: 'uint8array', compression: true });
  return typeLayouts(out as Uint8Array);
}

export async function buildImpress(target: string, doc: ImpressDoc): Promise<FileMap> {
  return { [target]: await buildPptx(doc) };
}
