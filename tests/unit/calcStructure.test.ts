import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { calcPreparer } from '../../preparers/calc/index.ts';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import type { FileMap } from '../../preparers/types.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';

/**
 * The structure and export kinds of the Calc preparer: hidden columns, column widths, defined names,
 * print ranges, list validations, sheet order and CSV export. Each check must fail on the initial
 * workbook, pass on the oracle's, fail on a near miss, and the Python checker must say the same.
 */
const FILE = 'Documents/staff.xlsx';
const CSV = 'Shared/staff.csv';

const doc = {
  sheets: [
    {
      name: 'Staff',
      columns: [
        { header: 'Name', type: 'text' },
        { header: 'Salary', type: 'currency' },
        { header: 'Status', type: 'text' },
        { header: 'Notes', type: 'text' },
      ],
      rows: [
        ['Ann Lee', 41250.5, 'Active', 'part, time'],
        ['Bo "B" Ng', 38000, 'Leave', null],
        ['Cy Ruiz', 52000, 'Active', 'new'],
      ],
    },
    { name: 'Lists', rows: [['Active'], ['Leave'], ['Left']] },
  ],
};

const right = [
  { op: 'calc.hide_columns', file: FILE, sheet: 'Staff', columns: ['B', 'D'] },
  { op: 'calc.set_column_width', file: FILE, sheet: 'Staff', column: 'A', width: 28 },
  { op: 'calc.define_name', file: FILE, sheet: 'Staff', name: 'Salaries', range: 'B2:B4' },
  {
    op: 'calc.data_validation',
    file: FILE,
    sheet: 'Staff',
    range: 'C2:C4',
    list: ['Active', 'Leave', 'Left'],
  },
  { op: 'calc.set_print_area', file: FILE, sheet: 'Staff', range: 'A1:C4' },
  { op: 'calc.move_sheet', file: FILE, sheet: 'Lists', position: 0 },
  { op: 'calc.export_csv', file: FILE, sheet: 'Staff', to: CSV },
];

const csvRows = [
  ['Name', 'Salary', 'Status', 'Notes'],
  ['Ann Lee', 41250.5, 'Active', 'part, time'],
  ['Bo "B" Ng', 38000, 'Leave', null],
  ['Cy Ruiz', 52000, 'Active', 'new'],
];

const checks = [
  { kind: 'calc.columns_hidden', file: FILE, sheet: 'Staff', columns: ['B', 'D'] },
  { kind: 'calc.columns_hidden', file: FILE, sheet: 'Staff', columns: ['A', 'C'], hidden: false },
  { kind: 'calc.column_width', file: FILE, sheet: 'Staff', column: 'A', min: 25 },
  { kind: 'calc.named_range', file: FILE, name: 'salaries', sheet: 'Staff', range: 'B2:B4' },
  { kind: 'calc.validation', file: FILE, sheet: 'Staff', range: 'C2:C4', list: ['Left', 'Active', 'Leave'] },
  { kind: 'calc.print_area', file: FILE, sheet: 'Staff', range: 'A1:C4' },
  { kind: 'calc.sheet_names', file: FILE, names: ['Lists', 'Staff'] },
  { kind: 'calc.csv_table', path: CSV, rows: csvRows },
];

const nearMisses: { name: string; edits: unknown[]; fails: string[] }[] = [
  {
    name: 'neighbouring ranges',
    edits: [
      { op: 'calc.hide_columns', file: FILE, sheet: 'Staff', columns: ['C'] },
      { op: 'calc.define_name', file: FILE, sheet: 'Staff', name: 'Salaries', range: 'B1:B4' },
      {
        op: 'calc.data_validation',
        file: FILE,
        sheet: 'Staff',
        range: 'C1:C4',
        list: ['Active', 'Leave', 'Left'],
      },
      { op: 'calc.set_print_area', file: FILE, sheet: 'Staff', range: 'A1:D4' },
    ],
    fails: ['calc.columns_hidden', 'calc.named_range', 'calc.validation', 'calc.print_area'],
  },
  {
    name: 'short list, narrow column, CSV of the other sheet',
    edits: [
      { op: 'calc.set_column_width', file: FILE, sheet: 'Staff', column: 'A', width: 12 },
      { op: 'calc.data_validation', file: FILE, sheet: 'Staff', range: 'C2:C4', list: ['Active', 'Leave'] },
      { op: 'calc.export_csv', file: FILE, sheet: 'Lists', to: CSV },
    ],
    fails: ['calc.column_width', 'calc.validation', 'calc.csv_table'],
  },
  // The other sheets that look the salaries up cannot see the Staff sheet's own name; Staff!B2:B4
  // typed without $, used in D9, reads E10:E12.
  ...[
    { name: "the sheet's own name", scope: 'sheet' },
    { name: 'a relative reference', relative: true },
  ].map(({ name, ...how }) => ({
    name,
    edits: [{ op: 'calc.define_name', file: FILE, sheet: 'Staff', name: 'Salaries', range: 'B2:B4', ...how }],
    fails: ['calc.named_range'],
  })),
];

