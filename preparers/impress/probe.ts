import { typedStrings } from '../office/asTyped.ts';
import { formatMismatches } from '../ooxml/fonts.ts';
import { containsProse, plainFigures } from '../proseFigures.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import {
  type Deck,
  notesText,
  openPptx,
  paragraphText,
  shapeParagraphs,
  shapes,
  shapesWithRole,
  slideTitle,
  slideXml,
  spTree,
} from './deck.ts';
import { backgroundOf, isHidden, shapeBox, slideSize, transitionOf } from './design.ts';
import { type EffectiveFont, FontResolver } from './fonts.ts';
import { probeImpressUnchanged } from './invariants.ts';
import { pdfPageCount } from './pdf.ts';
import { slidePictureSizes } from './pictures.ts';
import { type ImpressCheck, LAYOUTS } from './schema.ts';

/**
 * The layout id of our schema a layout part amounts to: our own names first, then the names
 * LibreOffice writes for its layouts (its types are no guide: it writes "Title Slide" as tx), then
 * the OOXML type. LibreOffice has no section header; its Title Only layout stands in for one
 * (build.ts writes our section layout as titleOnly, so LibreOffice keeps it as Title Only).
 */
const OUR_LAYOUTS = new Set<string>(LAYOUTS);
const LIBREOFFICE_LAYOUTS = new Map([
  ['Title Slide', 'title'],
  ['Title, Content', 'title_content'],
  ['Title, 2 Content', 'two_content'],
  ['Title Only', 'section'],
  ['Blank Slide', 'blank'],
]);
const LAYOUT_TYPES = new Map([
  ['secHead', 'section'],
  ['titleOnly', 'section'],
  ['title', 'title'],
  ['obj', 'title_content'],
  ['tx', 'title_content'],
  ['twoObj', 'two_content'],
  ['blank', 'blank'],
]);

function layoutId(name: string | null, type: string | null): string | null {
  if (name !== null && OUR_LAYOUTS.has(name)) return name;
  if (name !== null && LIBREOFFICE_LAYOUTS.has(name)) return LIBREOFFICE_LAYOUTS.get(name)!;
  return (type !== null && LAYOUT_TYPES.get(type)) || null;
}

function clip(s: string, n = 120): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

async function titles(deck: Deck): Promise<string[]> {
  return Promise.all(deck.slides.map((s) => slideTitle(deck, s)));
}

function tableCells(frame: ReturnType<typeof shapes>[number]): string[][] | undefined {
  const tbl = frame.descendants('a:tbl')[0];
  if (!tbl) return undefined;
  return tbl
    .elements('a:tr')
    .map((tr) =>
      tr
        .elements('a:tc')
        .map((tc) => (tc.first('a:txBody')?.elements('a:p') ?? []).map(paragraphText).join('\n').trim()),
    );
}

/**
 * Text as a reader compares it: a line break typed where the instruction has a space (a title on
 * two lines, a note in two paragraphs) is the same text. The checker's js_squash is the same rule.
 */
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

type DeckCheck = Exclude<ImpressCheck, { kind: 'impress.pdf' | 'impress.picture' }>;

/** A picture on the slide is an image of the asked pixel size (read from the .pptx's own zip). */
async function probePicture(
  deck: Deck,
  check: Extract<ImpressCheck, { kind: 'impress.picture' }>,
  bytes: Uint8Array,
): Promise<ProbeResult> {
  const ref = deck.slides[check.slide - 1];
  if (!ref)
    return {
      pass: false,
      observed: { error: `slide ${check.slide} does not exist`, slides: deck.slides.length },
    };
  const sizes = await slidePictureSizes(deck, ref, bytes);
  const pass = sizes.some((s) => s !== null && s.width === check.width && s.height === check.height);
  return { pass, observed: { pictures: sizes.slice(0, 8).map((s) => (s ? [s.width, s.height] : null)) } };
}

const within = (v: number, r: { min?: number; max?: number } | undefined) =>
  r === undefined ||
  ((r.min === undefined || v >= r.min - 1e-6) && (r.max === undefined || v <= r.max + 1e-6));

