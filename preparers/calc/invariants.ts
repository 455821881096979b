import type ExcelJS from 'exceljs';
import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { cellName, parseCell } from './a1.ts';
import { TITLE_ROWS } from './schema.ts';
import { fillOf, formatCategory } from './styles.ts';
import { cellValue, findSheet, formulaOf, loadWorkbook, type Plain } from './workbook.ts';

/**
 * "Nothing else changed" on a workbook. A cell's snapshot is what a reader sees: its value (a
 * formula's result), whether it is a formula, its number-format category, bold, italic and fill; defaults are left out so
 * a snapshot stays small. The check `calc.unchanged` lists the snapshot of every non-empty cell
 * of a sheet the oracle did not change, and the cells it did (`except`).
 */
export interface CellSnap {
  v: Plain;
  fmt?: string;
  bold?: true;
  italic?: true;
  fill?: string;
  /** Present (true) only when the cell holds a formula: a total typed as its value is another cell. */
  f?: true;
}

export function snapCell(cell: ExcelJS.Cell): CellSnap {
  const snap: CellSnap = { v: cellValue(cell) };
  const fmt = formatCategory(cell.numFmt);
  if (fmt !== 'general') snap.fmt = fmt;
  if (cell.font?.bold === true) snap.bold = true;
  if (cell.font?.italic === true) snap.italic = true;
  const fill = fillOf(cell);
  if (fill !== undefined) snap.fill = fill;
  if (formulaOf(cell) !== undefined) snap.f = true;
  return snap;
}

/** Every non-empty cell of the sheet, by A1 name. */
export function snapSheet(ws: ExcelJS.Worksheet): Map<string, CellSnap> {
  const out = new Map<string, CellSnap>();
  ws.eachRow({ includeEmpty: false }, (row) => {
    row.eachCell({ includeEmpty: false }, (cell) => {
      const snap = snapCell(cell);
      if (snap.v === null || snap.v === '') return;
      out.set(cellName(Number(cell.row), Number(cell.col)), snap);
    });
  });
  return out;
}

function sameValue(a: Plain, b: Plain): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  return a === b;
}

export function sameSnap(actual: CellSnap | undefined, want: CellSnap): boolean {
  if (!actual) return false;
  return (
    sameValue(actual.v, want.v) &&
    actual.fmt === want.fmt &&
    actual.bold === want.bold &&
    actual.italic === want.italic &&
    actual.fill === want.fill &&
    actual.f === want.f
  );
}

/** What a touched cell must keep: each attribute given, absent ones read as their defaults. */
export interface CellPin {
  v?: Plain;
  fmt?: string;
  bold?: boolean;
  italic?: boolean;
  fill?: string | null;
  f?: boolean;
}

/**
 * The attributes of a cell the oracle changed that it left as they were: making a title bold keeps
 * its text, italic and fill, so an italic title or a retyped one is caught. The number format is
 * kept only where the value is, because typing a value may bring its own format (a date, a %).
 */
function pinOf(was: CellSnap, now: CellSnap): CellPin {
  const pin: CellPin = {};
  const sameV = sameValue(was.v, now.v);
  if (sameV) pin.v = was.v;
  if (sameV && was.fmt === now.fmt) pin.fmt = was.fmt ?? 'general';
  if (was.bold === now.bold) pin.bold = was.bold === true;
  if (was.italic === now.italic) pin.italic = was.italic === true;
  if (was.fill === now.fill) pin.fill = was.fill ?? null;
  if (was.f === now.f) pin.f = was.f === true;
  return pin;
}

function keepsPin(got: CellSnap, pin: CellPin): boolean {
  return (
    (!('v' in pin) || sameValue(got.v, pin.v as Plain)) &&
    (pin.fmt === undefined || (got.fmt ?? 'general') === pin.fmt) &&
    (pin.bold === undefined || (got.bold === true) === pin.bold) &&
    (pin.italic === undefined || (got.italic === true) === pin.italic) &&
    (pin.fill === undefined || (got.fill ?? null) === pin.fill) &&
    (pin.f === undefined || (got.f === true) === pin.f)
  );
}

/** At most this many new results get a label cell: a filled column of results has its labels already. */
const MAX_LABELLED = 4;

/**
 * A declared freedom of every Calc task: a person who writes a result into an empty cell often types
 * a label such as "Total" in the empty cell to its left. Those cells (empty before and after the
 * oracle, beside a new number or formula the oracle wrote) may hold text; a number or formula there
 * is still a new cell, and so is anything anywhere else.
 */
export function labelCells(before: Map<string, CellSnap>, after: Map<string, CellSnap>): string[] {
  const results = [...after].filter(
    ([ref, s]) => !before.has(ref) && (typeof s.v === 'number' || s.f === true),
  );
  if (results.length === 0 || results.length > MAX_LABELLED) return [];
  const out: string[] = [];
  for (const [ref] of results) {
    const { row, col } = parseCell(ref);
    if (col < 2) continue;
    const left = cellName(row, col - 1);
    if (!before.has(left) && !after.has(left) && !out.includes(left)) out.push(left);
  }
  return out.sort();
}

/** Whether a cell outside the snapshot is a label typed where the freedom allows one. */
function isLabel(snap: CellSnap): boolean {
  return typeof snap.v === 'string' && snap.v.trim() !== '' && snap.f !== true;
}

