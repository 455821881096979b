import type { FileMap, GenericRightName } from '../types.ts';
import { labelCells, snapSheet } from './invariants.ts';
import type { CalcEdit } from './schema.ts';
import { findSheet, formulaOf, loadWorkbook } from './workbook.ts';

/** What a person types beside a result, read off the function that computes it. */
const LABELS: [RegExp, string][] = [
  [/^\s*=?\s*(SUM|SUMIFS?|SUBTOTAL)\b/i, 'Total'],
  [/^\s*=?\s*AVERAGE(IFS?)?\b/i, 'Average'],
  [/^\s*=?\s*MAX(IFS)?\b/i, 'Highest'],
  [/^\s*=?\s*MIN(IFS)?\b/i, 'Lowest'],
  [/^\s*=?\s*COUNT(A|IFS?|BLANK)?\b/i, 'Count'],
];

function labelFor(formula: string | undefined): string {
  return LABELS.find(([re]) => formula !== undefined && re.test(formula))?.[1] ?? 'Result';
}

/**
 * Generic correct alternative `calc-result-label` (Preparer.rightsBeside): the oracle's state with a
 * label ("Total", "Average"…) typed in the empty cell left of each new result, exactly where the Calc
 * invariant's label freedom allows one (labelCells), so every task that writes a result proves that
 * freedom on its own workbook. Needs the files: whether that cell is empty is the task's.
 */
export async function calcLabelRights(
  edits: CalcEdit[],
  initial: FileMap,
  solved: FileMap,
): Promise<{ name: GenericRightName; also: CalcEdit[] }[]> {
  const labels: CalcEdit[] = [];
  for (const file of new Set(edits.map((e) => e.file))) {
    if (!initial[file] || !solved[file]) continue;
    const [before, after] = await Promise.all([
      loadWorkbook(initial[file], file),
      loadWorkbook(solved[file], file),
    ]);
    const kept = before.worksheets.every((ws) => findSheet(after, ws.name));
    for (const ws of after.worksheets) {
      const was = findSheet(before, ws.name);
      // A renamed sheet is judged against its old cells; only kept and added sheets are labelled.
      if (!was && !kept) continue;
      for (const cell of labelCells(was ? snapSheet(was) : new Map(), snapSheet(ws))) {
        // The result it labels is the cell to its right.
        const at = ws.getCell(cell).fullAddress;
        const result = ws.getRow(at.row).getCell(at.col + 1);
        labels.push({ op: 'calc.set_value', file, sheet: ws.name, cell, value: labelFor(formulaOf(result)) });
      }
    }
  }
  return labels.length > 0 ? [{ name: 'calc-result-label', also: labels }] : [];
}
