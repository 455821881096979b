import type ExcelJS from 'exceljs';
import type { FileMap } from '../types.ts';
import { cellName, colToNum, parseRange, type Range, rangeName } from './a1.ts';
import { applyCalcEdits } from './apply.ts';
import { precedents } from './formula.ts';
import type { CalcEdit } from './schema.ts';
import { cellValue, findSheet, loadWorkbook, type Plain } from './workbook.ts';

type Mutant = { name: string; edit?: number; edits: CalcEdit[]; also?: CalcEdit[] };

/** The sheet an edit acts on (a chart names it inside), or undefined. */
function sheetOf(edit: CalcEdit): string | undefined {
  if ('sheet' in edit) return edit.sheet;
  if (edit.op === 'calc.add_chart') return edit.chart.sheet;
  return undefined;
}

/** Where an edit lands on its sheet: its cells, ranges, columns and rows (a chart's data too). */
function areasOf(edit: CalcEdit): { sheet: string; area: Range }[] {
  const sheet = sheetOf(edit);
  if (sheet === undefined) return [];
  // A sort moves the rows under its header; the header row stays where it is.
  if (edit.op === 'calc.sort_range') {
    const r = parseRange(edit.range);
    return [{ sheet: sheet.toLowerCase(), area: edit.header === false ? r : { ...r, top: r.top + 1 } }];
  }
  const out: Range[] = [];
  const fields = edit.op === 'calc.add_chart' ? { ...edit.chart } : { ...edit };
  for (const [key, v] of Object.entries(fields))
    for (const ref of typeof v === 'string' ? [v] : Array.isArray(v) ? v : []) {
      if (typeof ref !== 'string') continue;
      try {
        if (key === 'column')
          out.push({ top: 1, bottom: 1_048_576, left: colToNum(ref), right: colToNum(ref) });
        else if (/^(cell|toCell|range|covers|values|categories|within|autoFilter)$/.test(key))
          out.push(parseRange(ref));
      } catch {}
    }
  // A block written from its top-left cell covers as many rows and columns as it holds.
  const block = 'values' in edit ? edit.values : 'formulas' in edit ? edit.formulas : undefined;
  if ('cell' in edit && Array.isArray(block) && block.every(Array.isArray)) {
    const at = parseRange(edit.cell);
    const width = Math.max(1, ...block.map((r) => (r as unknown[]).length));
    out.push({ ...at, bottom: at.top + block.length - 1, right: at.left + width - 1 });
  }
  if ('row' in edit && typeof edit.row === 'number')
    out.push({
      top: edit.row,
      bottom: edit.row + ('count' in edit && typeof edit.count === 'number' ? edit.count : 1),
      left: 1,
      right: 16_384,
    });
  return out.map((area) => ({ sheet: sheet.toLowerCase(), area }));
}

/** Edits that leave every cell's value as it was. */
const KEEPS_VALUES = new Set<string>([
  'calc.set_number_format',
  'calc.set_style',
  'calc.freeze_panes',
  'calc.add_chart',
  'calc.autofilter',
  'calc.filter',
  'calc.conditional_format',
  'calc.set_column_width',
  'calc.hide_columns',
  'calc.define_name',
  'calc.data_validation',
  'calc.set_print_area',
]);

const inside = (r: Range, row: number, col: number) =>
  row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;

