import ExcelJS from 'exceljs';
import { numToCol, parseCell } from './a1.ts';
import { finishXlsx } from './package.ts';
import type { CalcDoc } from './schema.ts';
import { styleRange, TYPE_FORMATS } from './styles.ts';
import { isoToDate, pinKey, recalculate, saveWorkbook } from './workbook.ts';

/** Builds the xlsx bytes of a doc spec (already validated by calcDocSchema). */
export async function buildWorkbook(doc: CalcDoc): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'cua-forge';
  wb.created = new Date(Date.UTC(2024, 0, 1));
  wb.modified = wb.created;
  // Without bookViews LibreOffice ignores per-sheet views such as frozen panes.
  wb.views = [
    { x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab: 0, visibility: 'visible' },
  ];
  const pinned = new Set<string>();
  for (const spec of doc.sheets) {
    const ws = wb.addWorksheet(spec.name);
    const hasHeader = spec.columns.length > 0;
    if (hasHeader) {
      const header = ws.getRow(1);
      spec.columns.forEach((c, i) => {
        header.getCell(i + 1).value = c.header;
        if (c.width !== undefined) ws.getColumn(i + 1).width = c.width;
      });
      const last = numToCol(spec.columns.length);
      styleRange(ws, `A1:${last}1`, {
        bold: spec.headerStyle.bold,
        ...(spec.headerStyle.fill ? { fill: spec.headerStyle.fill } : {}),
      });
    }
    const first = hasHeader ? 2 : 1;
    spec.rows.forEach((values, r) => {
      const row = ws.getRow(first + r);
      values.forEach((v, c) => {
        const column = spec.columns[c];
        const cell = row.getCell(c + 1);
        const date = column?.type === 'date' && typeof v === 'string' ? isoToDate(v) : undefined;
        cell.value = date ?? v;
        const fmt = column?.numFmt ?? (column ? TYPE_FORMATS[column.type] : undefined);
        if (fmt && v !== null) cell.numFmt = fmt;
      });
    });
    for (const c of spec.cells) ws.getCell(c.cell).value = c.value;
    for (const f of spec.formulas) {
      const formula = f.formula.replace(/^=/, '');
      const cell = ws.getCell(f.cell);
      cell.value = { formula, result: f.result ?? undefined } as ExcelJS.CellFormulaValue;
      if (f.result !== undefined) pinned.add(pinKey(spec.name, parseCell(f.cell)));
    }
    for (const s of spec.styles) {
      styleRange(ws, s.range, s);
    }
    fitColumns(ws, spec);
    for (const m of spec.merges) ws.mergeCells(m);
    if (spec.freeze && (spec.freeze.rows > 0 || spec.freeze.cols > 0)) {
      ws.views = [{ state: 'frozen', xSplit: spec.freeze.cols, ySplit: spec.freeze.rows }];
    }
    if (spec.autoFilter) ws.autoFilter = spec.autoFilter;
  }
  recalculate(wb, pinned);
  return finishXlsx(await saveWorkbook(wb), doc.charts);
}

/** Rough display width of a value in characters, as its column's number format shows it. */
function displayWidth(v: unknown, type: string | undefined): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') {
    const digits = Math.abs(v) >= 1 ? Math.floor(Math.log10(Math.abs(v))) + 1 : 1;
    // Thousands separators, two decimals, a currency sign or a percent sign.
    return digits + Math.floor((digits - 1) / 3) + (type === 'int' ? 1 : 4) + (v < 0 ? 1 : 0);
  }
  if (type === 'date') return 11;
  return String(v).length;
}

/**
 * Columns without an explicit width get one that fits their header and values, so LibreOffice
 * never shows `###` for a number nor cuts a name off. Cells merged across columns (a title) are
 * left to the merge.
 */
function fitColumns(ws: ExcelJS.Worksheet, spec: CalcDoc['sheets'][number]): void {
  const merged = new Set(spec.merges.map((m) => m.split(':')[0]!.replace(/\$/g, '').toUpperCase()));
  const widths = new Map<number, number>();
  const note = (col: number, w: number) => widths.set(col, Math.max(widths.get(col) ?? 0, w));
  spec.columns.forEach((c, i) => {
    note(i + 1, c.header.length * 1.15 + 2);
  });
  for (const values of spec.rows) {
    values.forEach((v, c) => {
      note(c + 1, displayWidth(v, spec.columns[c]?.type) + 2);
    });
  }
  for (const c of spec.cells) {
    if (merged.has(c.cell.toUpperCase())) continue;
    note(parseCell(c.cell).col, displayWidth(c.value, undefined) + 2);
  }
  for (const f of spec.formulas) note(parseCell(f.cell).col, 14);
  for (const [col, w] of widths) {
    if (spec.columns[col - 1]?.width !== undefined) continue;
    ws.getColumn(col).width = Math.min(60, Math.max(9, Math.ceil(w)));
  }
}
