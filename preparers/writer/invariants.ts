import { alignedPairs } from '../alignment.ts';
import { jsonEqual as same } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { commentsOf } from './comments.ts';
import {
  type Docx,
  finalSection,
  openDocx,
  paragraphs,
  paragraphText,
  tables,
  textSlots,
} from './document.ts';
import {
  type EffectiveRunFormat,
  effectiveAlignment,
  effectiveLineSpacing,
  effectiveRunFormat,
  shownInCapitals,
} from './format.ts';
import { headerTexts } from './headers.ts';
import { listInfo } from './numbering.ts';
import { startsNewPage } from './pages.ts';
import { imageRefs } from './pictures.ts';
import { normaliseStyleName, StyleSheet } from './styles.ts';
import { tableCells } from './tables.ts';
import { tocInfo } from './toc.ts';

/**
 * "Nothing else changed" in a document. A paragraph's snapshot is what a reader sees: its text,
 * heading level, alignment, line spacing, list type, and the character formats of its runs. The check `writer.unchanged` lists the snapshots of the body paragraphs (outside
 * tables, empty ones skipped) the oracle left alone, in order, plus the total count, the tables'
 * cell texts, headers, footers and orientation when the oracle kept those.
 */
export interface ParagraphSnap {
  text: string;
  heading: number;
  align: string;
  spacing: number | string;
  list: string;
  /**
   * Each distinct character format of its text runs once, sorted: "size/b/i/u/colour". The font
   * family is left out: LibreOffice writes the default family explicitly where Word inherits it.
   */
  runs: string;
  /** Present (true) only when the paragraph starts a new page. */
  page?: true;
}

export interface DocSnap {
  paragraphs: ParagraphSnap[];
  tables: string[][][];
  header: string[];
  footer: string[];
  orientation: string;
}

/** Strikethrough, script, highlight and capitals, written only when set so plain runs keep the short form. */
function extras(f: EffectiveRunFormat, caps: boolean): string {
  return `${f.strike ? '/s' : ''}${f.script === 'baseline' ? '' : `/${f.script}`}${f.highlight ? `/h:${f.highlight}` : ''}${caps ? '/caps' : ''}`;
}

async function snapDoc(docx: Docx): Promise<DocSnap> {
  const styles = await StyleSheet.load(docx);
  const out: ParagraphSnap[] = [];
  // A table of contents is generated text: its entries are checked by writer.toc, not kept as paragraphs.
  const toc = tocInfo(docx.body).members;
  const refs = paragraphs(docx.body);
  for (const [index, ref] of refs.entries()) {
    if (ref.inTable || toc.has(ref.p)) continue;
    const text = paragraphText(ref.p).trim();
    if (text === '') continue;
    const id = styles.paragraphStyle(ref.p);
    const heading = /^heading(\d)$/.exec(normaliseStyleName(id ? styles.name(id) : ''));
    const runs = [
      ...new Set(
        textSlots(ref.p)
          .filter((s) => s.text.trim() !== '')
          .map((s) => s.run),
      ),
    ];
    const formats = runs.map((r) => ({
      ...effectiveRunFormat(styles, ref.p, r),
      caps: shownInCapitals(styles, ref.p, r),
    }));
    const spacing = effectiveLineSpacing(styles, ref.p);
    out.push({
      text,
      heading: heading ? Number(heading[1]) : 0,
      align: effectiveAlignment(styles, ref.p),
      spacing: typeof spacing === 'number' ? Math.round(spacing * 100) / 100 : spacing,
      list: (await listInfo(docx, styles, ref.p))?.type ?? 'none',
      runs: [
        ...new Set(
          formats.map(
            (f) =>
              `${f.size ?? ''}/${f.bold ? 'b' : ''}/${f.italic ? 'i' : ''}/${f.underline ? 'u' : ''}/${f.color ?? ''}${extras(f, f.caps)}`,
          ),
        ),
      ]
        .sort()
        .join(';'),
      ...(startsNewPage(styles, refs, index) ? { page: true as const } : {}),
    });
  }
  const pgSz = finalSection(docx.body).first('w:pgSz');
  const w = Number(pgSz?.attrs['w:w'] ?? 0);
  const h = Number(pgSz?.attrs['w:h'] ?? 0);
  return {
    paragraphs: out,
    tables: tables(docx.body).map(tableCells),
    header: await headerTexts(docx, 'header'),
    footer: await headerTexts(docx, 'footer'),
    orientation: w && h ? (w > h ? 'landscape' : 'portrait') : (pgSz?.attrs['w:orient'] ?? 'portrait'),
  };
}

