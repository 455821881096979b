import type ExcelJS from 'exceljs';
import { regexTest } from '../sandbox/regex.ts';
import type { ProbeResult } from '../types.ts';
import { cellsOf, parseRange, type Range, rangeName, splitSheetRef } from './a1.ts';
import { functionsCalled, precedents, WHOLE_COLUMN_ROWS } from './formula.ts';
import type { CalcCheck } from './schema.ts';
import { cellValue, formulaOf } from './workbook.ts';

/**
 * A formula judged by what it means, not how it is spelt: the cell holds a formula, the formula
 * reads every cell of the intended ranges (`covers`), and calls a named function only when the
 * check asks for one. `=SUM(B2:B21)`, `=SUBTOTAL(9,B2:B21)`, `=B2+…+B21` and `=SUM(B:B)` all cover
 * B2:B21; `=SUM(12345.67)` covers nothing. The value itself is a separate `calc.cell_value` check.
 */
type FormulaCheck = Extract<CalcCheck, { kind: 'calc.formula' }>;

function contains(outer: Range, row: number, col: number): boolean {
  return row >= outer.top && row <= outer.bottom && col >= outer.left && col <= outer.right;
}

function show(r: Range): string {
  return r.bottom === WHOLE_COLUMN_ROWS
    ? `${rangeName({ ...r, bottom: r.top }).replace(/\d+/g, '')}`
    : rangeName(r);
}

export async function probeFormula(ws: ExcelJS.Worksheet, check: FormulaCheck): Promise<ProbeResult> {
  const cell = ws.getCell(check.cell);
  const formula = formulaOf(cell);
  if (formula === undefined) return { pass: false, observed: { formula: null, value: cellValue(cell) } };
  let refs: ReturnType<typeof precedents>;
  let calls: string[];
  try {
    refs = precedents(formula, ws.name);
    calls = functionsCalled(formula);
  } catch (err) {
    return { pass: false, observed: { formula, error: err instanceof Error ? err.message : String(err) } };
  }
  const problems: string[] = [];
  if (refs.length === 0) problems.push('the formula reads no cell (constants only)');
  for (const want of check.covers ?? []) {
    const { sheet, range } = splitSheetRef(want);
    const target = (sheet ?? ws.name).toLowerCase();
    const mine = refs.filter((r) => r.sheet.toLowerCase() === target).map((r) => r.range);
    const missing = [...cellsOf(parseRange(range))].filter(
      ({ row, col }) => !mine.some((r) => contains(r, row, col)),
    );
    if (missing.length > 0) problems.push(`does not read all of ${want} (${missing.length} cells missing)`);
  }
  if (check.function !== undefined && !calls.includes(check.function))
    problems.push(`does not call ${check.function}`);
  if (check.matches !== undefined && !(await regexTest(check.matches, 'i', formula)))
    problems.push(`does not match /${check.matches}/`);
  return {
    pass: problems.length === 0,
    observed: {
      formula,
      reads: refs.slice(0, 10).map((r) => `${r.sheet}!${show(r.range)}`),
      ...(problems.length > 0 ? { problems } : {}),
    },
  };
}

/** Every cell of the range holds a formula that reads some cell (and calls `function`, when given). */
export function probeFormulaRange(
  ws: ExcelJS.Worksheet,
  check: Extract<CalcCheck, { kind: 'calc.formula_range' }>,
): ProbeResult {
  const bad: unknown[] = [];
  let n = 0;
  for (const { row, col } of cellsOf(parseRange(check.range))) {
    n++;
    const cell = ws.getCell(row, col);
    const formula = formulaOf(cell);
    let ok = false;
    try {
      ok =
        formula !== undefined &&
        precedents(formula, ws.name).length > 0 &&
        (check.function === undefined || functionsCalled(formula).includes(check.function));
    } catch {
      ok = false;
    }
    if (!ok && bad.length < 8)
      bad.push({ cell: cell.address, formula: formula ?? null, value: cellValue(cell) });
    if (!ok && bad.length >= 8) break;
  }
  return { pass: bad.length === 0, observed: bad.length === 0 ? { formulas: n } : { notFormulas: bad } };
}
