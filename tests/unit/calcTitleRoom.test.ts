import { test } from 'node:test';
import { calcPreparer as C } from '../../preparers/calc/index.ts';
import { calcInvariants } from '../../preparers/calc/invariants.ts';
import { sampleCalcDoc } from '../../preparers/calc/sample.ts';
import type { FileMap } from '../../preparers/types.ts';
import { assertVerdicts } from '../support/checkerHome.ts';

/**
 * A summary on a sheet the task adds may stand under a title or header row (schema.ts titleRoom;
 * invariants.ts for the new sheet): the checks read the block as far down as its first label is,
 * when the rows above it hold only text. Our probe and the shipped checker agree on every state.
 */
const FILE = 'Documents/orders.xlsx';
const SHEET = 'Summary';
const edit = (e: Record<string, unknown>) => C.editSchema.parse({ file: FILE, sheet: SHEET, ...e });

async function summary(top: number, above: unknown[][] = [], formulasTop = top): Promise<FileMap> {
  const initial = await C.build(FILE, sampleCalcDoc(6));
  const edits = [C.editSchema.parse({ op: 'calc.add_sheet', file: FILE, sheet: SHEET })];
  if (above.length > 0) edits.push(edit({ op: 'calc.set_values', cell: 'A1', values: above }));
  edits.push(edit({ op: 'calc.set_values', cell: `A${top}`, values: [['Count'], ['Total']] }));
  edits.push(edit({ op: 'calc.set_formula', cell: `B${formulasTop}`, formula: 'COUNT(Orders!D2:D7)' }));
  edits.push(edit({ op: 'calc.set_formula', cell: `B${formulasTop + 1}`, formula: 'SUM(Orders!D2:D7)' }));
  return C.apply(initial, edits);
}

test('a summary under a title or header row passes; pushed too far, misaligned or under a number it fails', async () => {
  const initial = await C.build(FILE, sampleCalcDoc(6));
  const oracle = await summary(1);
  const room = { label: 'A1', text: 'Count', rows: 2 };
  const [invariant] = (await calcInvariants(initial, oracle, [FILE])).filter(
    (c) => (c as { newSheet?: boolean }).newSheet,
  );
  const checks = [
    {
      kind: 'calc.range_values',
      file: FILE,
      sheet: SHEET,
      range: 'A1:A2',
      values: [['Count'], ['Total']],
      titleRoom: room,
    },
    { kind: 'calc.formula', file: FILE, sheet: SHEET, cell: 'B2', covers: ['Orders!D2:D7'], titleRoom: room },
    { kind: 'calc.row_count', file: FILE, sheet: SHEET, count: 2, titleRoom: room },
    { kind: 'calc.formula_range', file: FILE, sheet: SHEET, range: 'B1:B2', titleRoom: room },
    invariant,
  ];
  await assertVerdicts(
    {
      oracle,
      title: await summary(2, [['Orders at a glance']]),
      titleAndHeader: await summary(3, [
        ['Summary', null],
        ['Measure', 'Value'],
      ]),
      threeRowsDown: await summary(4, [['Summary'], ['Orders'], ['Figures']]),
      labelsLowerThanFormulas: await summary(2, [], 1),
      numberAbove: await summary(2, [[2024]]),
    },
    checks,
    {
      oracle: [true, true, true, true, true],
      title: [true, true, true, true, true],
      titleAndHeader: [true, true, true, true, true],
      // Beyond the room the block is read where it was asked, and the new sheet holds cells it should not.
      threeRowsDown: [false, false, false, false, false],
      // A formula in the row above the labels: no title row, so the block is read at A1.
      labelsLowerThanFormulas: [false, true, false, true, false],
      // A number above is no title: read at A1, the labels are not there (B2 holds a formula of the range).
      numberAbove: [false, true, false, false, false],
    },
    C.probe as never,
  );
});
