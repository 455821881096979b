import assert from 'node:assert/strict';
import { test } from 'node:test';
import JSZip from 'jszip';
import { calcPreparer as calc } from '../../preparers/calc/index.ts';
import { applyEdits } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { assertVerdicts } from '../support/checkerHome.ts';

/**
 * A print range as LibreOffice prints it. Measured with LibreOffice's PDF export: a range written
 * "$A1:$C12" (what exceljs makes of "A1:C12") is not applied and the notes print too; "$A$1:$C$12",
 * whole columns "$A:$C" and "$A$1:$C$200" over a 12-row table all print the same one page, table only.
 * So the oracle writes absolute rows, and a request for "the table" (not a range) takes any range
 * that adds only empty cells.
 */
const FILE = 'Documents/price list.xlsx';
const table = [
  ['Supplier', 'N10', 12],
  ['Supplier two', 'N11', 30],
];

const setArea = (range: string) =>
  calc.editSchema.parse({ op: 'calc.set_print_area', file: FILE, sheet: 'List', range });

async function built(): Promise<FileMap> {
  return calc.build(
    FILE,
    calc.docSchema.parse({
      sheets: [
        {
          name: 'List',
          columns: [
            { header: 'Supplier', type: 'text' },
            { header: 'Ref', type: 'text' },
            { header: 'Price', type: 'number' },
          ],
          rows: table,
          cells: [{ cell: 'F1', value: 'Working notes (do not print)' }],
        },
      ],
    }),
  );
}

async function definedArea(files: FileMap): Promise<string | undefined> {
  const zip = await JSZip.loadAsync(files[FILE]!);
  const xml = await zip.file('xl/workbook.xml')!.async('string');
  return /name="_xlnm\.Print_Area"[^>]*>([^<]*)</.exec(xml)?.[1];
}

test('the oracle writes the print range with absolute rows, as LibreOffice applies it', async () => {
  const initial = await built();
  assert.equal(
    await definedArea(await applyEdits(initial, [setArea('A1:C3')])),
    '&apos;List&apos;!$A$1:$C$3',
  );
  assert.equal(await definedArea(await applyEdits(initial, [setArea('A:C')])), '&apos;List&apos;!$A:$C');
});

test('asked for the table, a range that adds only empty cells passes; one that adds the notes fails', async () => {
  const initial = await built();
  const check = (covers: boolean) =>
    calc.checkSchema.parse({ kind: 'calc.print_area', file: FILE, sheet: 'List', range: 'A1:C3', covers });
  await assertVerdicts(
    {
      untouched: initial,
      exact: await applyEdits(initial, [setArea('A1:C3')]),
      wholeColumns: await applyEdits(initial, [setArea('A:C')]),
      emptyRowsUnder: await applyEdits(initial, [setArea('A1:C40')]),
      notesToo: await applyEdits(initial, [setArea('A1:F3')]),
      columnsWithNotes: await applyEdits(initial, [setArea('A:F')]),
      lastRowCut: await applyEdits(initial, [setArea('A1:C2')]),
      headerLeftOut: await applyEdits(initial, [setArea('A2:C40')]),
    },
    [check(true), check(false)],
    {
      untouched: [false, false],
      exact: [true, true],
      // Without covers (an explicit instruction names the range) only the range itself passes.
      wholeColumns: [true, false],
      emptyRowsUnder: [true, false],
      notesToo: [false, false],
      columnsWithNotes: [false, false],
      lastRowCut: [false, false],
      headerLeftOut: [false, false],
    },
    (files, c) => calc.probe(files, c),
  );
  const notes = await calc.probe(await applyEdits(initial, [setArea('A:F')]), check(true));
  assert.equal(
    (notes.observed as { alsoPrints?: string }).alsoPrints,
    'F1',
    'names the cell it would also print',
  );
});
