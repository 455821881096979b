/** A1-style reference arithmetic (1-based rows and columns). */

export interface Cell {
  row: number;
  col: number;
}

export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function colToNum(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function numToCol(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

export function parseCell(ref: string): Cell {
  const m = /^\$?([A-Z]{1,3})\$?([0-9]+)$/i.exec(ref.trim());
  if (!m) throw new Error(`not a cell reference: ${ref}`);
  return { row: Number(m[2]), col: colToNum(m[1]) };
}

export function parseRange(ref: string): Range {
  const [a, b = a] = ref.split(':');
  const p = parseCell(a);
  const q = parseCell(b);
  return {
    top: Math.min(p.row, q.row),
    left: Math.min(p.col, q.col),
    bottom: Math.max(p.row, q.row),
    right: Math.max(p.col, q.col),
  };
}

export function cellName(row: number, col: number): string {
  return `${numToCol(col)}${row}`;
}

export function rangeName(r: Range): string {
  const a = cellName(r.top, r.left);
  const b = cellName(r.bottom, r.right);
  return a === b ? a : `${a}:${b}`;
}

/** Every cell of a range, row by row. */
export function* cellsOf(r: Range): Generator<Cell> {
  for (let row = r.top; row <= r.bottom; row++)
    for (let col = r.left; col <= r.right; col++) yield { row, col };
}

/** Quotes a sheet name for a formula or chart reference when it needs it. */
export function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** `Sheet!$A$2:$A$9` (absolute), as charts store references. */
export function absoluteRef(sheet: string, r: Range): string {
  const a = `$${numToCol(r.left)}$${r.top}`;
  const b = `$${numToCol(r.right)}$${r.bottom}`;
  return `${quoteSheet(sheet)}!${a === b ? a : `${a}:${b}`}`;
}

/** Splits `'My sheet'!$A$2:$A$9` into sheet and a plain range name (`A2:A9`). */
export function splitSheetRef(ref: string): { sheet: string | undefined; range: string } {
  const m = /^(?:'((?:[^']|'')+)'|([^!]+))!(.+)$/.exec(ref.trim());
  const raw = m ? m[3] : ref.trim();
  const sheet = m ? (m[1]?.replace(/''/g, "'") ?? m[2]) : undefined;
  return { sheet, range: rangeName(parseRange(raw.replace(/\$/g, ''))) };
}
