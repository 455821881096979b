import { z } from 'zod';
import { type OsworldMapper, type TableRule, unmapped } from '../osworld.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

const calcCell = z.object({
  file: z.string(),
  sheet: z.string(),
  cell: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  tolerance: z.number().optional(),
  matches: z.string().optional(),
});
const calcRange = z.object({
  file: z.string(),
  sheet: z.string(),
  range: z.string(),
  values: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  tolerance: z.number().default(1e-9),
});
const calcSheetNames = z.object({ file: z.string(), names: z.array(z.string()).min(1) });

type CellValue = string | number | boolean | null;

/** check_cell's `value` rule; OSWorld reads the stored value, so dates (datetimes there) cannot match a string. */
function cellRule(sheet: string, coordinate: string, value: CellValue, tolerance: number | undefined) {
  if (typeof value === 'string' && ISO_DATE.test(value)) return undefined;
  const method = tolerance !== undefined && typeof value === 'number' ? `approx:${tolerance}` : 'eq';
  return {
    type: 'check_cell',
    sheet_idx: `RN${sheet}`,
    coordinate,
    props: { value: { method, ref: value } },
  };
}

function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function columnNumber(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
}

const MAX_RANGE_CELLS = 400;

/** A quote a person types: Calc's AutoCorrect may curl it, which check_cell's eq would not forgive. */
const TYPED_QUOTE = /['"\u2018\u2019\u201C\u201D]/;
const QUOTE_REASON =
  "the text holds a quote, which Calc's AutoCorrect curls as a person types; check_cell compares it exactly";

/** Calc checks → compare_table rules (merged per workbook by the exporter). */
export const calcOsworld: Record<string, OsworldMapper> = {
  'calc.cell_value': (check) => {
    const c = calcCell.parse(check);
    if (c.matches !== undefined) {
      return unmapped('the regex applies to the displayed text; check_cell "re" matches the stored value');
    }
    if (typeof c.value === 'string' && TYPED_QUOTE.test(c.value)) return unmapped(QUOTE_REASON);
    const rule = cellRule(c.sheet, c.cell, c.value ?? null, c.tolerance);
    if (!rule) return unmapped('a date value: OSWorld reads a datetime, which never equals the ISO string');
    return { ok: true, shape: 'table', rules: [{ file: c.file, rule, needsGold: false }] };
  },
  'calc.range_values': (check) => {
    if ((check as { titleRoom?: unknown }).titleRoom !== undefined)
      return unmapped('the block may stand lower under a title row; check_cell reads fixed cells');
    const c = calcRange.parse(check);
    if (c.values.some((row) => row.some((v) => typeof v === 'string' && TYPED_QUOTE.test(v))))
      return unmapped(QUOTE_REASON);
    const [from = '', to = from] = c.range.split(':');
    const start = /^([A-Z]+)(\d+)$/.exec(from);
    const end = /^([A-Z]+)(\d+)$/.exec(to);
    if (!start || !end) return unmapped(`range ${c.range} is not an A1 range`);
    const col0 = columnNumber(start[1] ?? '');
    const row0 = Number(start[2]);
    const rows = Number(end[2]) - row0 + 1;
    const cols = columnNumber(end[1] ?? '') - col0 + 1;
    if (rows * cols > MAX_RANGE_CELLS)
      return unmapped(`more than ${MAX_RANGE_CELLS} cells to compare one by one`);
    if (c.values.length !== rows || c.values.some((r) => r.length !== cols)) {
      return unmapped(`the expected values do not have the shape of ${c.range}`);
    }
    const rules: TableRule[] = [];
    for (const [i, row] of c.values.entries()) {
      for (const [j, value] of row.entries()) {
        const coordinate = `${columnLetters(col0 + j)}${row0 + i}`;
        const rule = cellRule(
          c.sheet,
          coordinate,
          value,
          typeof value === 'number' ? c.tolerance : undefined,
        );
        if (!rule)
          return unmapped(`a date value at ${coordinate}: OSWorld reads a datetime, not the ISO string`);
        rules.push({ file: c.file, rule, needsGold: false });
      }
    }
    return { ok: true, shape: 'table', rules };
  },
  // The oracle-solved workbook passes this check, so its sheet names are exactly the expected ones.
  'calc.sheet_names': (check) => {
    const c = calcSheetNames.parse(check);
    return {
      ok: true,
      shape: 'table',
      rules: [{ file: c.file, rule: { type: 'sheet_name' }, needsGold: true }],
    };
  },
  // The freeze rule reads the pane, which a LibreOffice save without a view (and so an agent's saved
  // file, as our round trip shows) need not keep: the oracle's own workbook scores 0 after a real save.
  'calc.freeze': () =>
    unmapped(
      'the freeze rule fails the oracle once LibreOffice has saved the workbook; the checker reads the pane',
    ),
  'calc.formula': () => unmapped('check_cell reads cell values; no OSWorld rule reads the formula text'),
  'calc.sheet_exists': () => unmapped('no compare_table rule tests one sheet for presence or absence'),
  'calc.range_sorted': () =>
    unmapped('no OSWorld rule tests sort order without comparing every value to gold'),
  'calc.no_duplicates': () => unmapped('no OSWorld rule tests for duplicate rows'),
  'calc.number_format': () =>
    unmapped('check_cell number_format compares the exact code; this check accepts a category or regex'),
  'calc.style': () =>
    unmapped('the style rule compares every styled cell with gold, a stricter test than this one'),
  'calc.chart': () =>
    unmapped('the chart rule compares all chart properties with gold, a stricter test than this one'),
  'calc.row_count': () => unmapped('no OSWorld rule counts non-empty rows'),
  'calc.conditional_format': () => unmapped('no OSWorld rule tests that a conditional format covers a range'),
  'calc.autofilter': () =>
    unmapped('the filter rule compares the whole filter state with gold, stricter than this check'),
  'calc.rows_hidden': () =>
    unmapped('row_props compares every row property with gold, stricter than this check'),
  'calc.merged': () => unmapped('no OSWorld rule tests one merged range'),
  'calc.columns_hidden': () =>
    unmapped('col_props compares every column property with gold, stricter than this check'),
  'calc.column_width': () =>
    unmapped('col_props compares exact widths with gold; this check accepts a range of widths'),
  'calc.named_range': () => unmapped('no compare_table rule reads defined names'),
  'calc.print_area': () => unmapped('no compare_table rule reads the print range'),
  'calc.validation': () =>
    unmapped('data_validation rules compare every validation property with gold; this check reads the list'),
  'calc.csv_table': () =>
    unmapped(
      'compare_csv compares the text line by line; this check accepts numbers shown with currency or separators',
    ),
};
