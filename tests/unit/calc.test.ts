import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { evaluate, type Scalar, shiftFormula } from '../../preparers/calc/formula.ts';
import {
  type CalcCheck,
  type CalcDocInput,
  type CalcEdit,
  calcDocSchema,
  calcPreparer,
} from '../../preparers/calc/index.ts';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { assertVerdicts, materializeHome, runCheckerBatch, shippedVerdicts } from '../support/checkerHome.ts';

const FILE = 'Desktop/budget.xlsx';

const doc: CalcDocInput = {
  sheets: [
    {
      name: 'Sales',
      columns: [
        { header: 'Region', type: 'text' },
        { header: 'Amount', type: 'currency' },
        { header: 'Date', type: 'date' },
      ],
      rows: [
        ['North', 120, '2024-01-05'],
        ['South', 80.5, '2024-02-10'],
        ['North', 120, '2024-01-05'],
        ['East', 200, '2024-03-15'],
      ],
    },
  ],
  charts: [{ sheet: 'Sales', type: 'col', title: 'By region', categories: 'A2:A5', values: ['B2:B5'] }],
};

async function probe(files: Record<string, Uint8Array>, check: Record<string, unknown>) {
  return calcPreparer.probe(files, calcPreparer.checkSchema.parse({ file: FILE, ...check }) as CalcCheck);
}

describe('calc formula evaluator', () => {
  const cells: Record<string, Scalar> = { A1: 1, A2: 2, A3: 3, B1: 'x', B2: 'y', B3: 'x' };
  const read = (_s: string, c: { row: number; col: number }) => cells[`${'AB'[c.col - 1]}${c.row}`] ?? null;
  test('computes the common functions', () => {
    assert.equal(evaluate('SUM(A1:A3)*2', 'S', read), 12);
    assert.equal(evaluate('=AVERAGE(A1:A3)', 'S', read), 2);
    assert.equal(evaluate('COUNTIF(B1:B3,"x")', 'S', read), 2);
    assert.equal(evaluate('SUMIF(B1:B3,"x",A1:A3)', 'S', read), 4);
    assert.equal(evaluate('IF(A3>2,"big","small")', 'S', read), 'big');
    assert.equal(evaluate('ROUND(2/3,2)', 'S', read), 0.67);
    assert.equal(evaluate('VLOOKUP("y",B1:B3,1,FALSE)', 'S', read), 'y');
    assert.equal(evaluate('-2^2', 'S', read), 4);
    assert.equal(evaluate('MAX(A1:A3)-MIN(A1:A3)&"!"', 'S', read), '2!');
  });
  test('splits text as a person does without Text to Columns (FIND, SEARCH, MID)', () => {
    const name = (_s: string, c: { row: number; col: number }) => (c.col === 1 ? 'Ada Lovelace' : null);
    assert.equal(evaluate('LEFT(A1,FIND(" ",A1)-1)', 'S', name), 'Ada');
    assert.equal(evaluate('MID(A1,FIND(" ",A1)+1,100)', 'S', name), 'Lovelace');
    assert.equal(evaluate('RIGHT(A1,LEN(A1)-SEARCH(" ",A1))', 'S', name), 'Lovelace');
    assert.equal(evaluate('SEARCH("love",A1)', 'S', name), 5);
    assert.equal(typeof evaluate('FIND("love",A1)', 'S', name), 'object', 'FIND is case-sensitive: an error');
  });
  test('shifts relative references only', () => {
    assert.equal(shiftFormula('=B2*$C$1+SUM(B2:B3)', 3, 0), 'B5*$C$1+SUM(B5:B6)');
    assert.equal(shiftFormula('A$1&"B2"', 1, 1), 'B$1&"B2"');
  });
});

