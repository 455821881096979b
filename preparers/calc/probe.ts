import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { jsonEqual } from '../deepEqual.ts';
import { asTyped } from '../office/asTyped.ts';
import { regexTest } from '../sandbox/regex.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { cellName, cellsOf, colToNum, parseRange, type Range, splitSheetRef } from './a1.ts';
import { readCharts } from './charts.ts';
import { probeConditionalFormat } from './conditionalCheck.ts';
import { probeCsvTable } from './csv.ts';
import { probeFormula, probeFormulaRange } from './formulaCheck.ts';
import { probeUnchanged } from './invariants.ts';
import type { CalcCheck } from './schema.ts';
import {
  probeColumnsHidden,
  probeColumnWidth,
  probeNamedRange,
  probePrintArea,
  probeValidation,
} from './structure.ts';
import { fillFits, fillOf, formatCategory } from './styles.ts';
import { pushedRows, titled } from './titleRoom.ts';
import { cellValue, findSheet, formulaOf, loadWorkbook, type Plain } from './workbook.ts';
import { parseXml, readPart, sheetParts } from './xml.ts';

/**
 * Evaluates rubric checks on real xlsx bytes, written by us or saved by LibreOffice. Cell data
 * comes from exceljs; charts, conditional formats and autofilters from the raw parts, which
 * both writers express the same way.
 */

interface Parsed {
  wb: ExcelJS.Workbook;
  zip: JSZip;
}

const cache = new WeakMap<Uint8Array, Promise<Parsed>>();

function parse(bytes: Uint8Array, file: string): Promise<Parsed> {
  let hit = cache.get(bytes);
  if (!hit) {
    hit = Promise.all([loadWorkbook(bytes, file), JSZip.loadAsync(bytes)]).then(async ([wb, zip]) => {
      return { wb, zip };
    });
    cache.set(bytes, hit);
  }
  return hit;
}

const fail = (observed: unknown): ProbeResult => ({ pass: false, observed });
const verdict = (pass: boolean, observed: unknown): ProbeResult => ({ pass, observed });

function valuesEqual(actual: Plain, expected: Plain, tolerance: number): boolean {
  if (typeof expected === 'number' && typeof actual === 'number')
    return Math.abs(actual - expected) <= tolerance;
  if (typeof expected === 'number' && typeof actual === 'string' && actual.trim() !== '') {
    const n = Number(actual);
    return Number.isFinite(n) && Math.abs(n - expected) <= tolerance;
  }
  if ((expected === null || expected === '') && (actual === null || actual === '')) return true;
  // Calc's AutoCorrect curls the quotes a person types into a cell (O'Brien → O’Brien).
  if (typeof actual === 'string' && typeof expected === 'string')
    return asTyped(actual) === asTyped(expected);
  return actual === expected;
}