/** How many comments the document holds and how many pictures its body paragraphs show. */
async function extrasCount(docx: Docx): Promise<{ comments: number; pictures: number }> {
  const pictures = paragraphs(docx.body).reduce((n, r) => n + imageRefs(r.p).length, 0);
  return { comments: (await commentsOf(docx)).length, pictures };
}

/** Longest common subsequence of two paragraph lists by text: the pairs the oracle kept in place. */
function keptPairs(a: ParagraphSnap[], b: ParagraphSnap[]): [number, number][] {
  return alignedPairs(a, b, (x, y) => x.text === y.text);
}

export async function writerInvariants(
  initial: FileMap,
  solved: FileMap,
  files: string[],
): Promise<unknown[]> {
  const checks: unknown[] = [];
  for (const file of files) {
    if (!initial[file] || !solved[file] || !file.endsWith('.docx')) continue;
    const [docBefore, docAfter] = [await openDocx(initial, file), await openDocx(solved, file)];
    const before = await snapDoc(docBefore);
    const after = await snapDoc(docAfter);
    const [had, has] = [await extrasCount(docBefore), await extrasCount(docAfter)];
    const pairs = keptPairs(before.paragraphs, after.paragraphs);
    const kept = pairs
      .filter(([i, j]) => same(before.paragraphs[i], after.paragraphs[j]))
      .map(([i]) => before.paragraphs[i]!);
    // A paragraph the oracle formatted (same text, another look) must read exactly as the oracle's:
    // bold asked, so bold and italic is wrong; the alignment or list it kept is kept.
    const touched = pairs
      .filter(([i, j]) => !same(before.paragraphs[i], after.paragraphs[j]))
      .map(([, j]) => after.paragraphs[j]!);
    // Two checks: what the oracle kept (the untouched document passes it, so it tells damage done
    // elsewhere from the task left undone), and what the oracle's own paragraphs and count must be.
    const sameCount = before.paragraphs.length === after.paragraphs.length;
    checks.push({
      kind: 'writer.unchanged',
      file,
      paragraphs: kept,
      // The oracle's paragraph count exactly; where it adds paragraphs, no more than its own
      // (a paragraph pasted twice), which the untouched document passes.
      ...(sameCount
        ? { count: after.paragraphs.length }
        : after.paragraphs.length > before.paragraphs.length
          ? { maxCount: after.paragraphs.length }
          : {}),
      // Tables the oracle adds: no more than its own (a table pasted twice is collateral).
      ...(same(before.tables, after.tables)
        ? { tables: after.tables }
        : after.tables.length > before.tables.length
          ? { maxTables: after.tables.length }
          : {}),
      // A table the oracle edits keeps every cell it leaves alone (a value typed in the
      // neighbouring cell too is collateral; the untouched document passes).
      ...(!same(before.tables, after.tables) && before.tables.length === after.tables.length
        ? { cells: keptCells(before.tables, after.tables) }
        : {}),
      ...(same(before.header, after.header) ? { header: after.header } : {}),
      ...(same(before.footer, after.footer) ? { footer: after.footer } : {}),
      ...(before.orientation === after.orientation ? { orientation: after.orientation } : {}),
      // No more comments or pictures than the oracle leaves (a second one is collateral); the
      // untouched document, with no more than that, passes.
      ...(has.comments >= had.comments ? { maxComments: has.comments } : {}),
      ...(has.pictures >= had.pictures ? { maxPictures: has.pictures } : {}),
    });
    if (touched.length > 0 || !sameCount)
      checks.push({
        kind: 'writer.unchanged',
        file,
        paragraphs: [],
        ...(sameCount ? {} : { count: after.paragraphs.length }),
        ...(touched.length > 0 ? { touched } : {}),
      });
  }
  return checks;
}

