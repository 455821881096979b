import type ExcelJS from 'exceljs';
import { asTyped } from '../office/asTyped.ts';
import { cellName, parseCell, parseRange, rangeName } from './a1.ts';
import type { TitleRoom } from './schema.ts';
import { cellValue, formulaOf } from './workbook.ts';

/**
 * How many rows a title or header pushed the block of a check with `titleRoom` down (checker.py
 * title_shift agrees): the first k ≤ rows at which the first label stands, k rows below its place,
 * when the k rows above it hold only text; 0 otherwise (the block is read where it was asked).
 */
export function titleShift(ws: ExcelJS.Worksheet, room: TitleRoom | undefined): number {
  if (!room) return 0;
  const { row, col } = parseCell(room.label);
  const want = asTyped(room.text).trim();
  for (let k = 0; k <= room.rows; k++) {
    const v = cellValue(ws.getCell(row + k, col));
    if (typeof v !== 'string' || asTyped(v).trim() !== want) continue;
    let textOnly = true;
    for (let r = row; r < row + k; r++)
      ws.getRow(r).eachCell((cell) => {
        if (formulaOf(cell) !== undefined || typeof cellValue(cell) === 'number') textOnly = false;
      });
    return textOnly ? k : 0;
  }
  return 0;
}

/** The check with its cell or range read `k` rows down. */
export function shiftedDown<C extends { cell?: string; range?: string }>(check: C, k: number): C {
  if (k === 0) return check;
  const down = (ref: string) => {
    const { row, col } = parseCell(ref);
    return cellName(row + k, col);
  };
  const out = { ...check };
  if (check.cell !== undefined) out.cell = down(check.cell);
  if (check.range !== undefined) {
    const r = parseRange(check.range);
    out.range = rangeName({ ...r, top: r.top + k, bottom: r.bottom + k });
  }
  return out;
}

/** The check read where its block stands: as many rows down as a title pushed it (none without titleRoom). */
export function titled<C extends { cell?: string; range?: string; titleRoom?: TitleRoom }>(
  ws: ExcelJS.Worksheet,
  check: C,
): C {
  return shiftedDown(check, titleShift(ws, check.titleRoom));
}

/** The rows a title or header pushed in above the block (not counted as the block's rows). */
export function pushedRows(ws: ExcelJS.Worksheet, room: TitleRoom | undefined): Set<number> {
  const k = titleShift(ws, room);
  const top = room ? parseCell(room.label).row : 0;
  return new Set(Array.from({ length: k }, (_, i) => top + i));
}
