import PptxModule from 'pptxgenjs';

// pptxgenjs ships CJS typings whose default export TypeScript (NodeNext) sees as `.default`;
// at run time the default import is the class itself.
const PptxGenJS = PptxModule as unknown as typeof PptxModule.default;
type PptxGenJS = PptxModule.default;
type PlaceholderProps = PptxModule.default.PlaceholderProps;
type TextPropsOptions = PptxModule.default.TextPropsOptions;
type TextProps = PptxModule.default.TextProps;

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

function addSlide(pres: PptxGenJS, spec: SlideSpec): void {
  const slide = pres.addSlide({ masterName: spec.layout });
  const boxes = LAYOUT_BOXES[spec.layout];
  if (spec.title !== undefined && boxes.title) {
    slide.addText(spec.title, { placeholder: 'title', ...fontOptions(spec.titleFont) });
  }
  if (spec.body.length > 0 && boxes.body) {
    // The title layout's body is a subtitle: plain paragraphs, no bullets.
    const runs =
      spec.layout === 'title' || spec.layout === 'section'
        ? spec.body.map((b) => ({
            text: bulletParts(b).text,
            options: { breakLine: true, ...fontOptions(spec.bodyFont) },
          }))
        : bulletRuns(spec.body, spec.bodyFont);
    slide.addText(runs, { placeholder: 'body' });
  }
  if (spec.right.length > 0 && boxes.right)
    slide.addText(bulletRuns(spec.right, spec.bodyFont), { placeholder: 'right' });
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
    slide.addTable(rows, {
      x: t.x,
      y: t.y,
      w: t.w,
      h: t.h,
      fontSize: 14,
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
  return out as Uint8Array;
}

export async function buildImpress(target: string, doc: ImpressDoc): Promise<FileMap> {
  return { [target]: await buildPptx(doc) };
}