/** A typed value, not a formula and not empty. */
function typedValue(cell: ExcelJS.Cell): string | number | undefined {
  if (cell.formula) return undefined;
  const v = cellValue(cell);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * A value typed over near the edit, where the task leaves it alone: on the edit's sheet outside
 * every cell the task's edits write, move or clear, else (a table the edit rewrites whole, as
 * removing duplicates does) a cell of it that reads the same once the edit is made (`after`), never
 * one another edit writes; else on another sheet (the data sheet a formula's range was picked on).
 * The stray keystroke only the "nothing else changed" check can see.
 */
function collateral(
  edits: CalcEdit[],
  i: number,
  wb: ExcelJS.Workbook | undefined,
  after?: ExcelJS.Workbook,
): CalcEdit | undefined {
  const edit = edits[i]!;
  const sheet = sheetOf(edit);
  const own = wb && sheet !== undefined ? findSheet(wb, sheet) : undefined;
  if (!wb || !own) return undefined;
  // Cells an edit writes, moves or clears are the task's; those it only formats, filters, names
  // or charts keep their values, so one typed over there is damage too.
  const areas = (ws: ExcelJS.Worksheet, which: (k: number) => boolean) =>
    edits
      .filter((e, k) => which(k) && !KEEPS_VALUES.has(e.op))
      .flatMap(areasOf)
      .filter((a) => a.sheet === ws.name.toLowerCase())
      .map((a) => a.area);
  const at = areasOf(edit)[0]?.area ?? { top: 1, left: 1, bottom: 1, right: 1 };
  const nearest = (ws: ExcelJS.Worksheet, spared: (r: number, c: number, v: string | number) => boolean) => {
    let best: { row: number; col: number; value: string | number; d: number } | undefined;
    ws.eachRow((row, r) =>
      row.eachCell((cell, c) => {
        const v = typedValue(cell);
        if (v === undefined || !spared(r, c, v)) return;
        const d = Math.abs(r - at.top) + Math.abs(c - at.left);
        if (!best || d < best.d) best = { row: r, col: c, value: v, d };
      }),
    );
    return best && { ws, ...best };
  };
  const untouched = (ws: ExcelJS.Worksheet) => {
    const all = areas(ws, () => true);
    return (r: number, c: number) => !all.some((a) => inside(a, r, c));
  };
  const then = after && findSheet(after, own.name);
  const others = areas(own, (k) => k !== i);
  const best =
    (then
      ? nearest(
          own,
          (r, c, v) => typedValue(then.getCell(r, c)) === v && !others.some((a) => inside(a, r, c)),
        )
      : nearest(own, untouched(own))) ??
    wb.worksheets
      .filter((ws) => ws !== own)
      .reduce<ReturnType<typeof nearest>>((found, ws) => found ?? nearest(ws, untouched(ws)), undefined);
  if (!best) return undefined;
  const { ws, row, col, value } = best;
  const typed = typeof value === 'number' ? value + 1 : value.length > 1 ? value.slice(0, -1) : `${value}x`;
  return { op: 'calc.set_value', file: edit.file, sheet: ws.name, cell: cellName(row, col), value: typed };
}

/** The workbook of `file` once the edits up to `upto` (exclusive) are applied, or undefined. */
async function workbookAfter(
  initial: FileMap,
  edits: CalcEdit[],
  upto: number,
  file: string,
): Promise<ExcelJS.Workbook | undefined> {
  try {
    const files = await applyCalcEdits(initial, edits.slice(0, upto));
    const bytes = files[file];
    return bytes ? await loadWorkbook(bytes, file) : undefined;
  } catch {
    return undefined;
  }
}

/** A computed result a person could type: a finite number, a text, a boolean (not an error, not empty). */
function typable(v: Plain): v is string | number | boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return v !== '' && !v.startsWith('#');
  return typeof v === 'boolean';
}

function literal(n: number): string {
  return String(Math.round(n * 1e9) / 1e9);
}

/**
 * Calc near misses beyond the generic field mutations: a formula typed as the value it computes
 * (the results read from the oracle's own state), a formula that reads one real cell plus a typed
 * constant giving the same value, a fill dragged one row too far (over the cell below), and the
 * edit made on the neighbouring sheet.
 */