describe('calc preparer', () => {
  test('initial state fails and oracle edits make every check pass', async () => {
    const built = await calcPreparer.build(FILE, calcDocSchema.parse(doc));
    const checks = [
      { kind: 'calc.cell_value', sheet: 'Data', cell: 'B7', value: 400.5, tolerance: 0.001 },
      { kind: 'calc.formula', sheet: 'Data', cell: 'B7', matches: '^SUM\\(' },
      { kind: 'calc.no_duplicates', sheet: 'Data', range: 'A1:C5' },
      { kind: 'calc.range_sorted', sheet: 'Data', range: 'A1:C5', column: 'B', direction: 'desc' },
      { kind: 'calc.sheet_names', names: ['Data', 'Summary'] },
      { kind: 'calc.number_format', sheet: 'Data', range: 'B2:B4', category: 'percent' },
      { kind: 'calc.style', sheet: 'Data', range: 'A2:A4', bold: true, fill: 'FFEB9C' },
      { kind: 'calc.freeze', sheet: 'Data', rows: 1, cols: 0 },
      { kind: 'calc.chart', sheet: 'Data', type: 'line', values: 'B2:B4' },
      { kind: 'calc.autofilter', sheet: 'Data', range: 'A1:C4' },
      { kind: 'calc.conditional_format', sheet: 'Data', range: 'B2:B4' },
      { kind: 'calc.range_values', sheet: 'Summary', range: 'A1:B1', values: [['Total', 400.5]] },
      { kind: 'calc.row_count', sheet: 'Summary', count: 1 },
      { kind: 'calc.merged', sheet: 'Summary', range: 'C1:D1' },
    ];
    for (const c of checks) {
      assert.equal((await probe(built, c)).pass, false, `initial state should fail ${JSON.stringify(c)}`);
    }
    const edits = [
      { op: 'calc.remove_duplicates', sheet: 'Sales', range: 'A1:C5' },
      { op: 'calc.sort_range', sheet: 'Sales', range: 'A1:C5', column: 'B', direction: 'desc' },
      { op: 'calc.set_formula', sheet: 'Sales', cell: 'B7', formula: '=SUM(B2:B5)' },
      { op: 'calc.add_sheet', sheet: 'Summary' },
      { op: 'calc.set_values', sheet: 'Summary', cell: 'A1', values: [['Total']] },
      { op: 'calc.set_formula', sheet: 'Summary', cell: 'B1', formula: 'Sales!B7' },
      { op: 'calc.merge', sheet: 'Summary', range: 'C1:D1' },
      { op: 'calc.rename_sheet', sheet: 'Sales', to: 'Data' },
      { op: 'calc.set_number_format', sheet: 'Data', range: 'B2:B4', numFmt: '0.00%' },
      { op: 'calc.set_style', sheet: 'Data', range: 'A2:A4', bold: true, fill: '#ffeb9c' },
      { op: 'calc.freeze_panes', sheet: 'Data', rows: 1, cols: 0 },
      {
        op: 'calc.add_chart',
        chart: { sheet: 'Data', type: 'line', categories: 'A2:A4', values: ['B2:B4'] },
      },
      { op: 'calc.autofilter', sheet: 'Data', range: 'A1:C4' },
      {
        op: 'calc.conditional_format',
        sheet: 'Data',
        range: 'B2:B4',
        rule: { operator: 'greaterThan', values: [100], fill: 'FFC7CE' },
      },
    ].map((e) => calcPreparer.editSchema.parse({ file: FILE, ...e }) as CalcEdit);
    const solved = await calcPreparer.apply(built, edits);
    for (const c of checks) {
      const r = await probe(solved, c);
      assert.equal(
        r.pass,
        true,
        `solved state should pass ${JSON.stringify(c)}: ${JSON.stringify(r.observed)}`,
      );
    }
    // The chart from the doc spec survived the edits, on the renamed sheet.
    assert.equal(
      (await probe(solved, { kind: 'calc.chart', sheet: 'Data', type: 'col', title: 'By region' })).pass,
      true,
    );
  });

  test('formatting part of a column leaves the rest of it alone (cells loaded with one shared style)', async () => {
    const built = await calcPreparer.build(FILE, calcDocSchema.parse(doc));
    const edits = [
      { op: 'calc.set_number_format', sheet: 'Sales', range: 'B2:B4', numFmt: '0.0%' },
      { op: 'calc.set_style', sheet: 'Sales', range: 'C2:C3', bold: true, fill: 'FFEB9C' },
    ].map((e) => calcPreparer.editSchema.parse({ file: FILE, ...e }) as CalcEdit);
    const solved = await calcPreparer.apply(built, edits);
    const check = async (c: Record<string, unknown>) => (await probe(solved, { sheet: 'Sales', ...c })).pass;
    assert.equal(await check({ kind: 'calc.number_format', range: 'B2:B4', category: 'percent' }), true);
    assert.equal(await check({ kind: 'calc.number_format', range: 'B5', category: 'currency' }), true);
    assert.equal(await check({ kind: 'calc.style', range: 'C2:C3', bold: true, fill: 'FFEB9C' }), true);
    assert.equal(await check({ kind: 'calc.style', range: 'C4:C5', bold: false }), true);
    assert.equal(await check({ kind: 'calc.style', range: 'C4', fill: 'FFEB9C' }), false);
  });

  test('a cell_value check with type tells a number from the same digits typed as text', async () => {
    const built = await calcPreparer.build(FILE, calcDocSchema.parse(doc));
    const write = (value: string | number) =>
      calcPreparer.apply(built, [
        calcPreparer.editSchema.parse({
          op: 'calc.set_value',
          file: FILE,
          sheet: 'Sales',
          cell: 'E2',
          value,
        }) as CalcEdit,
      ]);
    const check = { kind: 'calc.cell_value', sheet: 'Sales', cell: 'E2', value: 8080, type: 'number' };
    const asNumber = await write(8080);
    const asText = await write('8080');
    assert.equal((await probe(asNumber, check)).pass, true);
    assert.equal((await probe(asText, check)).pass, false);
    // Without type the check stays lenient, as before.
    assert.equal((await probe(asText, { ...check, type: undefined })).pass, true);
    // The portable checker agrees.
    const work = mkdtempSync(path.join(tmpdir(), 'forge-calc-type-'));
    try {
      const checker = path.join(work, 'forge_check.py');
      writeFileSync(checker, checkerSource().text);
      const jobs = [];
      for (const [name, files] of Object.entries({ asNumber, asText })) {
        const home = path.join(work, name);
        await materializeHome(home, files);
        jobs.push({ home, checks: [{ file: FILE, ...check }] });
      }
      const verdicts = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
      assert.deepEqual(
        verdicts.map((v) => v[0]!.pass),
        [true, false],
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("a name typed into a cell reads the same with Calc's curly apostrophe; another name does not", async () => {
    const doc = {
      sheets: [{ name: 'People', columns: [{ header: 'Last Name', type: 'text' }], rows: [['Walsh']] }],
    };
    const built = await calcPreparer.build(FILE, calcDocSchema.parse(doc));
    const typed = (value: string) =>
      calcPreparer.apply(built, [
        calcPreparer.editSchema.parse({
          op: 'calc.set_value',
          file: FILE,
          sheet: 'People',
          cell: 'A3',
          value,
        }) as CalcEdit,
      ]);
    const checks = [
      { kind: 'calc.cell_value', file: FILE, sheet: 'People', cell: 'A3', value: "O'Brien" },
      {
        kind: 'calc.range_values',
        file: FILE,
        sheet: 'People',
        range: 'A2:A3',
        values: [['Walsh'], ["O'Brien"]],
      },
    ];
    await assertVerdicts(
      { straight: await typed("O'Brien"), curled: await typed('O\u2019Brien'), other: await typed('OBrien') },
      checks,
      { straight: [true, true], curled: [true, true], other: [false, false] },
      probe as never,
    );
  });

  test('blanks filled with references to the cell above read as the names typed; references down do not', async () => {
    const grouped = calcDocSchema.parse({
      sheets: [
        {
          name: 'Export',
          columns: [
            { header: 'Project', type: 'text' },
            { header: 'Hours', type: 'int' },
          ],
          rows: [
            ['Apollo', 3],
            [null, 5],
            [null, 2],
            ['Beacon', 7],
            [null, 1],
          ],
        },
      ],
    });
    const built = await calcPreparer.build(FILE, grouped);
    const formulas = (list: (string | null)[]) =>
      calcPreparer.apply(built, [
        calcPreparer.editSchema.parse({
          op: 'calc.set_formulas',
          file: FILE,
          sheet: 'Export',
          cell: 'A2',
          formulas: list.map((f) => [f]),
        }) as CalcEdit,
      ]);
    const check = {
      kind: 'calc.range_values',
      sheet: 'Export',
      range: 'A2:A6',
      values: [['Apollo'], ['Apollo'], ['Apollo'], ['Beacon'], ['Beacon']],
    };
    const states = {
      // Go To Special > Blanks, "=A2" typed in A3, Ctrl+Enter.
      above: await formulas([null, '=A2', '=A3', null, '=A5']),
      // "=A4" typed instead: each blank copies the cell below, the next group's name.
      below: await formulas([null, '=A4', '=A5', null, '=A7']),
    };
    assert.equal((await probe(states.above, check)).pass, true);
    assert.equal((await probe(states.below, check)).pass, false);
    assert.equal((await probe(built, check)).pass, false, 'untouched');
    const verdicts = await shippedVerdicts(states, [{ file: FILE, ...check }]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      [true, false],
      'the shipped checker agrees',
    );
  });

  test('deleting rows down to the last one empties them (ExcelJS leaves them otherwise)', async () => {
    const built = await calcPreparer.build(FILE, calcDocSchema.parse(doc));
    const del = (row: number, count: number) =>
      calcPreparer.apply(built, [
        calcPreparer.editSchema.parse({
          op: 'calc.delete_rows',
          file: FILE,
          sheet: 'Sales',
          row,
          count,
        }) as CalcEdit,
      ]);
    const rows = async (files: Record<string, Uint8Array>) =>
      (await probe(files, { kind: 'calc.row_count', sheet: 'Sales', count: 0 })).observed;
    assert.deepEqual(await rows(await del(2, 4)), await rows(await del(2, 10)));
    assert.equal(
      (await probe(await del(2, 4), { kind: 'calc.row_count', sheet: 'Sales', count: 1 })).pass,
      true,
    );
    assert.equal(
      (await probe(await del(4, 2), { kind: 'calc.row_count', sheet: 'Sales', count: 3 })).pass,
      true,
    );
    assert.equal(
      (
        await probe(await del(3, 1), {
          kind: 'calc.range_values',
          sheet: 'Sales',
          range: 'A2:A5',
          values: [['North'], ['North'], ['East'], [null]],
        })
      ).pass,
      true,
    );
  });

  test('rejects bad specs with clear errors', () => {
    assert.throws(() => calcDocSchema.parse({ sheets: [{ name: 'a/b' }] }), /sheet name/);
    assert.throws(
      () =>
        calcPreparer.editSchema.parse({
          op: 'calc.set_value',
          file: '../x.xlsx',
          sheet: 'S',
          cell: 'A1',
          value: 1,
        }),
      /home-relative/,
    );
    assert.throws(
      () =>
        calcPreparer.checkSchema.parse({
          kind: 'calc.cell_value',
          file: 'a.xlsx',
          sheet: 'S',
          cell: 'a1',
          value: 1,
        }),
      /A1 cell/,
    );
  });

  test('property: probe reads back what build wrote', async () => {
    const text = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((s) => s.trim() === s && !/[\u0000-\u001f]/.test(s) && s !== '');
    const cell = fc.oneof(
      text,
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const spec = fc.record({
      name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,10}$/).filter((s) => !s.endsWith(' ')),
      width: fc.integer({ min: 1, max: 5 }),
      rows: fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(spec, async ({ name, width, rows }) => {
        const data = rows.map((r) => r.slice(0, width));
        const d = calcDocSchema.parse({
          sheets: [
            {
              name,
              columns: Array.from({ length: width }, (_, i) => ({ header: `H${i}`, type: 'text' })),
              rows: data,
            },
          ],
        });
        const files = await calcPreparer.build(FILE, d);
        const last = String.fromCharCode(64 + width);
        const r = await probe(files, {
          kind: 'calc.range_values',
          sheet: name,
          range: `A2:${last}${data.length + 1}`,
          values: data,
        });
        assert.equal(r.pass, true, JSON.stringify(r.observed));
        assert.equal((await probe(files, { kind: 'calc.sheet_names', names: [name] })).pass, true);
      }),
      { numRuns: 25, seed: 42 },
    );
  });
});
