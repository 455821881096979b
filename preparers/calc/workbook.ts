import ExcelJS from 'exceljs';
import type { Cell } from './a1.ts';
import { type CellReader, evaluate, FormulaError, isFormulaError, type Scalar } from './formula.ts';

/** exceljs access shared by build, apply and probe: plain values, formulas, recalculation. */

export async function loadWorkbook(bytes: Uint8Array, name: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch (err) {
    throw new Error(
      `${name} is not a readable xlsx workbook: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return wb;
}

export async function saveWorkbook(wb: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** The worksheet named `name` (case-insensitive, as spreadsheet apps match names). */
export function findSheet(wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet | undefined {
  return wb.worksheets.find((ws) => ws.name.toLowerCase() === name.toLowerCase());
}

export function requireSheet(wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const ws = findSheet(wb, name);
  if (!ws)
    throw new Error(`no sheet named "${name}" (sheets: ${wb.worksheets.map((w) => w.name).join(', ')})`);
  return ws;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);

export function dateToSerial(d: Date): number {
  return (d.getTime() - EPOCH_1900) / DAY_MS;
}

/** `2024-03-01` for midnight dates, else the full ISO timestamp. */
export function dateToIso(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** Parses an ISO date (`YYYY-MM-DD` or a full timestamp) as UTC, or undefined. */
export function isoToDate(s: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(s)) return undefined;
  const d = new Date(s.length === 10 ? `${s}T00:00:00.000Z` : s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export type Plain = string | number | boolean | null;

/** A cell's value as the user sees it: formula cells give their cached result, dates ISO text. */
export function plainValue(value: ExcelJS.CellValue): Plain {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return dateToIso(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'object') {
    if ('formula' in value || 'sharedFormula' in value) {
      const result = (value as { result?: unknown }).result;
      if (result === undefined || result === null) return null;
      if (typeof result === 'object' && result !== null && 'error' in result) return String(result.error);
      return plainValue(result as ExcelJS.CellValue);
    }
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('error' in value) return String(value.error);
    if ('text' in value)
      return typeof value.text === 'string' ? value.text : plainValue(value.text as ExcelJS.CellValue);
  }
  return null;
}

/**
 * A cell's plain value. For formula cells this reads `cell.result`: exceljs's `value` getter
 * omits falsy cached results (0, FALSE, ""), which LibreOffice writes as often as any other.
 */
export function cellValue(cell: ExcelJS.Cell): Plain {
  if (formulaOf(cell) === undefined) return plainValue(cell.value);
  const result = cell.result as unknown;
  if (result === undefined || result === null) return null;
  if (typeof result === 'object' && 'error' in result) return String((result as { error: unknown }).error);
  return plainValue(result as ExcelJS.CellValue);
}

/** The formula of a cell without "=", shared formulas expanded, or undefined. */
export function formulaOf(cell: ExcelJS.Cell): string | undefined {
  const f = cell.formula;
  return f ? f.replace(/^=/, '') : undefined;
}

/**
 * Recomputes the cached result of every formula cell with the built-in evaluator, so that
 * probes see values consistent with the edits. Cells in `pinned` keep the result they were
 * given; formulas using functions the evaluator does not know keep their previous result.
 */
export function recalculate(wb: ExcelJS.Workbook, pinned: Set<string> = new Set()): void {
  const memo = new Map<string, Scalar | FormulaError>();
  const busy = new Set<string>();
  const read: CellReader = (sheetName, at: Cell) => {
    const ws = findSheet(wb, sheetName);
    if (!ws) return new FormulaError('#REF!');
    const key = `${ws.name.toLowerCase()}!${at.row},${at.col}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const cell = ws.getCell(at.row, at.col);
    const formula = formulaOf(cell);
    let v: Scalar | FormulaError;
    if (formula === undefined || pinned.has(key)) {
      const raw = formula === undefined ? cell.value : (cell.result as ExcelJS.CellValue);
      v = raw instanceof Date ? dateToSerial(raw) : formula === undefined ? plainValue(raw) : cellValue(cell);
    } else if (busy.has(key)) {
      v = new FormulaError('#CYCLE!');
    } else {
      busy.add(key);
      try {
        v = evaluate(formula, ws.name, read);
      } catch {
        v = cellValue(cell);
      }
      busy.delete(key);
      const result = isFormulaError(v) ? { error: v.code } : v;
      cell.value = { formula, result } as ExcelJS.CellFormulaValue;
    }
    memo.set(key, v);
    return v;
  };
  read.lastRow = (sheetName: string) => findSheet(wb, sheetName)?.rowCount ?? 0;
  for (const ws of wb.worksheets) {
    ws.eachRow({ includeEmpty: false }, (row) => {
      row.eachCell({ includeEmpty: false }, (cell) => {
        if (formulaOf(cell) !== undefined) read(ws.name, { row: Number(cell.row), col: Number(cell.col) });
      });
    });
  }
}

export function pinKey(sheet: string, at: Cell): string {
  return `${sheet.toLowerCase()}!${at.row},${at.col}`;
}
