import { type DiscoveryContext, located } from '../discovery.ts';
import { colToNum, parseRange } from './a1.ts';

/**
 * What a Calc check points at, for discovery. Cells are found by their addresses
 * (`cellAddresses`); a CSV export by its file name. A check on a column — the key a table is
 * sorted by, the column filtered, the columns hidden or widened, the figures a formula totals, the values a rule or a format covers — points at that
 * column, and a person names a column by its header: "total the Amount column" hands the column
 * over as surely as "B2:B20" does.
 */
export function calcTargets(check: Record<string, unknown>, ctx: DiscoveryContext): string[] {
  const out = located(check, { 'calc.csv_table': { path: 'basename' } });
  const columns = new Set<number>();
  const sheet = typeof check.sheet === 'string' ? check.sheet : undefined;
  switch (check.kind) {
    case 'calc.range_sorted':
      if (typeof check.column === 'string') columns.add(colToNum(check.column));
      break;
    case 'calc.formula':
      for (const r of Array.isArray(check.covers) ? check.covers : []) addColumn(columns, r);
      break;
    case 'calc.columns_hidden':
      // The columns to hide, not the ones that must stay on view.
      if (check.hidden !== false && Array.isArray(check.columns))
        for (const c of check.columns) if (typeof c === 'string') columns.add(colToNum(c));
      break;
    case 'calc.column_width':
      // A column to widen (a least width); one that keeps its width has a most as well.
      if (check.max === undefined && typeof check.column === 'string') columns.add(colToNum(check.column));
      break;
    case 'calc.autofilter':
      // A filter set on just the column filtered (covers): that column.
      addColumn(columns, check.covers);
      break;
    case 'calc.conditional_format':
    case 'calc.style':
    case 'calc.number_format':
      addColumn(columns, check.range);
      addColumn(columns, check.covers);
      break;
  }
  if (columns.size > 0 && sheet) out.push(...headersOf(ctx.docs, sheet, columns));
  return out;
}

/** A range down one column (two rows or more) points at that column; a row or a block does not. */
function addColumn(columns: Set<number>, ref: unknown): void {
  if (typeof ref !== 'string') return;
  let r: ReturnType<typeof parseRange>;
  try {
    r = parseRange(ref);
  } catch {
    return;
  }
  if (r.left === r.right && r.bottom > r.top) columns.add(r.left);
}

/** The row-1 headers of these columns on the sheet of that name, in any Calc document of the task. */
function headersOf(docs: unknown[], sheet: string, columns: Set<number>): string[] {
  const out: string[] = [];
  for (const doc of docs) {
    const sheets = (doc as { sheets?: unknown } | null)?.sheets;
    if (!Array.isArray(sheets)) continue;
    for (const s of sheets as { name?: unknown; columns?: { header?: unknown }[] }[]) {
      if (typeof s?.name !== 'string' || s.name.toLowerCase() !== sheet.toLowerCase()) continue;
      for (const c of columns) {
        const header = s.columns?.[c - 1]?.header;
        if (typeof header === 'string') out.push(header);
      }
    }
  }
  return out;
}
