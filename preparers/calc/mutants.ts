import type ExcelJS from 'exceljs';
import type { FileMap } from '../types.ts';
import { cellName, parseRange, rangeName } from './a1.ts';
import { applyCalcEdits } from './apply.ts';
import { precedents } from './formula.ts';
import type { CalcEdit } from './schema.ts';
import { cellValue, findSheet, loadWorkbook, type Plain } from './workbook.ts';

type Mutant = { name: string; edit?: number; edits: CalcEdit[] };

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
    // The neighbouring sheet (the next one, else the previous one).
    if ('sheet' in edit && edit.op !== 'calc.add_sheet') {
      const wb = await workbookAfter(initial, edits, i, edit.file);
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