describe('calc structure and export kinds', () => {
  let work: string;
  let checker: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-calc-structure-'));
    checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('initial fails, oracle passes, near misses fail, and the Python checker agrees', async () => {
    const initial = await calcPreparer.build(FILE, calcPreparer.docSchema.parse(doc));
    const solved = await calcPreparer.apply(
      initial,
      right.map((e) => calcPreparer.editSchema.parse(e)),
    );
    const states: { label: string; files: FileMap }[] = [
      { label: 'initial', files: initial },
      { label: 'oracle', files: solved },
    ];
    for (const m of nearMisses)
      states.push({
        label: m.name,
        files: await calcPreparer.apply(
          initial,
          m.edits.map((e) => calcPreparer.editSchema.parse(e)),
        ),
      });
    const parsed = checks.map((c) => calcPreparer.checkSchema.parse(c));
    const ours = await Promise.all(
      states.map((s) => Promise.all(parsed.map((c) => calcPreparer.probe(s.files, c)))),
    );

    // The initial workbook: nothing is hidden or named, A keeps its default width, no CSV.
    const initialPass = parsed.filter((_, i) => ours[0]![i]!.pass).map((c) => c.kind);
    assert.deepEqual(initialPass, ['calc.columns_hidden'], 'only "A and C are visible" holds at the start');
    assert.ok(
      ours[1]!.every((v) => v.pass),
      JSON.stringify(ours[1]!.map((v, i) => [checks[i]!.kind, v])),
    );
    for (const [j, m] of nearMisses.entries()) {
      const failed = new Set<string>(parsed.filter((_, i) => !ours[j + 2]![i]!.pass).map((c) => c.kind));
      for (const k of m.fails) assert.ok(failed.has(k), `${m.name}: ${k} should fail`);
    }
    assert.equal(
      new TextDecoder().decode(solved[CSV]),
      'Name,Salary,Status,Notes\nAnn Lee,41250.5,Active,"part, time"\n"Bo ""B"" Ng",38000,Leave,\nCy Ruiz,52000,Active,new\n',
    );

    const jobs = [];
    for (const [i, s] of states.entries()) {
      const home = path.join(work, `home-${i}`);
      await materializeHome(home, s.files);
      jobs.push({ home, checks: parsed });
    }
    const python = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
    for (const [i, s] of states.entries())
      for (const [k, c] of parsed.entries())
        assert.equal(
          python[i]![k]!.pass,
          ours[i]![k]!.pass,
          `${s.label} ${c.kind}: ${JSON.stringify(python[i]![k])}`,
        );
  });

  test('a CSV exported as shown (currency, thousands separators, CRLF, BOM) is the same table', async () => {
    const shown =
      '\uFEFFName,Salary,Status,Notes\r\nAnn Lee,"$41,250.50",Active,"part, time"\r\n"Bo ""B"" Ng","$38,000.00",Leave,\r\nCy Ruiz,"$52,000.00",Active,new\r\n\r\n';
    const files = { [CSV]: new TextEncoder().encode(shown) };
    const check = calcPreparer.checkSchema.parse({ kind: 'calc.csv_table', path: CSV, rows: csvRows });
    const moved = calcPreparer.checkSchema.parse({
      kind: 'calc.csv_table',
      path: CSV,
      rows: [csvRows[0]!, csvRows[2]!, csvRows[1]!, csvRows[3]!],
    });
    const ours = [await calcPreparer.probe(files, check), await calcPreparer.probe(files, moved)];
    assert.deepEqual(
      ours.map((v) => v.pass),
      [true, false],
    );
    const home = path.join(work, 'home-shown');
    await materializeHome(home, files);
    const python = await runCheckerBatch(checker, path.join(work, 'shown.json'), [
      { home, checks: [check, moved] },
    ]);
    assert.deepEqual(
      python[0]!.map((v) => v.pass),
      [true, false],
    );
  });

  test('a number format on part of a column changes only those cells', async () => {
    const initial = await calcPreparer.build(FILE, calcPreparer.docSchema.parse(doc));
    const edit = { op: 'calc.set_number_format', file: FILE, sheet: 'Staff', range: 'B2:B3', numFmt: '0.0' };
    const solved = await calcPreparer.apply(initial, [calcPreparer.editSchema.parse(edit)]);
    const format = (range: string) =>
      calcPreparer.probe(
        solved,
        calcPreparer.checkSchema.parse({
          kind: 'calc.number_format',
          file: FILE,
          sheet: 'Staff',
          range,
          numFmt: '0.0',
        }),
      );
    assert.equal((await format('B2:B3')).pass, true);
    assert.equal(
      (await format('B4')).pass,
      false,
      'B4 shares the column style and must keep its currency format',
    );
  });

  test('bad input is refused with the field named', () => {
    assert.throws(
      () =>
        calcPreparer.editSchema.parse({
          op: 'calc.define_name',
          file: FILE,
          sheet: 'Staff',
          name: 'B2',
          range: 'A1',
        }),
      /cell reference/,
    );
    assert.throws(
      () => calcPreparer.checkSchema.parse({ kind: 'calc.csv_table', path: 'Shared/staff.xlsx', rows: [] }),
      /ending in \.csv/,
    );
    assert.throws(
      () =>
        calcPreparer.editSchema.parse({
          op: 'calc.data_validation',
          file: FILE,
          sheet: 'Staff',
          range: 'C2:C4',
          list: ['a,b'],
        }),
      /without commas/,
    );
  });
});