export async function calcMutants(edits: CalcEdit[], initial: FileMap): Promise<Mutant[]> {
  const out: Mutant[] = [];
  for (const [i, edit] of edits.entries()) {
    const swap = (e: CalcEdit) => edits.map((x, k) => (k === i ? e : x));
    if (edit.op === 'calc.set_formula' || edit.op === 'calc.fill_formula') {
      const wb = await workbookAfter(initial, edits, i + 1, edit.file);
      const ws = wb && findSheet(wb, edit.sheet);
      if (ws) {
        const r = parseRange(edit.op === 'calc.set_formula' ? edit.cell : edit.range);
        const values: Plain[][] = [];
        for (let row = r.top; row <= r.bottom; row++) {
          const line: Plain[] = [];
          for (let col = r.left; col <= r.right; col++) line.push(cellValue(ws.getCell(row, col)));
          values.push(line);
        }
        const first = values[0]![0]!;
        if (values.every((line) => line.every(typable))) {
          const at = cellName(r.top, r.left);
          out.push({
            name: `${edit.op} #${i + 1} typed as its value${values.flat().length > 1 ? 's' : ''} (${JSON.stringify(first)}…)`,
            edit: i,
            edits: swap(
              values.length === 1 && values[0]!.length === 1
                ? { op: 'calc.set_value', file: edit.file, sheet: edit.sheet, cell: at, value: first }
                : { op: 'calc.set_values', file: edit.file, sheet: edit.sheet, cell: at, values },
            ),
          });
        }
        // One real cell plus a constant: the same number, computed from almost nothing.
        if (edit.op === 'calc.set_formula' && typeof first === 'number' && Number.isFinite(first)) {
          let ref: string | undefined;
          try {
            const own = precedents(edit.formula.replace(/^=/, ''), ws.name).find(
              (p) => p.sheet.toLowerCase() === ws.name.toLowerCase(),
            );
            if (own) ref = cellName(own.range.top, own.range.left);
          } catch {
            ref = undefined;
          }
          const seen = ref === undefined ? undefined : cellValue(ws.getCell(ref));
          if (ref !== undefined && typeof seen === 'number' && Number.isFinite(seen)) {
            const rest = first - seen;
            const formula = `${ref}${rest < 0 ? '-' : '+'}${literal(Math.abs(rest))}`;
            out.push({
              name: `${edit.op} #${i + 1} as =${formula} (one cell plus a typed constant)`,
              edit: i,
              edits: swap({
                op: 'calc.set_formula',
                file: edit.file,
                sheet: edit.sheet,
                cell: edit.cell,
                formula,
              }),
            });
          }
        }
        // A fill dragged one row too far.
        if (edit.op === 'calc.fill_formula' && r.bottom > r.top)
          out.push({
            name: `${edit.op} #${i + 1} filled one row too far (to row ${r.bottom + 1})`,
            edit: i,
            edits: swap({ ...edit, range: rangeName({ ...r, bottom: r.bottom + 1 }) }),
          });
      }
    }
    // The neighbouring column formatted: the one to the left (a data column), else to the right.
    if (edit.op === 'calc.set_number_format' || edit.op === 'calc.set_style') {
      const r = parseRange(edit.range);
      const by = r.left > 1 ? -1 : 1;
      const moved = rangeName({ ...r, left: r.left + by, right: r.right + by });
      out.push({
        name: `${edit.op} #${i + 1} on ${moved} instead of ${edit.range} (the neighbouring column)`,
        edit: i,
        edits: swap({ ...edit, range: moved }),
      });
    }
    if (edit.op === 'calc.add_sheet')
      out.push({
        name: `${edit.op} #${i + 1} and a second sheet "${edit.sheet} (2)" (a sheet not asked for)`,
        edit: i,
        edits,
        also: [{ ...edit, sheet: `${edit.sheet} (2)` }],
      });
    if (sheetOf(edit) !== undefined && edit.op !== 'calc.add_sheet') {
      const wb = await workbookAfter(initial, edits, i, edit.file);
      const stray =
        collateral(edits, i, wb) ??
        (KEEPS_VALUES.has(edit.op)
          ? undefined
          : collateral(edits, i, wb, await workbookAfter(initial, edits, i + 1, edit.file)));
      // After a rename the stray keystroke lands on the sheet under its new name.
      if (stray?.op === 'calc.set_value' && edit.op === 'calc.rename_sheet' && stray.sheet === edit.sheet)
        stray.sheet = edit.to;
      if (stray?.op === 'calc.set_value')
        out.push({
          name: `${edit.op} #${i + 1} and ${stray.cell} on ${stray.sheet} typed over (a cell the task leaves alone)`,
          edit: i,
          edits,
          also: [stray],
        });
      if (!('sheet' in edit)) continue;
      // The neighbouring sheet (the next one, else the previous one).
      const names = wb?.worksheets.map((w) => w.name) ?? [];
      const k = names.findIndex((n) => n.toLowerCase() === edit.sheet.toLowerCase());
      const other = k < 0 ? undefined : (names[k + 1] ?? names[k - 1]);
      if (other !== undefined)
        out.push({
          name: `${edit.op} #${i + 1} on the sheet ${other} instead of ${edit.sheet}`,
          edit: i,
          edits: swap({ ...edit, sheet: other } as CalcEdit),
        });
    }
  }
  return out;
}