/** Invariant checks for each workbook of the app: sheets kept, and every untouched cell kept. */
export async function calcInvariants(initial: FileMap, solved: FileMap, files: string[]): Promise<unknown[]> {
  const checks: unknown[] = [];
  for (const file of files) {
    if (!initial[file] || !solved[file]) continue;
    const [before, after] = await Promise.all([
      loadWorkbook(initial[file], file),
      loadWorkbook(solved[file], file),
    ]);
    const namesBefore = before.worksheets.map((w) => w.name);
    const namesAfter = after.worksheets.map((w) => w.name);
    // The sheets as the oracle leaves them; those it adds may be missing (the untouched workbook
    // passes), no other may appear (a second summary sheet is collateral).
    const added = namesAfter.filter((n) => !namesBefore.includes(n));
    // A sheet renamed in place (a new name where an old one is gone, at the same position) is the
    // same sheet: its cells are held under the new name, like those of any sheet the oracle keeps.
    const renamed = new Map<string, string>();
    namesAfter.forEach((n, k) => {
      const was = namesBefore[k];
      if (added.includes(n) && was !== undefined && !findSheet(after, was)) renamed.set(was, n);
    });
    if (jsonEqual(namesBefore, namesAfter))
      checks.push({ kind: 'calc.sheet_names', file, names: namesAfter });
    else if (
      renamed.size > 0 &&
      jsonEqual(
        namesBefore.map((n) => renamed.get(n) ?? n),
        namesAfter,
      )
    )
      checks.push({
        kind: 'calc.sheet_names',
        file,
        names: namesAfter,
        renamed: Object.fromEntries(renamed),
      });
    else if (
      added.length > 0 &&
      jsonEqual(
        namesBefore,
        namesAfter.filter((n) => !added.includes(n)),
      )
    )
      checks.push({ kind: 'calc.sheet_names', file, names: namesAfter, added });
    for (const ws of before.worksheets) {
      const other = findSheet(after, renamed.get(ws.name) ?? ws.name);
      if (!other) continue;
      const a = snapSheet(ws);
      const b = snapSheet(other);
      const except = new Set<string>();
      const cells: Record<string, CellSnap> = {};
      const touched: Record<string, CellPin> = {};
      for (const [ref, snap] of a) {
        const now = b.get(ref);
        if (sameSnap(now, snap)) cells[ref] = snap;
        else {
          except.add(ref);
          if (now) touched[ref] = pinOf(snap, now);
        }
      }
      for (const ref of b.keys()) if (!a.has(ref)) except.add(ref);
      const labels = labelCells(a, b);
      checks.push({
        kind: 'calc.unchanged',
        file,
        sheet: other.name,
        ...(other.name !== ws.name ? { was: ws.name } : {}),
        cells,
        except: [...except],
        ...(Object.keys(touched).length > 0 ? { touched } : {}),
        ...(labels.length > 0 ? { labels } : {}),
      });
    }
    // A sheet the oracle adds holds its cells and nothing more (a label beside a result aside).
    for (const ws of after.worksheets) {
      if (findSheet(before, ws.name) || [...renamed.values()].includes(ws.name)) continue;
      const b = snapSheet(ws);
      const labels = labelCells(new Map(), b);
      checks.push({
        kind: 'calc.unchanged',
        file,
        sheet: ws.name,
        cells: {},
        except: [...b.keys()],
        ...(labels.length > 0 ? { labels } : {}),
        newSheet: true,
      });
    }
  }
  return checks;
}

/**
 * `calc.unchanged`: every listed cell shows the same snapshot; no other cell outside `except` holds
 * anything but a text label in one of `labels`.
 */
export function probeUnchanged(
  ws: ExcelJS.Worksheet,
  check: {
    cells: Record<string, CellSnap>;
    except: string[];
    touched?: Record<string, CellPin>;
    labels?: string[];
    newSheet?: boolean;
  },
): ProbeResult {
  const now = snapSheet(ws);
  const except = new Set(check.except.map((r) => r.toUpperCase()));
  const changed: unknown[] = [];
  let count = 0;
  // Cells in sorted order, as the checker walks them: what it observes does not depend on how the
  // payload's keys were ordered (a stored package has them sorted).
  for (const [ref, want] of Object.entries(check.cells).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const got = now.get(ref) ?? { v: null };
    if (!sameSnap(got, want)) {
      count++;
      if (changed.length < 8) changed.push({ cell: ref, was: want, now: got });
    }
  }
  const byRef = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
  for (const [ref, pin] of Object.entries(check.touched ?? {}).sort(byRef)) {
    const got = now.get(ref) ?? { v: null };
    if (!keepsPin(got, pin)) {
      count++;
      if (changed.length < 8) changed.push({ cell: ref, was: pin, now: got });
    }
  }
  const labels = new Set(check.labels ?? []);
  // On a sheet the task adds, what it writes may stand lower under a title or header row of text
  // (schema.ts titleRoom): the whole block pushed down k rows, the k rows above it text.
  const top = Math.min(...[...except].map((r) => parseCell(r).row));
  const addedAt = (k: number) =>
    [...now].flatMap(([ref, snap]) => {
      if (ref in check.cells) return [];
      const { row, col } = parseCell(ref);
      const up = row - k >= 1 ? cellName(row - k, col) : '';
      if (except.has(up) || (labels.has(up) && isLabel(snap))) return [];
      return row >= top && row < top + k && isLabel(snap) ? [] : [ref];
    });
  let added = addedAt(0);
  for (let k = 1; added.length > 0 && check.newSheet && k <= TITLE_ROWS; k++)
    if (addedAt(k).length === 0) added = [];
  return {
    pass: count === 0 && added.length === 0,
    observed:
      count === 0 && added.length === 0
        ? { kept: Object.keys(check.cells).length }
        : { changed: count, examples: changed, newCells: added.slice(0, 12) },
  };
}

export { loadWorkbook };