function display(v: Plain): string {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

function blockValues(ws: ExcelJS.Worksheet, r: Range): Plain[][] {
  const rows: Plain[][] = [];
  for (let row = r.top; row <= r.bottom; row++) {
    const vals: Plain[] = [];
    for (let col = r.left; col <= r.right; col++) vals.push(cellValue(ws.getCell(row, col)));
    rows.push(vals);
  }
  return rows;
}

/** Data rows of a block, trailing empty rows dropped. */
function tableRows(ws: ExcelJS.Worksheet, r: Range, header: boolean): Plain[][] {
  const rows = blockValues(ws, { ...r, top: header ? r.top + 1 : r.top });
  while (rows.length > 0 && rows[rows.length - 1].every((v) => v === null || v === '')) rows.pop();
  return rows;
}

function sameRange(a: string, b: string): boolean {
  try {
    return splitSheetRef(a).range === splitSheetRef(b).range;
  } catch {
    return false;
  }
}

async function sheetXml(zip: JSZip, sheet: string): Promise<string | undefined> {
  const part = (await sheetParts(zip)).find((s) => s.name.toLowerCase() === sheet.toLowerCase());
  return part ? readPart(zip, part.path) : undefined;
}

/** Whether range `outer` (an A1 range as a file stores it) spans every cell of `inner`. */
function encloses(outer: string, inner: string): boolean {
  try {
    const o = parseRange(outer.replace(/\$/g, ''));
    const i = parseRange(inner);
    return o.top <= i.top && o.left <= i.left && o.bottom >= i.bottom && o.right >= i.right;
  } catch {
    return false;
  }
}

export async function probeCalc(files: FileMap, check: CalcCheck): Promise<ProbeResult> {
  if (check.kind === 'calc.csv_table') return probeCsvTable(files, check);
  const bytes = files[check.file];
  // The checker on the VM sees only this file, so the observation names only this file.
  if (!bytes) return fail({ error: `file ${check.file} does not exist` });
  let parsed: Parsed;
  try {
    parsed = await parse(bytes, check.file);
  } catch (err) {
    return fail({ error: err instanceof Error ? err.message : String(err) });
  }
  const { wb, zip } = parsed;
  const sheetNames = wb.worksheets.map((w) => w.name);
  if (check.kind === 'calc.named_range') return probeNamedRange(zip, check);
  if (check.kind === 'calc.sheet_names') {
    // An array: sheet order is part of the answer. A sheet the task adds may be anywhere or
    // missing (the task's checks judge it), but no other sheet may come, go or move.
    const added = check.added ?? [];
    const rest = (names: string[]) => names.filter((n) => !added.includes(n));
    const now = sheetNames.map((n) => check.renamed?.[n] ?? n);
    return verdict(jsonEqual(rest(now), rest(check.names)), { sheets: sheetNames });
  }
  const ws =
    findSheet(wb, check.sheet) ??
    (check.kind === 'calc.unchanged' && check.was !== undefined ? findSheet(wb, check.was) : undefined);
  if (check.kind === 'calc.sheet_exists') {
    return verdict((ws !== undefined) === check.exists, { sheets: sheetNames });
  }
  if (!ws && check.kind === 'calc.unchanged' && check.newSheet) return verdict(true, { sheets: sheetNames });
  if (!ws) return fail({ error: `no sheet named "${check.sheet}"`, sheets: sheetNames });

  switch (check.kind) {
    case 'calc.cell_value': {
      const cell = ws.getCell(check.cell);
      const actual = cellValue(cell);
      const formula = formulaOf(cell);
      const seen = { value: actual, ...(formula ? { formula } : {}) };
      if (check.type !== undefined && typeof actual !== (check.type === 'number' ? 'number' : 'string'))
        return verdict(false, { ...seen, type: actual === null ? 'empty' : typeof actual });
      if (check.matches !== undefined)
        return verdict(await regexTest(check.matches, '', display(actual)), seen);
      return verdict(valuesEqual(actual, check.value ?? null, check.tolerance ?? 0), seen);
    }
    case 'calc.formula':
      return probeFormula(ws, titled(ws, check));
    case 'calc.unchanged':
      return probeUnchanged(ws, check);
    case 'calc.range_sorted': {
      const r = parseRange(check.range);
      const col = colToNum(check.column) - r.left;
      if (col < 0 || r.left + col > r.right)
        return fail({ error: `column ${check.column} is outside ${check.range}` });
      const keys = tableRows(ws, r, check.header)
        .map((row) => row[col])
        .filter((v) => v !== null && v !== '');
      const sign = check.direction === 'desc' ? -1 : 1;
      for (let i = 1; i < keys.length; i++) {
        const a = keys[i - 1];
        const b = keys[i];
        const cmp =
          typeof a === 'number' && typeof b === 'number'
            ? a - b
            : typeof a === 'number'
              ? -1
              : typeof b === 'number'
                ? 1
                : display(a).localeCompare(display(b), 'en', { sensitivity: 'base' });
        if (sign * cmp > 0) return fail({ outOfOrderAt: i, pair: [a, b], column: keys.slice(0, 20) });
      }
      return verdict(keys.length > 0, { rows: keys.length, column: keys.slice(0, 20) });
    }
    case 'calc.no_duplicates': {
      const r = parseRange(check.range);
      const cols = (check.columns ?? []).map((c) => colToNum(c) - r.left);
      const seen = new Map<string, number>();
      const rows = tableRows(ws, r, check.header);
      for (const [i, row] of rows.entries()) {
        const key = JSON.stringify(
          (cols.length > 0 ? cols.map((c) => row[c]) : row).map((v) =>
            typeof v === 'string' ? v.trim().toLowerCase() : v,
          ),
        );
        const prev = seen.get(key);
        if (prev !== undefined)
          return fail({
            duplicate: JSON.parse(key),
            rows: [prev, i].map((x) => x + r.top + (check.header ? 1 : 0)),
          });
        seen.set(key, i);
      }
      return verdict(true, { rows: rows.length });
    }
    case 'calc.number_format': {
      const bad: { cell: string; numFmt: string | null }[] = [];
      // A range has few distinct format codes: each goes to the regex sandbox once, all at once.
      const cells = [...cellsOf(parseRange(check.range))].map(({ row, col }) => ({
        row,
        col,
        code: ws.getCell(row, col).numFmt,
      }));
      const matched = new Map<string, boolean>();
      if (check.matches !== undefined) {
        const codes = [...new Set(cells.map((c) => c.code ?? ''))];
        const answers = await Promise.all(codes.map((code) => regexTest(check.matches!, '', code)));
        for (const [i, code] of codes.entries()) matched.set(code, answers[i]!);
      }
      for (const { row, col, code } of cells) {
        const ok =
          (check.numFmt === undefined || code === check.numFmt) &&
          (check.matches === undefined || matched.get(code ?? '') === true) &&
          (check.category === undefined || formatCategory(code) === check.category);
        if (!ok) bad.push({ cell: cellName(row, col), numFmt: code ?? null });
      }
      return verdict(
        bad.length === 0,
        bad.length === 0
          ? { ok: check.range }
          : { mismatches: bad.slice(0, 10), category: formatCategory(bad[0].numFmt ?? undefined) },
      );
    }
    case 'calc.style': {
      const bad: unknown[] = [];
      for (const { row, col } of cellsOf(parseRange(check.range))) {
        const cell = ws.getCell(row, col);
        const bold = cell.font?.bold === true;
        const italic = cell.font?.italic === true;
        const fill = fillOf(cell);
        const ok =
          (check.bold === undefined || bold === check.bold) &&
          (check.italic === undefined || italic === check.italic) &&
          (check.fill === undefined || fillFits(fill ?? null, check.fill, check.fillAlso));
        if (!ok) bad.push({ cell: cellName(row, col), bold, italic, fill: fill ?? null });
      }
      return verdict(
        bad.length === 0,
        bad.length === 0 ? { ok: check.range } : { mismatches: bad.slice(0, 10) },
      );
    }
    case 'calc.chart': {
      const charts = (await readCharts(zip)).filter((c) => c.sheet.toLowerCase() === ws.name.toLowerCase());
      const seen = charts.map(({ type, title, categories, values }) => ({ type, title, categories, values }));
      if (check.count !== undefined && charts.length !== check.count)
        return fail({ count: charts.length, charts: seen });
      const match = charts.some(
        (c) =>
          (check.type === undefined || c.type === check.type) &&
          (check.title === undefined || c.title === check.title.trim()) &&
          (check.values === undefined || c.values.some((v) => sameRange(v, check.values!))) &&
          (check.categories === undefined ||
            (c.categories !== undefined && sameRange(c.categories, check.categories))),
      );
      return verdict(check.count === 0 ? charts.length === 0 : match, { charts: seen });
    }
    case 'calc.freeze': {
      // A sheet read with no <sheetViews> has views null: nothing frozen.
      const view = (ws.views ?? []).find((v) => v.state === 'frozen') as
        | { xSplit?: number; ySplit?: number }
        | undefined;
      const rows = view?.ySplit ?? 0;
      const cols = view?.xSplit ?? 0;
      return verdict(rows === check.rows && cols === check.cols, { rows, cols });
    }
    case 'calc.row_count': {
      let count = 0;
      const pushed = pushedRows(ws, check.titleRoom);
      ws.eachRow({ includeEmpty: false }, (row) => {
        if (pushed.has(row.number)) return;
        let filled = false;
        row.eachCell((cell) => {
          const v = cellValue(cell);
          if (v !== null && v !== '') filled = true;
        });
        if (filled) count++;
      });
      return verdict(count === check.count, { count });
    }
    case 'calc.range_values': {
      const actual = blockValues(ws, parseRange(titled(ws, check).range));
      const expected = check.values;
      const ok =
        actual.length === expected.length &&
        actual.every(
          (row, i) =>
            row.length === expected[i].length &&
            row.every((v, j) => valuesEqual(v, expected[i][j], check.tolerance)),
        );
      return verdict(ok, { values: actual.slice(0, 50) });
    }
    case 'calc.conditional_format':
      return probeConditionalFormat(zip, ws.name, check, await sheetXml(zip, ws.name));
    case 'calc.formula_range':
      return probeFormulaRange(ws, titled(ws, check));
    case 'calc.autofilter': {
      const xml = (await sheetXml(zip, ws.name)) ?? '';
      const ref = /<autoFilter\b[^>]*\bref="([^"]+)"/.exec(xml)?.[1];
      const want = check.range;
      return verdict(
        ref !== undefined &&
          (want === undefined || sameRange(ref, want)) &&
          (check.covers === undefined || encloses(ref, check.covers)),
        { autoFilter: ref ?? null },
      );
    }
    case 'calc.rows_hidden': {
      const states = check.rows.map((r) => ({ row: r, hidden: ws.getRow(r).hidden === true }));
      return verdict(
        states.every((s) => s.hidden === check.hidden),
        { rows: states },
      );
    }
    case 'calc.columns_hidden':
      return probeColumnsHidden(parseXml((await sheetXml(zip, ws.name)) ?? '<worksheet/>'), check);
    case 'calc.column_width':
      return probeColumnWidth(parseXml((await sheetXml(zip, ws.name)) ?? '<worksheet/>'), check);
    case 'calc.print_area':
      return probePrintArea(zip, ws, check);
    case 'calc.validation':
      return probeValidation(parseXml((await sheetXml(zip, ws.name)) ?? '<worksheet/>'), wb, ws.name, check);
    case 'calc.merged': {
      const merges = ((ws.model as { merges?: string[] }).merges ?? []).map(String);
      return verdict(
        merges.some((m) => sameRange(m, check.range)),
        { merges },
      );
    }
  }
}
