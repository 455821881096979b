import { jsonEqual as same } from '../deepEqual.ts';
import { typedStrings } from '../office/asTyped.ts';
import { formatMismatches } from '../ooxml/fonts.ts';
import type { XmlElement } from '../ooxml/xml.ts';
import { plainFigures } from '../proseFigures.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { commentsOf } from './comments.ts';
import {
  bodyText,
  type Docx,
  finalSection,
  matchingParagraphs,
  occurrences,
  openDocx,
  paragraphs,
  paragraphText,
  tablesWithLeadIn,
  textSlots,
} from './document.ts';
import {
  effectiveAlignment,
  effectiveIndent,
  effectiveLineSpacing,
  effectiveRunFormat,
  extraMismatches,
  shownText,
} from './format.ts';
import { headerTexts } from './headers.ts';
import { probeWriterUnchanged } from './invariants.ts';
import { listInfo } from './numbering.ts';
import { headerFields, startsNewPage } from './pages.ts';
import { probePicture } from './pictures.ts';
import type { WriterCheck } from './schema.ts';
import { normaliseStyleName, StyleSheet } from './styles.ts';
import { tableCells } from './tables.ts';
import { textParagraphs, tocInfo } from './toc.ts';

function countOk(n: number, c: { count?: number; min?: number; max?: number }): boolean {
  if (c.count !== undefined && n !== c.count) return false;
  if (c.min !== undefined && n < c.min) return false;
  if (c.max !== undefined && n > c.max) return false;
  if (c.count === undefined && c.min === undefined && c.max === undefined) return n >= 1;
  return true;
}

function count(hay: string, needle: string, ignoreCase = false): number {
  return ignoreCase
    ? occurrences(hay.toLowerCase(), needle.toLowerCase()).length
    : occurrences(hay, needle).length;
}

/**
 * Header and footer text as typed: Writer's AutoCorrect turns " - " between words into an en dash
 * while the text is typed, so a hyphen, en dash and em dash read as one.
 */
function sameDashes(s: string): string {
  return s.replace(/[\u2013\u2014]/g, '-');
}

