import type ExcelJS from 'exceljs';
import { parseCsv } from '../csv.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import type { CalcCheck, CellValue } from './schema.ts';
import { cellValue, type Plain } from './workbook.ts';

/**
 * CSV files written from a sheet (the oracle's File > Save As > Text CSV) and read back by the
 * `calc.csv_table` check. The check compares values, not spelling: LibreOffice exports numbers
 * "as shown" by default ("$1,234.50"), a script would write 1234.5, and both are the same table.
 */

function field(v: Plain): string {
  if (v === null) return '';
  const s = typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The used range of a sheet as CSV text (comma, double quotes, LF line ends, values as stored). */
export function sheetToCsv(ws: ExcelJS.Worksheet): string {
  const rows: Plain[][] = [];
  let width = 0;
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const vals: Plain[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      vals[c - 1] = cellValue(cell);
    });
    rows[n - 1] = Array.from(vals, (v) => v ?? null);
    let w = rows[n - 1].length;
    while (w > 0 && (rows[n - 1][w - 1] === null || rows[n - 1][w - 1] === '')) w--;
    width = Math.max(width, w);
  });
  const lines = Array.from(rows, (r) =>
    Array.from({ length: width }, (_, i) => field(r?.[i] ?? null)).join(','),
  );
  while (lines.length > 0 && /^,*$/.test(lines[lines.length - 1])) lines.pop();
  return `${lines.join('\n')}\n`;
}

/** A field read as a number: currency signs, thousands separators and spaces are ignored. */
export function csvNumber(s: string): number | undefined {
  const bare = s.trim().replace(/[$€£,\s]/g, '');
  return /^-?\d+(\.\d+)?$/.test(bare) ? Number(bare) : undefined;
}

function sameField(actual: string, expected: CellValue, tolerance: number): boolean {
  if (expected === null) return actual.trim() === '';
  if (typeof expected === 'number') {
    const n = csvNumber(actual);
    return n !== undefined && Math.abs(n - expected) <= tolerance;
  }
  if (typeof expected === 'boolean') return actual.trim().toUpperCase() === (expected ? 'TRUE' : 'FALSE');
  return actual.trim() === expected.trim();
}

function trimRow<T>(row: T[], empty: (v: T) => boolean): T[] {
  let n = row.length;
  while (n > 0 && empty(row[n - 1] as T)) n--;
  return row.slice(0, n);
}

export function probeCsvTable(
  files: FileMap,
  check: Extract<CalcCheck, { kind: 'calc.csv_table' }>,
): ProbeResult {
  const bytes = files[check.path];
  if (!bytes) return { pass: false, observed: { error: `file ${check.path} does not exist` } };
  const rows = parseCsv(new TextDecoder().decode(bytes)).map((r) => trimRow(r, (v) => v.trim() === ''));
  while (rows.length > 0 && rows[rows.length - 1].length === 0) rows.pop();
  const want = check.rows.map((r) => trimRow(r, (v) => v === null || v === ''));
  const seen = { rows: rows.length, first: rows.slice(0, 3) };
  if (rows.length !== want.length) return { pass: false, observed: { ...seen, expectedRows: want.length } };
  for (const [i, row] of want.entries()) {
    const got = rows[i];
    const ok = row.length === got.length && row.every((v, j) => sameField(got[j], v, check.tolerance));
    if (!ok) return { pass: false, observed: { ...seen, row: i + 1, got, expected: row } };
  }
  return { pass: true, observed: seen };
}