async function probeOne(deck: Deck, check: DeckCheck): Promise<ProbeResult> {
  const slide = 'slide' in check && check.slide !== undefined ? deck.slides[check.slide - 1] : undefined;
  if ('slide' in check && check.slide !== undefined && !slide) {
    return {
      pass: false,
      observed: { error: `slide ${check.slide} does not exist`, slides: deck.slides.length },
    };
  }
  switch (check.kind) {
    case 'impress.slide_count': {
      const n = deck.slides.length;
      const ok =
        (check.count === undefined || n === check.count) &&
        (check.min === undefined || n >= check.min) &&
        (check.max === undefined || n <= check.max);
      return { pass: ok, observed: { slides: n } };
    }
    case 'impress.slide_title': {
      const all = slide ? [await slideTitle(deck, slide)] : await titles(deck);
      const want = squash(check.text);
      const pass = all.some((t) => (check.exact ? squash(t) === want : squash(t).includes(want)));
      return { pass, observed: { titles: all.slice(0, 20).map((t) => clip(t)) } };
    }
    case 'impress.slide_body': {
      const tree = spTree(await slideXml(deck, slide!));
      const paras = shapesWithRole(tree, 'body')
        .flatMap(shapeParagraphs)
        .map((p) => paragraphText(p).trim())
        .filter((t) => t !== '');
      // With `figures`, a figure may be written with or without its separators, sign and trailing zeros.
      const same = (t: string, b: string) => (check.figures ? plainFigures(t) === plainFigures(b) : t === b);
      const holds = (t: string, b: string) => (check.figures ? containsProse(t, b) : t.includes(b));
      const pass = check.exact
        ? paras.length === check.bullets.length && paras.every((t, i) => same(t, check.bullets[i].trim()))
        : check.bullets.every((b) => paras.some((t) => holds(t, b)));
      return { pass, observed: { body: paras.slice(0, 20).map((t) => clip(t)) } };
    }
    case 'impress.notes': {
      const text = await notesText(deck, slide!);
      const pass = check.exact
        ? squash(text) === squash(check.text)
        : squash(text).includes(squash(check.text));
      return { pass, observed: { notes: clip(text, 300) } };
    }
    case 'impress.order': {
      const all = await titles(deck);
      const positions = check.titles.map((t) => all.findIndex((title) => squash(title).includes(squash(t))));
      const pass = positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]));
      return {
        pass,
        observed: { titles: all.map((t) => clip(t, 60)), positions: positions.map((p) => p + 1) },
      };
    }
    case 'impress.image_present': {
      const targets = slide ? [slide] : deck.slides;
      let n = 0;
      for (const ref of targets) {
        n += shapes(spTree(await slideXml(deck, ref))).filter((s) => s.name === 'p:pic').length;
      }
      return {
        pass: n >= check.min && (check.max === undefined || n <= check.max),
        observed: { pictures: n },
      };
    }
    case 'impress.table': {
      const tree = spTree(await slideXml(deck, slide!));
      const found = shapes(tree)
        .filter((s) => s.name === 'p:graphicFrame')
        .map(tableCells)
        .filter((c): c is string[][] => c !== undefined);
      const fits = found.some(
        (cells) =>
          (check.rows === undefined || cells.length === check.rows) &&
          (check.cols === undefined || Math.max(0, ...cells.map((r) => r.length)) === check.cols) &&
          check.cells.every((c) => cells[c.row - 1]?.[c.col - 1] === c.text.trim()),
      );
      return {
        pass: fits,
        observed: { tables: found.map((c) => ({ rows: c.length, cells: c.slice(0, 4) })) },
      };
    }
    case 'impress.unchanged':
      return probeImpressUnchanged(deck, check);
    case 'impress.hidden': {
      const hidden = isHidden(await slideXml(deck, slide!));
      return { pass: hidden === check.hidden, observed: { hidden } };
    }
    case 'impress.background': {
      const color = await backgroundOf(deck, slide!);
      return { pass: color === check.color.toUpperCase(), observed: { background: color || 'default' } };
    }
    case 'impress.transition': {
      const effect = transitionOf(await slideXml(deck, slide!));
      return { pass: effect === check.effect, observed: { transition: effect } };
    }
    case 'impress.slide_size': {
      const { width, height } = slideSize(deck.presentation);
      const near = (a: number, b: number | undefined) =>
        b === undefined || Math.abs(a - b) <= check.tolerance;
      const orientation = width < height ? 'portrait' : 'landscape';
      const pass =
        near(width, check.width) &&
        near(height, check.height) &&
        (check.orientation === undefined || check.orientation === orientation);
      return { pass, observed: { width, height, orientation } };
    }
    case 'impress.shape_box': {
      const box = await shapeBox(deck, slide!, check.shape, check.nth);
      if (!box)
        return { pass: false, observed: { error: `no ${check.shape} number ${check.nth} on the slide` } };
      const pass =
        within(box.x, check.x) &&
        within(box.y, check.y) &&
        within(box.w, check.w) &&
        within(box.h, check.h) &&
        within(box.x + box.w, check.right) &&
        within(box.y + box.h, check.bottom);
      return { pass, observed: box };
    }
    case 'impress.layout': {
      const part = (await deck.pkg.related(slide!.part, 'slideLayout'))[0]?.target;
      const root = part ? await deck.pkg.partIfExists(part) : undefined;
      const name = root?.first('p:cSld')?.attrs.name ?? null;
      const type = root?.attrs.type ?? null;
      const pass = layoutId(name, type) === check.layout;
      return { pass, observed: { layout: name, type } };
    }
    case 'impress.font': {
      const { kind: _k, file: _f, slide: _s, target, ...want } = check;
      const resolver = await FontResolver.forSlide(deck, slide!.part);
      const tree = spTree(await slideXml(deck, slide!));
      const seen: EffectiveFont[] = [];
      let pass = true;
      for (const shape of shapesWithRole(tree, target)) {
        for (const p of shapeParagraphs(shape)) {
          for (const r of p.elements('a:r')) {
            if ((r.first('a:t')?.text() ?? '').trim() === '') continue;
            const got = resolver.effective(shape, p, r);
            if (formatMismatches(want, got).length > 0) pass = false;
            if (seen.length < 5) seen.push(got);
          }
        }
      }
      return { pass: pass && seen.length > 0, observed: { runs: seen } };
    }
  }
}

export async function probeImpress(files: FileMap, check: ImpressCheck): Promise<ProbeResult> {
  if (check.kind === 'impress.pdf') {
    const bytes = files[check.path];
    if (!bytes) return { pass: false, observed: { error: `${check.path} does not exist` } };
    const pages = pdfPageCount(bytes);
    if (pages === undefined) return { pass: false, observed: { error: 'not a PDF', bytes: bytes.length } };
    return { pass: check.pages === undefined || pages === check.pages, observed: { pages } };
  }
  // The checker on the VM sees only this file, so the observation names only this file.
  if (!files[check.file]) return { pass: false, observed: { error: `file ${check.file} does not exist` } };
  if (check.kind === 'impress.picture')
    return probePicture(await openPptx(files, check.file), check, files[check.file]!);
  // Text as typed on both sides (office/asTyped.ts): AutoCorrect curls quotes in Impress too.
  return probeOne(await openPptx(files, check.file, true), typedStrings(check));
}
