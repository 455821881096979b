import { alignedPairs } from '../alignment.ts';
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
import { backgroundOf, isHidden, transitionOf } from './design.ts';
import { FontResolver } from './fonts.ts';

/**
 * "Nothing else changed" in a deck. A slide's snapshot is what a viewer sees: title, body text,
 * notes, pictures and tables, and the fonts of the title and body runs (each distinct
 * "font/size/b/i/colour" once, sorted; black and the
 * inherited colour are one, as LibreOffice writes the inherited black explicitly), whether it is
 * hidden, its background colour and its transition. The check `impress.unchanged` gives the deck's slide
 * count (in a check of its own with the slides the oracle moved, when it changes the count) and, for each slide the oracle kept (at its position in the solved deck), every field the
 * oracle left as it was; a field the task changes is omitted, except the fonts, which must then
 * read as the oracle's (the body font of the target slide: its size and nothing else).
 */
/** Snapshot fields held to the oracle's value even where it changed them (the rest are then free). */
const FONTS = new Set<keyof SlideSnap>(['titleFont', 'bodyFont']);

export interface SlideSnap {
  title: string;
  body: string;
  notes: string;
  pictures: number;
  tables: number;
  titleFont: string;
  bodyFont: string;
  hidden: boolean;
  background: string;
  transition: string;
}

async function fontsOf(deck: Deck, ref: Deck['slides'][number], role: 'title' | 'body'): Promise<string> {
  const resolver = await FontResolver.forSlide(deck, ref.part);
  const tree = spTree(await slideXml(deck, ref));
  const seen = new Set<string>();
  for (const shape of shapesWithRole(tree, role)) {
    for (const p of shapeParagraphs(shape)) {
      for (const r of p.elements('a:r')) {
        if ((r.first('a:t')?.text() ?? '').trim() === '') continue;
        const f = resolver.effective(shape, p, r);
        seen.add(
          `${(f.font ?? '').toLowerCase()}/${f.size ?? ''}/${f.bold ? 'b' : ''}/${f.italic ? 'i' : ''}/${f.color === undefined || f.color === '000000' ? '' : f.color}`,
        );
      }
    }
  }
  return [...seen].sort().join(';');
}

export async function snapSlides(deck: Deck): Promise<SlideSnap[]> {
  const out: SlideSnap[] = [];
  for (const ref of deck.slides) {
    const root = await slideXml(deck, ref);
    const tree = spTree(root);
    const all = shapes(tree);
    out.push({
      title: (await slideTitle(deck, ref)).trim(),
      body: shapesWithRole(tree, 'body')
        .flatMap(shapeParagraphs)
        .map((p) => paragraphText(p).trim())
        .filter((t) => t !== '')
        .join('\n'),
      notes: (await notesText(deck, ref)).trim(),
      pictures: all.filter((s) => s.name === 'p:pic').length,
      tables: all.filter((s) => s.name === 'p:graphicFrame' && s.descendants('a:tbl').length > 0).length,
      titleFont: await fontsOf(deck, ref, 'title'),
      bodyFont: await fontsOf(deck, ref, 'body'),
      hidden: isHidden(root),
      background: await backgroundOf(deck, ref),
      transition: transitionOf(root),
    });
  }
  return out;
}

const key = (s: SlideSnap) => `${s.title}\n${s.body}`;

/** LCS of the two decks by title and body: which initial slide each kept slide is. */
function pairs(a: SlideSnap[], b: SlideSnap[]): [number, number][] {
  return alignedPairs(a, b, (x, y) => key(x) === key(y) || x.title === y.title);
}

export async function impressInvariants(
  initial: FileMap,
  solved: FileMap,
  files: string[],
): Promise<unknown[]> {
  const checks: unknown[] = [];
  for (const file of files) {
    if (!initial[file] || !solved[file] || !file.endsWith('.pptx')) continue;
    const before = await snapSlides(await openPptx(initial, file));
    const after = await snapSlides(await openPptx(solved, file));
    // Slides the oracle left at their place are held without the count (the untouched deck passes
    // that check: a slide added one place early is caught there); moved ones with it.
    const sameCount = before.length === after.length;
    const moved: Record<string, unknown>[] = [];
    const slides: Record<string, unknown>[] = [];
    // A font the oracle changed must read as the oracle's: the bold asked for, and not italic too.
    // Those go in a check of their own, so that the one of what the oracle kept passes the
    // untouched deck (a change made elsewhere is told from the task left undone).
    const fonts: Record<string, unknown>[] = [];
    for (const [i, j] of pairs(before, after)) {
      const a = before[i]!;
      const b = after[j]!;
      const kept: Record<string, unknown> = { slide: j + 1 };
      const changed: Record<string, unknown> = { slide: j + 1 };
      for (const f of Object.keys(a) as (keyof SlideSnap)[])
        if (a[f] === b[f]) kept[f] = b[f];
        else if (FONTS.has(f)) changed[f] = b[f];
      (i === j || sameCount ? slides : moved).push(kept);
      if (Object.keys(changed).length > 1) fonts.push(changed);
    }
    checks.push({ kind: 'impress.unchanged', file, ...(sameCount ? { count: after.length } : {}), slides });
    if (!sameCount) checks.push({ kind: 'impress.unchanged', file, count: after.length, slides: moved });
    if (fonts.length > 0)
      checks.push({ kind: 'impress.unchanged', file, count: after.length, slides: fonts });
  }
  return checks;
}

/** `impress.unchanged`: exactly `count` slides; each listed slide shows every listed field. */
export async function probeImpressUnchanged(
  deck: Deck,
  check: { count?: number; slides: ({ slide: number } & Partial<SlideSnap>)[] },
): Promise<ProbeResult> {
  const now = await snapSlides(deck);
  const problems: unknown[] = [];
  if (check.count !== undefined && now.length !== check.count)
    problems.push({ slides: now.length, expected: check.count });
  for (const want of check.slides) {
    const got = now[want.slide - 1];
    if (!got) {
      problems.push({ slide: want.slide, missing: true });
      continue;
    }
    // Fields in sorted order, as the checker walks them (the payload's key order is not kept).
    for (const [f, v] of Object.entries(want).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (f === 'slide') continue;
      if (got[f as keyof SlideSnap] !== v)
        problems.push({ slide: want.slide, field: f, was: v, now: got[f as keyof SlideSnap] });
    }
  }
  return {
    pass: problems.length === 0,
    observed: problems.length === 0 ? { slides: now.length } : { problems: problems.slice(0, 6) },
  };
}