/**
 * `writer.unchanged`: the listed paragraphs appear in this order (matched by text) with every
 * listed property; each `touched` paragraph (the oracle's own, found by text) reads exactly so; the
 * body has exactly `count` (when given) non-empty paragraphs outside tables; and tables,
 * header, footer and orientation, where listed, are exactly as listed.
 */
export async function probeWriterUnchanged(
  docx: Docx,
  check: {
    paragraphs: ParagraphSnap[];
    count?: number;
    maxCount?: number;
    touched?: ParagraphSnap[];
    tables?: string[][][];
    maxTables?: number;
    cells?: [number, number, number, string][];
    maxComments?: number;
    maxPictures?: number;
    header?: string[];
    footer?: string[];
    orientation?: string;
  },
): Promise<ProbeResult> {
  const now = await snapDoc(docx);
  const problems: unknown[] = [];
  let j = 0;
  for (const want of check.paragraphs) {
    while (j < now.paragraphs.length && now.paragraphs[j]!.text !== want.text) j++;
    const got = now.paragraphs[j];
    if (!got) {
      problems.push({ missing: want.text.slice(0, 80) });
      j = 0;
      continue;
    }
    if (!same(got, want)) problems.push({ changed: want.text.slice(0, 80), was: want, now: got });
    j++;
  }
  for (const want of check.touched ?? []) {
    const got = now.paragraphs.find((p) => p.text === want.text);
    if (!got) problems.push({ missing: want.text.slice(0, 80) });
    else if (!same(got, want)) problems.push({ changed: want.text.slice(0, 80), was: want, now: got });
  }
  if (check.count !== undefined && now.paragraphs.length !== check.count)
    problems.push({ paragraphs: now.paragraphs.length, expected: check.count });
  if (check.maxCount !== undefined && now.paragraphs.length > check.maxCount)
    problems.push({ paragraphs: now.paragraphs.length, atMost: check.maxCount });
  for (const key of ['tables', 'header', 'footer', 'orientation'] as const) {
    if (check[key] !== undefined && !same(check[key], now[key])) problems.push({ [key]: now[key] });
  }
  if (check.maxTables !== undefined && now.tables.length > check.maxTables)
    problems.push({ tables: now.tables.length, atMost: check.maxTables });
  for (const [t, r, c, text] of check.cells ?? []) {
    const got = now.tables[t]?.[r]?.[c];
    if (got !== text) problems.push({ cell: [t, r, c], was: text, now: got ?? null });
  }
  if (check.maxComments !== undefined || check.maxPictures !== undefined) {
    const n = await extrasCount(docx);
    if (check.maxComments !== undefined && n.comments > check.maxComments)
      problems.push({ comments: n.comments, atMost: check.maxComments });
    if (check.maxPictures !== undefined && n.pictures > check.maxPictures)
      problems.push({ pictures: n.pictures, atMost: check.maxPictures });
  }
  return {
    pass: problems.length === 0,
    observed: problems.length === 0 ? { kept: check.paragraphs.length } : { problems: problems.slice(0, 6) },
  };
}

/** Cells equal before and after, table by table, row by row: [table, row, column, text]. */
function keptCells(before: string[][][], after: string[][][]): [number, number, number, string][] {
  const out: [number, number, number, string][] = [];
  for (const [t, table] of before.entries())
    for (const [r, row] of table.entries())
      for (const [c, text] of row.entries()) if (after[t]?.[r]?.[c] === text) out.push([t, r, c, text]);
  return out;
}
