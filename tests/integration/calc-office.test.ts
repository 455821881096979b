import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type CalcCheck, type CalcEdit, calcDocSchema, calcPreparer } from '../../preparers/calc/index.ts';
import { closeOffice, convertToPdfSettled, roundTripOffice } from '../../preparers/office/index.ts';
import type { FileMap } from '../../preparers/types.ts';

const FILE = 'Documents/sales.xlsx';

const doc = calcDocSchema.parse({
  sheets: [
    {
      name: 'Q1 Sales',
      columns: [
        { header: 'Region', type: 'text', width: 14 },
        { header: 'Units', type: 'int' },
        { header: 'Price', type: 'currency' },
        { header: 'Day', type: 'date' },
      ],
      rows: [
        ['North', 12, 3.5, '2024-01-05'],
        ['South', 7, 4.25, '2024-01-09'],
        ['West', 20, 2.75, '2024-02-01'],
        ['South', 7, 4.25, '2024-01-09'],
        ['East', 3, 10, '2024-03-12'],
      ],
      // A deliberately wrong cached result: LibreOffice must replace it with its own.
      formulas: [{ cell: 'B8', formula: 'SUM(B2:B6)', result: 999 }],
      freeze: { rows: 1, cols: 0 },
      autoFilter: 'A1:D6',
      styles: [{ range: 'A2:A6', fill: 'DDEBF7' }],
      merges: ['F1:G1'],
    },
    { name: 'Notes', rows: [['checked by', 'ops']] },
  ],
  charts: [
    { sheet: 'Q1 Sales', type: 'bar', title: 'Units by region', categories: 'A2:A6', values: ['B2:B6'] },
  ],
});

const edits: CalcEdit[] = [
  { op: 'calc.remove_duplicates', sheet: 'Q1 Sales', range: 'A1:D6' },
  { op: 'calc.sort_range', sheet: 'Q1 Sales', range: 'A1:D6', column: 'B', direction: 'asc' },
  { op: 'calc.fill_formula', sheet: 'Q1 Sales', range: 'E2:E5', formula: 'B2*C2' },
  { op: 'calc.set_formula', sheet: 'Q1 Sales', cell: 'E8', formula: 'ROUND(AVERAGE(E2:E5),2)' },
  {
    op: 'calc.set_formula',
    sheet: 'Q1 Sales',
    cell: 'F8',
    formula: 'COUNTIF(A2:A5,"South")+SUMIF(A2:A5,"West",B2:B5)',
  },
  {
    op: 'calc.set_formula',
    sheet: 'Notes',
    cell: 'A3',
    formula: 'VLOOKUP("East",\'Q1 Sales\'!A2:C5,3,FALSE)',
  },
  { op: 'calc.set_number_format', sheet: 'Q1 Sales', range: 'E2:E5', numFmt: '"$"#,##0.00' },
  { op: 'calc.set_style', sheet: 'Q1 Sales', range: 'E1:E1', bold: true, fill: 'FFEB9C' },
  { op: 'calc.rename_sheet', sheet: 'Notes', to: 'Summary' },
  { op: 'calc.add_sheet', sheet: 'Archive', position: 0 },
  { op: 'calc.copy_range', sheet: 'Q1 Sales', range: 'A1:B5', toSheet: 'Archive', toCell: 'A1' },
  {
    op: 'calc.add_chart',
    chart: { sheet: 'Q1 Sales', type: 'pie', title: 'Share', categories: 'A2:A5', values: ['E2:E5'] },
  },
  {
    op: 'calc.conditional_format',
    sheet: 'Q1 Sales',
    range: 'B2:B5',
    rule: { operator: 'greaterThan', values: [10], fill: 'FFC7CE' },
  },
  { op: 'calc.filter', sheet: 'Q1 Sales', range: 'A1:D5', column: 'B', keep: { greaterThan: 5 } },
  { op: 'calc.freeze_panes', sheet: 'Q1 Sales', rows: 1, cols: 1 },
].map((e) => calcPreparer.editSchema.parse({ file: FILE, ...e }));

