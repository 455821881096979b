import type ExcelJS from 'exceljs';
import { cellsOf, parseRange } from './a1.ts';

/** Default number format of each column type. */
export const TYPE_FORMATS: Record<string, string | undefined> = {
  text: undefined,
  int: '0',
  number: '#,##0.00',
  currency: '"$"#,##0.00',
  percent: '0.0%',
  date: 'yyyy-mm-dd',
};

export function argb(hex: string): string {
  return `FF${hex.replace('#', '').toUpperCase()}`;
}

export interface StyleChange {
  bold?: boolean;
  italic?: boolean;
  fill?: string;
}

/**
 * Gives the cell a style object of its own. ExcelJS shares one style object among the loaded cells
 * of a style, so setting `numFmt` or `font` on one cell would restyle all of them (formatting
 * B2:B20 would also format B21).
 */
export function ownStyle(cell: ExcelJS.Cell): ExcelJS.Cell {
  cell.style = { ...cell.style };
  return cell;
}

export function styleRange(ws: ExcelJS.Worksheet, range: string, style: StyleChange): void {
  for (const { row, col } of cellsOf(parseRange(range))) {
    const cell = ownStyle(ws.getCell(row, col));
    if (style.bold !== undefined || style.italic !== undefined) {
      cell.font = {
        ...cell.font,
        ...(style.bold === undefined ? {} : { bold: style.bold }),
        ...(style.italic === undefined ? {} : { italic: style.italic }),
      };
    }
    if (style.fill !== undefined) {
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: argb(style.fill) } };
    }
  }
}

export function formatRange(ws: ExcelJS.Worksheet, range: string, numFmt: string): void {
  for (const { row, col } of cellsOf(parseRange(range))) ownStyle(ws.getCell(row, col)).numFmt = numFmt;
}

/** The fill colour of a cell as 6 upper-case hex digits, or undefined when it has none. */
export function fillOf(cell: ExcelJS.Cell): string | undefined {
  const fill = cell.fill;
  if (fill?.type !== 'pattern' || fill.pattern === 'none') return undefined;
  const color = fill.fgColor?.argb ?? fill.bgColor?.argb;
  return color ? color.slice(-6).toUpperCase() : undefined;
}

/** What a number format code shows, independent of how an application spells it. */
export function formatCategory(code: string | undefined): string {
  if (!code || code === 'General') return 'general';
  if (code === '@') return 'text';
  const bare = code
    .replace(/"[^"]*"/g, (q) => (/[$€£¥]/.test(q) ? '$' : ''))
    .replace(/\[\$([^\]-]*)[^\]]*\]/g, (_m, sym: string) => (sym ? '$' : ''))
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .split(';')[0];
  if (bare.includes('%')) return 'percent';
  if (/[$€£¥]/.test(bare)) return 'currency';
  if (/[ymdhs]/i.test(bare) && !/[0#]/.test(bare)) return 'date';
  if (/[0#?]\.[0#?]/.test(bare)) return 'decimal';
  if (/[0#]/.test(bare)) return 'integer';
  return 'general';
}

/** A cell's or rule's fill against the wanted one or any declared alternative shade (`fillAlso`). */
export function fillFits(got: string | null, want: string, also: readonly string[] = []): boolean {
  const norm = (h: string) => h.replace('#', '').toUpperCase();
  return got !== null && [want, ...also].some((h) => norm(h) === norm(got));
}
