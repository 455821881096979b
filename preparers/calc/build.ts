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
    for (const f of spec.formulas) {
      const formula = f.formula.replace(/^=/, '');
      const cell = ws.getCell(f.cell);
      cell.value = { formula, result: f.result ?? undefined } as ExcelJS.CellFormulaValue;
      if (f.result !== undefined) pinned.add(pinKey(spec.name, parseCell(f.cell)));
    }
    for (const s of spec.styles) {
      styleRange(ws, s.range, s);
    }
    for (const m of spec.merges) ws.mergeCells(m);
    if (spec.freeze && (spec.freeze.rows > 0 || spec.freeze.cols > 0)) {
      ws.views = [{ state: 'frozen', xSplit: spec.freeze.cols, ySplit: spec.freeze.rows }];
    }
    if (spec.autoFilter) ws.autoFilter = spec.autoFilter;
  }
  recalculate(wb, pinned);
  return finishXlsx(await saveWorkbook(wb), doc.charts);
}