const checks: CalcCheck[] = [
  { kind: 'calc.cell_value', sheet: 'Q1 Sales', cell: 'B8', value: 42 },
  { kind: 'calc.cell_value', sheet: 'Q1 Sales', cell: 'E8', value: 39.19, tolerance: 0.001 },
  { kind: 'calc.cell_value', sheet: 'Q1 Sales', cell: 'F8', value: 21 },
  { kind: 'calc.cell_value', sheet: 'Summary', cell: 'A3', value: 10 },
  { kind: 'calc.cell_value', sheet: 'Q1 Sales', cell: 'D2', matches: '^2024-03-12$' },
  { kind: 'calc.formula', sheet: 'Q1 Sales', cell: 'E3', matches: '^B3\\*C3$' },
  { kind: 'calc.range_sorted', sheet: 'Q1 Sales', range: 'A1:D5', column: 'B' },
  { kind: 'calc.no_duplicates', sheet: 'Q1 Sales', range: 'A1:D6' },
  { kind: 'calc.sheet_names', names: ['Archive', 'Q1 Sales', 'Summary'] },
  { kind: 'calc.sheet_exists', sheet: 'Notes', exists: false },
  { kind: 'calc.number_format', sheet: 'Q1 Sales', range: 'E2:E5', category: 'currency' },
  { kind: 'calc.style', sheet: 'Q1 Sales', range: 'E1', bold: true, fill: 'FFEB9C' },
  {
    kind: 'calc.chart',
    sheet: 'Q1 Sales',
    type: 'pie',
    title: 'Share',
    values: 'E2:E5',
    categories: 'A2:A5',
  },
  { kind: 'calc.chart', sheet: 'Q1 Sales', count: 2 },
  { kind: 'calc.freeze', sheet: 'Q1 Sales', rows: 1, cols: 1 },
  { kind: 'calc.row_count', sheet: 'Archive', count: 5 },
  {
    kind: 'calc.range_values',
    sheet: 'Archive',
    range: 'A1:B2',
    values: [
      ['Region', 'Units'],
      ['East', 3],
    ],
  },
  { kind: 'calc.conditional_format', sheet: 'Q1 Sales', range: 'B2:B5' },
  { kind: 'calc.autofilter', sheet: 'Q1 Sales', range: 'A1:D5' },
  { kind: 'calc.rows_hidden', sheet: 'Q1 Sales', rows: [2], hidden: true },
  { kind: 'calc.merged', sheet: 'Q1 Sales', range: 'F1:G1' },
].map((c) => calcPreparer.checkSchema.parse({ file: FILE, ...c }));

async function verdicts(files: FileMap): Promise<Record<string, unknown>[]> {
  return Promise.all(checks.map(async (c) => ({ check: c, ...(await calcPreparer.probe(files, c)) })));
}

describe('calc through the real LibreOffice', () => {
  after(closeOffice);

  test('build and oracle files open, convert to PDF, and keep their verdicts after a LibreOffice save', async () => {
    const initial = await calcPreparer.build(FILE, doc);
    const solved = await calcPreparer.apply(initial, edits);
    const solvedVerdicts = await verdicts(solved);
    for (const v of solvedVerdicts) assert.equal(v.pass, true, `oracle state: ${JSON.stringify(v)}`);

    const pdfs = await convertToPdfSettled([
      { name: 'initial', bytes: initial[FILE], format: 'xlsx' },
      { name: 'solved', bytes: solved[FILE], format: 'xlsx' },
    ]);
    for (const p of pdfs) {
      assert.ok(p.ok, p.ok ? '' : p.error);
      assert.equal(Buffer.from(p.bytes.subarray(0, 5)).toString(), '%PDF-');
    }

    const [initialLo, solvedLo] = await roundTripOffice([
      { name: 'initial', bytes: initial[FILE], format: 'xlsx' },
      { name: 'solved', bytes: solved[FILE], format: 'xlsx' },
    ]);
    // LibreOffice recalculated: the wrong cached 999 became its own 49, and our evaluator agrees with it.
    const recalculated = await calcPreparer.probe({ [FILE]: initialLo }, checks[0]);
    assert.deepEqual(recalculated.observed, { value: 49, formula: 'SUM(B2:B6)' });
    const after = await verdicts({ [FILE]: solvedLo });
    // Every check, frozen panes included: the bridge loads a workbook with view settings with a view.
    for (const v of after) assert.equal(v.pass, true, `after LibreOffice save: ${JSON.stringify(v)}`);
    const initialAfter = await verdicts({ [FILE]: initialLo });
    const initialBefore = await verdicts(initial);
    // The initial's own freeze (row 1 only) survives too: the freeze check fails it before and after.
    assert.deepEqual(initialAfter[14].observed, { rows: 1, cols: 0 });
    initialBefore.forEach((v, i) => {
      assert.equal(
        initialAfter[i].pass,
        v.pass,
        `initial verdict changed: ${JSON.stringify([v, initialAfter[i]])}`,
      );
    });
    // Charts written by LibreOffice survive our own apply (read back, rewritten).
    const again = await calcPreparer.apply({ [FILE]: solvedLo }, [
      calcPreparer.editSchema.parse({
        op: 'calc.set_value',
        file: FILE,
        sheet: 'Summary',
        cell: 'B5',
        value: 'ok',
      }),
    ]);
    assert.equal((await calcPreparer.probe(again, checks[12])).pass, true);
    const [pdf] = await convertToPdfSettled([{ name: 'again', bytes: again[FILE], format: 'xlsx' }]);
    assert.ok(pdf.ok);
  });
});

