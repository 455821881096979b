import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildWorkbook } from '../../preparers/calc/build.ts';
import { calcPreparer } from '../../preparers/calc/index.ts';
import { calcDocSchema } from '../../preparers/calc/schema.ts';
import type { FileMap } from '../../preparers/types.ts';

/** calc.formula judged by meaning: precedents cover the range, constants fail, spelling is free. */
const file = 'Desktop/t.xlsx';

async function workbook(): Promise<FileMap> {
  const rows = [1, 2, 3, 4, 5].map((n) => [`item ${n}`, n * 10]);
  const doc = calcDocSchema.parse({
    sheets: [
      {
        name: 'Data',
        columns: [
          { header: 'Item', type: 'text' },
          { header: 'Amount', type: 'number' },
        ],
        rows,
      },
    ],
  });
  return { [file]: await buildWorkbook(doc) };
}

async function verdicts(formula: string): Promise<{ covers: boolean; value: boolean; sumNamed: boolean }> {
  const files = await calcPreparer.apply(await workbook(), [
    { op: 'calc.set_formula', file, sheet: 'Data', cell: 'D1', formula },
  ]);
  const probe = async (c: Record<string, unknown>) =>
    (await calcPreparer.probe(files, { kind: 'calc.formula', file, sheet: 'Data', cell: 'D1', ...c })).pass;
  return {
    covers: await probe({ covers: ['B2:B6'] }),
    value: await probe({ kind: 'calc.cell_value', value: 150, tolerance: 0.001 }),
    sumNamed: await probe({ covers: ['B2:B6'], function: 'SUM' }),
  };
}

describe('calc.formula by meaning', () => {
  test('equivalent formulas pass: SUM, SUBTOTAL(9,…), an explicit sum, whole-column and wider references', async () => {
    for (const f of ['SUM(B2:B6)', 'SUBTOTAL(9,B2:B6)', 'B2+B3+B4+B5+B6', 'SUM(B:B)', 'SUM(B1:B20)']) {
      const v = await verdicts(f);
      assert.equal(v.covers, true, `${f} covers B2:B6`);
      assert.equal(v.value, true, `${f} evaluates to 150`);
    }
  });

  test('the function is required only when the check names it', async () => {
    assert.equal((await verdicts('SUBTOTAL(9,B2:B6)')).sumNamed, false);
    assert.equal((await verdicts('SUM(B2:B6)')).sumNamed, true);
  });

  test('a constant wrapped in SUM, a short range and a neighbouring column fail', async () => {
    const constant = await verdicts('SUM(150)');
    assert.equal(constant.covers, false);
    assert.equal(constant.value, true, 'the value alone would have passed');
    assert.equal((await verdicts('SUM(B2:B5)')).covers, false);
    assert.equal((await verdicts('SUM(A2:A6)')).covers, false);
  });

  test('a typed number is no formula', async () => {
    const files = await calcPreparer.apply(await workbook(), [
      { op: 'calc.set_value', file, sheet: 'Data', cell: 'D1', value: 150 },
    ]);
    const r = await calcPreparer.probe(files, {
      kind: 'calc.formula',
      file,
      sheet: 'Data',
      cell: 'D1',
      covers: ['B2:B6'],
    });
    assert.equal(r.pass, false);
  });
});