function clip(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** A cell's text as the check reads it: exactly, or with its figures however they are written. */
function sameCell(actual: string | undefined, expected: string, figures: boolean | undefined): boolean {
  if (actual === expected) return true;
  return figures === true && actual !== undefined && plainFigures(actual) === plainFigures(expected);
}

/** How a check reads a paragraph's text: as typed, or as shown (capitals from Font Effects). */
async function textReader(docx: Docx, shown: boolean | undefined): Promise<(p: XmlElement) => string> {
  if (!shown) return paragraphText;
  const styles = await StyleSheet.load(docx);
  return (p) => shownText(styles, p);
}

/** Check every paragraph containing `match`; fails when none does. */
function everyParagraph<T>(
  docx: Docx,
  match: string,
  observe: (p: ReturnType<typeof paragraphs>[number]['p']) => T,
  ok: (v: T) => boolean,
  textOf?: (p: XmlElement) => string,
): ProbeResult {
  const refs = matchingParagraphs(docx.body, match, textOf);
  if (refs.length === 0) return { pass: false, observed: { paragraphs: 0 } };
  const seen = refs.map((r) => observe(r.p));
  return { pass: seen.every(ok), observed: seen.length === 1 ? seen[0] : seen };
}

async function probeOne(
  docx: Docx,
  check: Exclude<WriterCheck, { kind: 'writer.picture' }>,
): Promise<ProbeResult> {
  const { body } = docx;
  switch (check.kind) {
    case 'writer.text_present': {
      const n = count(bodyText(body, await textReader(docx, check.shown)), check.text, check.ignoreCase);
      return { pass: countOk(n, check), observed: { occurrences: n } };
    }
    case 'writer.text_absent': {
      const n = count(bodyText(body), check.text, check.ignoreCase);
      return { pass: n === 0, observed: { occurrences: n } };
    }
    case 'writer.text_replaced': {
      const text = bodyText(body);
      const oldN = count(text, check.old);
      const newN = count(text, check.new);
      const newOk = check.count === undefined ? newN >= 1 : newN === check.count;
      return { pass: oldN === 0 && newOk, observed: { old: oldN, new: newN } };
    }
    case 'writer.heading': {
      const styles = await StyleSheet.load(docx);
      const want = `heading${check.level}`;
      return everyParagraph(
        docx,
        check.paragraph,
        (p) => {
          const id = styles.paragraphStyle(p);
          return id ? styles.name(id) : 'none';
        },
        (name) => normaliseStyleName(name) === want,
        await textReader(docx, check.shown),
      );
    }
    case 'writer.run_format': {
      const { kind: _k, file: _f, text, strike, script, highlight, ...want } = check;
      const styles = await StyleSheet.load(docx);
      const observed: unknown[] = [];
      let pass = true;
      let hits = 0;
      for (const { p } of paragraphs(body)) {
        const slots = textSlots(p);
        for (const start of occurrences(paragraphText(p), text)) {
          hits++;
          const end = start + text.length;
          const runs = new Set(
            slots
              .filter((s) => s.text.length > 0 && s.start < end && s.start + s.text.length > start)
              .map((s) => s.run),
          );
          for (const run of runs) {
            const got = effectiveRunFormat(styles, p, run);
            if (formatMismatches(want, got).length > 0) pass = false;
            if (extraMismatches({ strike, script, highlight }, got).length > 0) pass = false;
            if (observed.length < 5) observed.push(got);
          }
        }
      }
      return { pass: pass && hits > 0, observed: { occurrences: hits, runs: observed } };
    }
    case 'writer.alignment': {
      const styles = await StyleSheet.load(docx);
      return everyParagraph(
        docx,
        check.paragraph,
        (p) => effectiveAlignment(styles, p),
        (a) => a === check.alignment,
      );
    }
    case 'writer.line_spacing': {
      const styles = await StyleSheet.load(docx);
      return everyParagraph(
        docx,
        check.paragraph,
        (p) => effectiveLineSpacing(styles, p),
        (v) => typeof v === 'number' && Math.abs(v - check.lineSpacing) <= check.tolerance,
      );
    }
    case 'writer.list': {
      const styles = await StyleSheet.load(docx);
      const observed: Record<string, string> = {};
      let pass = true;
      for (const match of check.paragraphs) {
        const refs = matchingParagraphs(body, match);
        if (refs.length === 0) {
          observed[match] = 'missing';
          pass = false;
          continue;
        }
        for (const { p } of refs) {
          const info = await listInfo(docx, styles, p);
          observed[match] = info ? info.type : 'not a list item';
          if (!info || (check.listType && info.type !== check.listType)) pass = false;
        }
      }
      if (check.ordered || check.after !== undefined) {
        // Positions among the non-empty paragraphs: items one after another, after the lead-in.
        const texts = paragraphs(body)
          .map((r) => paragraphText(r.p))
          .filter((t) => t.trim() !== '');
        const at = check.paragraphs.map((m) => texts.findIndex((t) => t.includes(m)));
        const consecutive = at.every((p, i) => p >= 0 && (i === 0 || p === at[i - 1]! + 1));
        if (check.ordered && !consecutive) pass = false;
        if (check.after !== undefined && !(at[0]! > 0 && texts[at[0]! - 1]!.includes(check.after)))
          pass = false;
        return { pass, observed: { ...observed, positions: at.map((p) => p + 1) } };
      }
      return { pass, observed };
    }
    case 'writer.table': {
      const all = tablesWithLeadIn(body);
      const candidates = check.table === undefined ? all : all.slice(check.table - 1, check.table);
      const shapes = candidates.map(({ table, before }) => {
        const cells = tableCells(table);
        return { rows: cells.length, cols: Math.max(0, ...cells.map((r) => r.length)), cells, before };
      });
      const fits = shapes.some(
        (s) =>
          (check.rows === undefined || s.rows === check.rows) &&
          (check.cols === undefined || s.cols === check.cols) &&
          (check.after === undefined || s.before.includes(check.after)) &&
          check.cells.every((c) => sameCell(s.cells[c.row - 1]?.[c.col - 1], c.text.trim(), check.figures)),
      );
      return {
        pass: fits,
        observed: {
          tables: all.length,
          shapes: shapes
            .slice(0, 3)
            .map((s) => ({ ...s, cells: s.cells.slice(0, 4), before: s.before.slice(0, 80) })),
        },
      };
    }
    case 'writer.orientation': {
      const pgSz = finalSection(body).first('w:pgSz');
      const w = Number(pgSz?.attrs['w:w'] ?? 0);
      const h = Number(pgSz?.attrs['w:h'] ?? 0);
      const orientation =
        w && h ? (w > h ? 'landscape' : 'portrait') : (pgSz?.attrs['w:orient'] ?? 'portrait');
      return { pass: orientation === check.orientation, observed: { orientation } };
    }
    case 'writer.header_text':
    case 'writer.footer_text': {
      const texts = await headerTexts(docx, check.kind === 'writer.header_text' ? 'header' : 'footer');
      const want = sameDashes(check.text);
      return {
        pass: texts.some((t) => sameDashes(t).includes(want)),
        observed: texts.map((t) => clip(t)),
      };
    }
    case 'writer.unchanged':
      return probeWriterUnchanged(docx, check);
    case 'writer.paragraph_count': {
      const n = paragraphs(body).filter((r) => !r.inTable && paragraphText(r.p).trim() !== '').length;
      return { pass: countOk(n, check), observed: { paragraphs: n } };
    }
    case 'writer.order': {
      const textOf = await textReader(docx, check.shown);
      const texts = textParagraphs(body)
        .filter((r) => !r.inTable)
        .map((r) => textOf(r.p))
        .filter((t) => t.trim() !== '');
      const at = check.paragraphs.map((m) => texts.findIndex((t) => t.includes(m)));
      const consecutive = at.every((q, i) => q >= 0 && (i === 0 || q === at[i - 1]! + 1));
      const lastOk = !check.last || at[at.length - 1] === texts.length - 1;
      return {
        pass: consecutive && lastOk,
        observed: { positions: at.map((q) => q + 1), paragraphs: texts.length },
      };
    }
    case 'writer.page_break': {
      const styles = await StyleSheet.load(docx);
      const refs = paragraphs(body);
      const seen = refs.flatMap((r, i) =>
        paragraphText(r.p).includes(check.paragraph) ? [startsNewPage(styles, refs, i)] : [],
      );
      return {
        pass: seen.length > 0 && seen.every((b) => b === check.before),
        observed: { newPage: seen.length === 1 ? seen[0] : seen },
      };
    }
    case 'writer.page_field': {
      const fields = await headerFields(docx, check.where);
      return {
        pass: fields.includes(check.field),
        observed: { fields, text: (await headerTexts(docx, check.where)).map((t) => clip(t, 80)) },
      };
    }
    case 'writer.comment': {
      const fold = (t: string) => (check.ignoreCase ? t.toLowerCase() : t);
      const all = await commentsOf(docx);
      const pass = all.some(
        (c) => fold(c.text).includes(fold(check.text)) && c.anchors.some((a) => a.includes(check.anchor)),
      );
      return {
        pass,
        observed: all
          .slice(0, 5)
          .map((c) => ({ text: clip(c.text, 80), anchors: c.anchors.map((a) => clip(a, 60)) })),
      };
    }
    case 'writer.toc': {
      const toc = tocInfo(body);
      let pass =
        toc.first >= 0 &&
        same(
          toc.entries,
          check.entries.map((e) => e.trim()),
        );
      if (check.before !== undefined) {
        const refs = paragraphs(body);
        const target = refs.findIndex(
          (r) => !toc.members.has(r.p) && paragraphText(r.p).includes(check.before!),
        );
        if (!(toc.first >= 0 && target > toc.first)) pass = false;
      }
      return {
        pass,
        observed: { entries: toc.entries.slice(0, 12).map((e) => clip(e, 60)), found: toc.first >= 0 },
      };
    }
    case 'writer.indent': {
      const styles = await StyleSheet.load(docx);
      const near = (a: number, b: number | undefined) =>
        b === undefined || Math.abs(a - b) <= check.tolerance;
      return everyParagraph(
        docx,
        check.paragraph,
        (p) => effectiveIndent(styles, p),
        (v) => near(v.left, check.left) && near(v.firstLine, check.firstLine),
      );
    }
  }
}

export async function probeWriter(files: FileMap, check: WriterCheck): Promise<ProbeResult> {
  // The checker on the VM sees only this file, so the observation names only this file.
  if (!files[check.file]) return { pass: false, observed: { error: `file ${check.file} does not exist` } };
  if (check.kind === 'writer.picture') return probePicture(files, check);
  // Text as typed on both sides (asTyped): the document's and every string of the check but its file.
  return probeOne(await openDocx(files, check.file, true), typedStrings(check));
}