describe('sheet names with $ and quotes through the real LibreOffice', () => {
  after(closeOffice);

  // `$'`, `$&` and `` $` `` are replacement patterns of String.replace: once they spliced the rest
  // of workbook.xml into the autofilter's defined name.
  const names = ['Q3 $ costs', 'Q3 costs$', 'Travel $& meals'];
  const dollarDoc = calcDocSchema.parse({
    sheets: [
      ...names.map((name) => ({
        name,
        columns: [
          { header: 'Item', type: 'text' },
          { header: 'Cost', type: 'currency' },
        ],
        rows: [
          ['Paper', 12],
          ['Ink', 30],
        ],
        autoFilter: 'A1:B3',
      })),
      { name: 'Totals', rows: [['all']] },
    ],
    charts: [{ sheet: 'Q3 costs$', type: 'col', title: 'Costs', categories: 'A2:A3', values: ['B2:B3'] }],
  });
  const FILE_Q3 = 'Documents/q3.xlsx';
  const q3Edits = [
    {
      op: 'calc.set_formula',
      sheet: 'Totals',
      cell: 'B1',
      formula: "SUM('Q3 $ costs'!B2:B3)+SUM('Q3 costs$'!B2:B3)",
    },
    { op: 'calc.rename_sheet', sheet: 'Q3 $ costs', to: "Q3 $' spend" },
  ].map((e) => calcPreparer.editSchema.parse({ file: FILE_Q3, ...e }));
  const q3Checks = [
    { kind: 'calc.sheet_names', names: ["Q3 $' spend", 'Q3 costs$', 'Travel $& meals', 'Totals'] },
    { kind: 'calc.cell_value', sheet: 'Totals', cell: 'B1', value: 84 },
    { kind: 'calc.formula', sheet: 'Totals', cell: 'B1', matches: "'Q3 \\$'' spend'!B2:B3" },
    { kind: 'calc.autofilter', sheet: 'Q3 costs$', range: 'A1:B3' },
    { kind: 'calc.autofilter', sheet: 'Travel $& meals', range: 'A1:B3' },
    { kind: 'calc.chart', sheet: 'Q3 costs$', count: 1 },
  ].map((c) => calcPreparer.checkSchema.parse({ file: FILE_Q3, ...c }));

  test('a workbook whose sheet names hold $ builds, probes, converts and round-trips', async () => {
    const initial = await calcPreparer.build(FILE_Q3, dollarDoc);
    const solved = await calcPreparer.apply(initial, q3Edits);
    for (const c of q3Checks) {
      const v = await calcPreparer.probe(solved, c);
      assert.equal(v.pass, true, `ours: ${JSON.stringify({ c, v })}`);
    }
    const pdfs = await convertToPdfSettled([
      { name: 'initial', bytes: initial[FILE_Q3], format: 'xlsx' },
      { name: 'solved', bytes: solved[FILE_Q3], format: 'xlsx' },
    ]);
    for (const p of pdfs) assert.ok(p.ok, p.ok ? '' : p.error);
    const [saved] = await roundTripOffice([{ name: 'solved', bytes: solved[FILE_Q3], format: 'xlsx' }]);
    for (const c of q3Checks) {
      const v = await calcPreparer.probe({ [FILE_Q3]: saved }, c);
      assert.equal(v.pass, true, `after LibreOffice save: ${JSON.stringify({ c, v })}`);
    }
  });
});
