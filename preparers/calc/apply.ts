import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { FileMap } from '../types.ts';
import { cellName, cellsOf, colToNum, parseCell, parseRange, quoteSheet, type Range } from './a1.ts';
import { readCharts, specOf } from './charts.ts';
import { sheetToCsv } from './csv.ts';
import { shiftFormula } from './formula.ts';
import { finishXlsx, type RawName } from './package.ts';
import type { CalcEdit, ChartSpec } from './schema.ts';
import { argb, formatRange, ownStyle, styleRange } from './styles.ts';
import {
  cellValue,
  formulaOf,
  isoToDate,
  loadWorkbook,
  pinKey,
  plainValue,
  recalculate,
  requireSheet,
  saveWorkbook,
} from './workbook.ts';

/**
 * Applies oracle edits to the workbooks of a FileMap, file by file, in order. Charts are read
 * from the package before exceljs loads it (exceljs drops them) and written back afterwards;
 * every formula's cached result is recomputed so probes see consistent values.
 */
export async function applyCalcEdits(files: FileMap, edits: CalcEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  const byFile = new Map<string, CalcEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, fileEdits] of byFile) {
    const bytes = out[file];
    if (!bytes) throw new Error(`calc edit names ${file}, which is not among the task files`);
    const charts = (await readCharts(await JSZip.loadAsync(bytes))).flatMap((c) => specOf(c) ?? []);
    const wb = await loadWorkbook(bytes, file);
    const state: EditState = { wb, charts, pinned: new Set(), exports: [], names: [] };
    for (const edit of fileEdits) {
      try {
        applyOne(state, edit);
      } catch (err) {
        throw new Error(`${edit.op} on ${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    recalculate(wb, state.pinned);
    out[file] = await finishXlsx(await saveWorkbook(wb), state.charts, state.names);
    // Exports are written from the recalculated sheet, as the application writes what it shows.
    for (const { sheet, to } of state.exports)
      out[to] = new TextEncoder().encode(sheetToCsv(requireSheet(wb, sheet)));
  }
  return out;
}

interface EditState {
  wb: ExcelJS.Workbook;
  charts: ChartSpec[];
  pinned: Set<string>;
  /** CSV files to write once the workbook is recalculated. */
  exports: { sheet: string; to: string }[];
  /** Names exceljs cannot write (a sheet's own, or relative), added to the saved package. */
  names: RawName[];
}

interface Snapshot {
  value: ExcelJS.CellValue;
  style: Partial<ExcelJS.Style>;
}

function snapshotRow(ws: ExcelJS.Worksheet, row: number, r: Range): Snapshot[] {
  const out: Snapshot[] = [];
  for (let c = r.left; c <= r.right; c++) {
    const cell = ws.getCell(row, c);
    out.push({ value: cell.value, style: JSON.parse(JSON.stringify(cell.style ?? {})) });
  }
  return out;
}

/** Writes a row snapshot to another row, shifting relative references of its formulas. */
function restoreRow(ws: ExcelJS.Worksheet, row: number, from: number, r: Range, snap: Snapshot[]): void {
  snap.forEach((s, i) => {
    const cell = ws.getCell(row, r.left + i);
    const f = s.value && typeof s.value === 'object' && 'formula' in s.value ? s.value.formula : undefined;
    cell.value = f ? ({ formula: shiftFormula(f, row - from, 0) } as ExcelJS.CellFormulaValue) : s.value;
    cell.style = s.style;
  });
}

function clearRow(ws: ExcelJS.Worksheet, row: number, r: Range): void {
  for (let c = r.left; c <= r.right; c++) {
    const cell = ws.getCell(row, c);
    cell.value = null;
    cell.style = {};
  }
}

/** Sort key: numbers < text < booleans, empty cells last (as spreadsheet apps sort). */
function compareValues(a: ExcelJS.CellValue, b: ExcelJS.CellValue): number {
  const x = plainValue(a);
  const y = plainValue(b);
  const rank = (v: unknown) =>
    v === null || v === '' ? 3 : typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2;
  if (rank(x) !== rank(y)) return rank(x) - rank(y);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'string' && typeof y === 'string')
    return x.localeCompare(y, 'en', { sensitivity: 'base' });
  return Number(x) - Number(y);
}

function dataRows(r: Range, header: boolean): number[] {
  const rows: number[] = [];
  for (let row = header ? r.top + 1 : r.top; row <= r.bottom; row++) rows.push(row);
  return rows;
}

function keep(value: ExcelJS.CellValue, cond: Extract<CalcEdit, { op: 'calc.filter' }>['keep']): boolean {
  const v = plainValue(value);
  if (cond.equals !== undefined && v !== cond.equals) return false;
  if (cond.greaterThan !== undefined && !(typeof v === 'number' && v > cond.greaterThan)) return false;
  if (cond.lessThan !== undefined && !(typeof v === 'number' && v < cond.lessThan)) return false;
  if (
    cond.contains !== undefined &&
    !String(v ?? '')
      .toLowerCase()
      .includes(cond.contains.toLowerCase())
  )
    return false;
  return true;
}

function renameInFormulas(wb: ExcelJS.Workbook, from: string, to: string): void {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "''");
  const re = new RegExp(`(?:'${escaped}'|\\b${escaped})!`, 'gi');
  for (const ws of wb.worksheets) {
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        const f = formulaOf(cell);
        if (f && re.test(f)) {
          re.lastIndex = 0;
          cell.value = { formula: f.replace(re, () => `${quoteSheet(to)}!`) } as ExcelJS.CellFormulaValue;
        }
        re.lastIndex = 0;
      }),
    );
  }
}

function applyOne(state: EditState, edit: CalcEdit): void {
  const { wb } = state;
  switch (edit.op) {
    case 'calc.set_value': {
      requireSheet(wb, edit.sheet).getCell(edit.cell).value = edit.value;
      return;
    }
    case 'calc.set_values': {
      const ws = requireSheet(wb, edit.sheet);
      const at = parseCell(edit.cell);
      edit.values.forEach((row, r) => {
        row.forEach((v, c) => {
          ws.getCell(at.row + r, at.col + c).value = v;
        });
      });
      return;
    }
    case 'calc.set_formula': {
      const ws = requireSheet(wb, edit.sheet);
      const formula = edit.formula.replace(/^\s*=/, '');
      ws.getCell(edit.cell).value = { formula, result: edit.result ?? undefined } as ExcelJS.CellFormulaValue;
      if (edit.result !== undefined) state.pinned.add(pinKey(ws.name, parseCell(edit.cell)));
      return;
    }
    case 'calc.set_formulas': {
      const ws = requireSheet(wb, edit.sheet);
      const at = parseCell(edit.cell);
      edit.formulas.forEach((row, r) => {
        row.forEach((f, c) => {
          if (f === null) return;
          const formula = f.replace(/^\s*=/, '');
          ws.getCell(at.row + r, at.col + c).value = { formula } as ExcelJS.CellFormulaValue;
        });
      });
      return;
    }
    case 'calc.fill_formula': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      for (const { row, col } of cellsOf(r)) {
        const formula = shiftFormula(edit.formula, row - r.top, col - r.left);
        ws.getCell(row, col).value = { formula } as ExcelJS.CellFormulaValue;
      }
      return;
    }
    case 'calc.sort_range': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      const key = colToNum(edit.column);
      if (key < r.left || key > r.right) throw new Error(`column ${edit.column} is outside ${edit.range}`);
      const rows = dataRows(r, edit.header).map((row) => ({
        from: row,
        key: cellValue(ws.getCell(row, key)) as ExcelJS.CellValue,
        snap: snapshotRow(ws, row, r),
      }));
      const sign = edit.direction === 'desc' ? -1 : 1;
      const sorted = [...rows].sort((a, b) => {
        const ea = plainValue(a.key) === null;
        const eb = plainValue(b.key) === null;
        if (ea || eb) return Number(ea) - Number(eb);
        return sign * compareValues(a.key, b.key);
      });
      sorted.forEach((s, i) => {
        restoreRow(ws, rows[i].from, s.from, r, s.snap);
      });
      return;
    }
    case 'calc.remove_duplicates': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      const keys = (edit.columns ?? []).map(colToNum);
      const cols =
        keys.length > 0 ? keys : Array.from({ length: r.right - r.left + 1 }, (_, i) => r.left + i);
      const seen = new Set<string>();
      const rows = dataRows(r, edit.header);
      const kept: { from: number; snap: Snapshot[] }[] = [];
      for (const row of rows) {
        const k = JSON.stringify(
          cols.map((c) => {
            const v = cellValue(ws.getCell(row, c));
            return typeof v === 'string' ? v.trim().toLowerCase() : v;
          }),
        );
        if (seen.has(k)) continue;
        seen.add(k);
        kept.push({ from: row, snap: snapshotRow(ws, row, r) });
      }
      rows.forEach((row, i) => {
        const k = kept[i];
        if (k) restoreRow(ws, row, k.from, r, k.snap);
        else clearRow(ws, row, r);
      });
      return;
    }
    case 'calc.set_number_format':
      formatRange(requireSheet(wb, edit.sheet), edit.range, edit.numFmt);
      return;
    case 'calc.set_style':
      styleRange(requireSheet(wb, edit.sheet), edit.range, edit);
      return;
    case 'calc.merge':
      requireSheet(wb, edit.sheet).mergeCells(edit.range);
      return;
    case 'calc.rename_sheet': {
      const ws = requireSheet(wb, edit.sheet);
      const old = ws.name;
      if (wb.worksheets.some((w) => w !== ws && w.name.toLowerCase() === edit.to.toLowerCase())) {
        throw new Error(`a sheet named "${edit.to}" already exists`);
      }
      ws.name = edit.to;
      renameInFormulas(wb, old, edit.to);
      for (const c of state.charts) if (c.sheet.toLowerCase() === old.toLowerCase()) c.sheet = edit.to;
      return;
    }
    case 'calc.add_sheet': {
      if (wb.worksheets.some((w) => w.name.toLowerCase() === edit.sheet.toLowerCase())) {
        throw new Error(`a sheet named "${edit.sheet}" already exists`);
      }
      const ordered = [...wb.worksheets];
      const ws = wb.addWorksheet(edit.sheet);
      ordered.splice(Math.min(edit.position ?? ordered.length, ordered.length), 0, ws);
      // exceljs writes sheets in orderNo order, a field its typings do not declare.
      ordered.forEach((w, i) => {
        (w as unknown as { orderNo: number }).orderNo = i;
      });
      return;
    }
    case 'calc.delete_sheet': {
      const ws = requireSheet(wb, edit.sheet);
      wb.removeWorksheet(ws.id);
      state.charts = state.charts.filter((c) => c.sheet.toLowerCase() !== ws.name.toLowerCase());
      return;
    }
    case 'calc.freeze_panes': {
      const ws = requireSheet(wb, edit.sheet);
      ws.views =
        edit.rows > 0 || edit.cols > 0
          ? [{ state: 'frozen', xSplit: edit.cols, ySplit: edit.rows }]
          : [{ state: 'normal' }];
      return;
    }
    case 'calc.fill_series': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      if (r.top !== r.bottom && r.left !== r.right)
        throw new Error(`${edit.range} is not a single row or column`);
      let i = 0;
      for (const { row, col } of cellsOf(r)) ws.getCell(row, col).value = edit.start + edit.step * i++;
      return;
    }
    case 'calc.add_chart':
      requireSheet(wb, edit.chart.sheet);
      state.charts.push(edit.chart);
      return;
    case 'calc.autofilter':
      requireSheet(wb, edit.sheet).autoFilter = edit.range;
      return;
    case 'calc.filter': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      ws.autoFilter = edit.range;
      const col = colToNum(edit.column);
      for (const row of dataRows(r, true))
        ws.getRow(row).hidden = !keep(cellValue(ws.getCell(row, col)), edit.keep);
      return;
    }
    case 'calc.conditional_format': {
      const ws = requireSheet(wb, edit.sheet);
      const rule = edit.rule;
      ws.addConditionalFormatting({
        ref: edit.range,
        rules: [
          {
            type: 'cellIs',
            priority: 1,
            operator: rule.operator as 'equal',
            formulae: rule.values.map((v) =>
              typeof v === 'number' ? String(v) : `"${v.replace(/"/g, '""')}"`,
            ),
            style: {
              fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: argb(rule.fill) } },
              ...(rule.bold ? { font: { bold: true } } : {}),
            },
          },
        ],
      });
      return;
    }
    case 'calc.delete_rows': {
      const ws = requireSheet(wb, edit.sheet);
      const last = ws.rowCount;
      if (edit.row > last) return;
      const n = Math.min(edit.count, last - edit.row + 1);
      ws.spliceRows(edit.row, n);
      // ExcelJS leaves the rows in place when the deletion runs to the last row; the bottom n rows
      // are empty after a deletion either way.
      for (let r = last - n + 1; r <= last; r++) {
        ws.getRow(r).eachCell({ includeEmpty: true }, (cell) => {
          cell.value = null;
          cell.style = {};
        });
      }
      return;
    }
    case 'calc.insert_row':
      requireSheet(wb, edit.sheet).insertRow(edit.row, edit.values);
      return;
    case 'calc.copy_range': {
      const src = requireSheet(wb, edit.sheet);
      const dst = requireSheet(wb, edit.toSheet);
      const r = parseRange(edit.range);
      const to = parseCell(edit.toCell);
      for (const { row, col } of cellsOf(r)) {
        const from = src.getCell(row, col);
        const cell = dst.getCell(to.row + row - r.top, to.col + col - r.left);
        const v = cellValue(from);
        const asDate = typeof v === 'string' && from.value instanceof Date ? isoToDate(v) : undefined;
        cell.value = asDate ?? v;
        if (from.numFmt) ownStyle(cell).numFmt = from.numFmt;
      }
      return;
    }
    case 'calc.set_column_width':
      requireSheet(wb, edit.sheet).getColumn(edit.column).width = edit.width;
      return;
    case 'calc.hide_columns': {
      const ws = requireSheet(wb, edit.sheet);
      for (const c of edit.columns) ws.getColumn(c).hidden = edit.hidden;
      return;
    }
    case 'calc.define_name': {
      const ws = requireSheet(wb, edit.sheet);
      const r = parseRange(edit.range);
      const fix = edit.relative ? '' : '$';
      const at = (row: number, col: number) =>
        cellName(row, col).replace(/^([A-Z]+)(\d+)$/, (_, c: string, n: string) => `${fix}${c}${fix}${n}`);
      const ref = `${quoteSheet(ws.name)}!${at(r.top, r.left)}:${at(r.bottom, r.right)}`;
      // exceljs keeps names as a cell matrix; its model is the list of names with their ranges.
      const names = wb.definedNames as unknown as { model: { name: string; ranges: string[] }[] };
      const others = names.model.filter((n) => n.name.toLowerCase() !== edit.name.toLowerCase());
      state.names = state.names.filter((n) => n.name.toLowerCase() !== edit.name.toLowerCase());
      // exceljs writes every name workbook-level and absolute; the others are written afterwards.
      if (edit.scope === 'sheet' || edit.relative) {
        names.model = others;
        const local = edit.scope === 'sheet' ? wb.worksheets.indexOf(ws) : undefined;
        state.names.push({ name: edit.name, ref, ...(local !== undefined ? { localSheetId: local } : {}) });
      } else names.model = [...others, { name: edit.name, ranges: [ref] }];
      return;
    }
    case 'calc.data_validation': {
      const ws = requireSheet(wb, edit.sheet);
      (
        ws as unknown as { dataValidations: { add(ref: string, v: ExcelJS.DataValidation): void } }
      ).dataValidations.add(edit.range, {
        type: 'list',
        allowBlank: true,
        formulae: [`"${edit.list.join(',')}"`],
        showErrorMessage: true,
      });
      return;
    }
    case 'calc.set_print_area': {
      // exceljs puts "$" before each column only ("$A1:$C12"), and LibreOffice's PDF export did not
      // apply that range (the notes beside it printed). Rows made absolute come out "$A$1:$C$12".
      const [a, b = a] = edit.range.split(':');
      requireSheet(wb, edit.sheet).pageSetup.printArea =
        `${a!.replace(/(\d+)$/, '$$$1')}:${b!.replace(/(\d+)$/, '$$$1')}`;
      return;
    }
    case 'calc.move_sheet': {
      const ws = requireSheet(wb, edit.sheet);
      const ordered = [...wb.worksheets].filter((w) => w !== ws);
      ordered.splice(Math.min(edit.position, ordered.length), 0, ws);
      ordered.forEach((w, i) => {
        (w as unknown as { orderNo: number }).orderNo = i;
      });
      return;
    }
    case 'calc.export_csv':
      requireSheet(wb, edit.sheet);
      state.exports.push({ sheet: edit.sheet, to: edit.to });
      return;
  }
}
