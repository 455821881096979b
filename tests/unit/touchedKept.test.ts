import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calcPreparer as calc } from '../../preparers/calc/index.ts';
import { calcMutants } from '../../preparers/calc/mutants.ts';
import { gimpMutants } from '../../preparers/gimp/mutants.ts';
import { osPreparer as os } from '../../preparers/os/index.ts';
import { osMutants } from '../../preparers/os/mutants.ts';
import type { OsEdit } from '../../preparers/os/schema.ts';
import { applyEdits } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { vscodeMutants } from '../../preparers/vscode/mutants.ts';
import { assertVerdicts } from '../support/checkerHome.ts';

/**
 * What the oracle leaves alone inside an object it touches is held (issue 26): an edited file
 * keeps its mode, a chmod-ed file its content, a renamed sheet its cells. Before, the invariant
 * dropped the object whole, so "chmod 777 to save it", a line lost while looking at a script and a
 * cell typed over on a renamed sheet all passed. Both checkers agree; each near miss is proposed.
 */
const HOME = os.docSchema.parse({
  entries: [
    { path: 'etc/app/settings.ini', content: '[cache]\nenabled = true\nttl_seconds = 300\n', mode: '0644' },
    { path: 'ops/report.sh', content: '#!/bin/sh\necho report\n', mode: '0644' },
  ],
});
const osEdit = (e: unknown) => os.editSchema.parse(e) as OsEdit;
const replace = osEdit({
  op: 'os.replace_in_file',
  path: 'etc/app/settings.ini',
  find: 'ttl_seconds = 300',
  replace: 'ttl_seconds = 900',
});
const chmod = osEdit({ op: 'os.chmod', path: 'ops/report.sh', mode: '0755' });

/** A one-file workbook of the given sheets, as the Calc preparer builds it. */
const workbook = (file: string, sheets: unknown[]) => calc.build(file, calc.docSchema.parse({ sheets }));

async function osChecks(initial: FileMap, edits: OsEdit[], files: string[]) {
  const solved = await applyEdits(initial, edits);
  return (await os.invariants(initial, solved, files)).map((c) => os.checkSchema.parse(c));
}

describe('touched objects keep what the oracle left alone', () => {
  test('a config edited in place keeps its mode; rewriting it whole with the same text is still right', async () => {
    const initial = await os.build('', HOME);
    const checks = await osChecks(initial, [replace], ['etc/app/settings.ini']);
    const entry = (checks[0] as { entries: Record<string, unknown> }).entries['etc/app/settings.ini'];
    assert.deepEqual(entry, { type: 'file', mode: '0644' }, 'its mode, not its content');
    const text = '[cache]\nenabled = true\nttl_seconds = 900\n';
    await assertVerdicts(
      {
        untouched: initial,
        oracle: await applyEdits(initial, [replace]),
        rewritten: await applyEdits(initial, [
          osEdit({ op: 'os.write_file', path: 'etc/app/settings.ini', content: text }),
        ]),
        openedUp: await applyEdits(initial, [
          replace,
          osEdit({ op: 'os.chmod', path: 'etc/app/settings.ini', mode: '0777' }),
        ]),
      },
      checks,
      { untouched: [true], oracle: [true], rewritten: [true], openedUp: [false] },
      (files, c) => os.probe(files, c),
    );
    const names = (await osMutants([replace], initial)).map((m) => m.name);
    assert.ok(
      names.includes('os.replace_in_file #1 and opened up to everyone (chmod 777) to save it'),
      names.join(' | '),
    );
  });

  test('a script made executable keeps its content: a line lost on the way fails', async () => {
    const initial = await os.build('', HOME);
    const checks = await osChecks(initial, [chmod], ['ops/report.sh']);
    const lost = osEdit({ op: 'os.write_file', path: 'ops/report.sh', content: 'echo report\n' });
    await assertVerdicts(
      {
        untouched: initial,
        oracle: await applyEdits(initial, [chmod]),
        lineLost: await applyEdits(initial, [chmod, lost]),
      },
      checks,
      { untouched: [true], oracle: [true], lineLost: [false] },
      (files, c) => os.probe(files, c),
    );
    const mutants = await osMutants([chmod], initial);
    const proposed = mutants.find((m) => m.name === 'os.chmod #1 and line 1 of it lost');
    assert.ok(proposed, mutants.map((m) => m.name).join(' | '));
    assert.deepEqual(proposed.also, [{ ...lost, content: 'echo report\n' }]);
  });

  test('a renamed sheet keeps its cells under the new name; a cell typed over or a sheet added fails', async () => {
    const FILE = 'Documents/tracker.xlsx';
    const initial = await workbook(FILE, [
      { name: 'Notes', rows: [['Read me first']] },
      {
        name: 'Tracker',
        columns: [
          { header: 'Item', type: 'text' },
          { header: 'Quantity', type: 'number' },
        ],
        rows: [
          ['Folders', 12],
          ['Labels', 40],
        ],
      },
    ]);
    const rename = calc.editSchema.parse({
      op: 'calc.rename_sheet',
      file: FILE,
      sheet: 'Tracker',
      to: 'Red Meadow',
    });
    const solved = await applyEdits(initial, [rename]);
    const checks = (await calc.invariants(initial, solved, [FILE])).map((c) => calc.checkSchema.parse(c));
    const held = checks.find((c) => c.kind === 'calc.unchanged' && c.sheet === 'Red Meadow') as
      | { was?: string; cells: Record<string, unknown> }
      | undefined;
    assert.equal(held?.was, 'Tracker');
    assert.equal(Object.keys(held?.cells ?? {}).length, 6, 'the header and both rows');
    const typed = calc.editSchema.parse({
      op: 'calc.set_value',
      file: FILE,
      sheet: 'Red Meadow',
      cell: 'B3',
      value: 41,
    });
    const added = calc.editSchema.parse({ op: 'calc.add_sheet', file: FILE, sheet: 'Sheet3' });
    await assertVerdicts(
      {
        untouched: initial,
        oracle: solved,
        typedOver: await applyEdits(initial, [rename, typed]),
        sheetAdded: await applyEdits(initial, [rename, added]),
      },
      checks,
      {
        untouched: checks.map(() => true),
        oracle: checks.map(() => true),
        typedOver: checks.map((c) => !(c.kind === 'calc.unchanged' && c.sheet === 'Red Meadow')),
        sheetAdded: checks.map((c) => c.kind !== 'calc.sheet_names'),
      },
      (files, c) => calc.probe(files, c),
    );
    const names = (await calcMutants([rename], initial)).map((m) => m.name);
    assert.ok(
      names.some((n) => /^calc\.rename_sheet #1 and [A-Z]+\d+ on Red Meadow typed over/.test(n)),
      names.join(' | '),
    );
  });

  test('a summary sheet the oracle fills whole: the stray keystroke lands on the data sheet', async () => {
    const FILE = 'Desktop/bills.xlsx';
    const initial = await workbook(FILE, [
      {
        name: 'Items',
        rows: [
          ['Payee', 'Bill'],
          ['Gas', 40],
          ['Water', 25],
        ],
      },
    ]);
    const edits = [
      { op: 'calc.add_sheet', file: FILE, sheet: 'Report' },
      { op: 'calc.set_values', file: FILE, sheet: 'Report', cell: 'A1', values: [['Count'], ['Total']] },
      { op: 'calc.set_formula', file: FILE, sheet: 'Report', cell: 'B1', formula: '=COUNT(Items!B2:B3)' },
      { op: 'calc.set_formula', file: FILE, sheet: 'Report', cell: 'B2', formula: '=SUM(Items!B2:B3)' },
    ].map((e) => calc.editSchema.parse(e));
    const names = (await calcMutants(edits, initial)).map((m) => m.name);
    // Never a cell another edit writes (the labels), which would be a kill only the undone task makes.
    assert.ok(!names.some((n) => /typed over/.test(n) && /on Report/.test(n)), names.join(' | '));
    assert.ok(
      names.some((n) => /^calc\.set_formula #4 and [A-Z]+\d+ on Items typed over/.test(n)),
      names.join(' | '),
    );
  });

  test('a two-key sort: the stray keystroke lands on the header row the sorts leave in place', async () => {
    const FILE = 'Documents/staff.xlsx';
    const initial = await workbook(FILE, [
      {
        name: 'All',
        rows: [
          ['Employee', 'Department', 'Salary'],
          ['Ann Lee', 'Finance', 41000],
          ['Bo Ng', 'Sales', 38000],
          ['Cy Ruiz', 'Finance', 52000],
        ],
      },
    ]);
    const sort = (column: string, direction: string) =>
      calc.editSchema.parse({
        op: 'calc.sort_range',
        file: FILE,
        sheet: 'All',
        range: 'A1:C4',
        column,
        direction,
      });
    const names = (await calcMutants([sort('C', 'desc'), sort('B', 'asc')], initial)).map((m) => m.name);
    // The first sort's rows are all the second's too: before, it had no cell beside it to damage.
    assert.ok(
      names.some((n) => /^calc\.sort_range #1 and [A-C]1 on All typed over/.test(n)),
      names.join(' | '),
    );
  });

  test('an edit on the oracle’s own export: the result also written over the original is proposed', async () => {
    const edits = [
      {
        op: 'gimp.crop',
        path: 'Pictures/fete.png',
        to: 'Pictures/fete-thumb.png',
        x: 10,
        y: 0,
        width: 40,
        height: 40,
      },
      { op: 'gimp.scale', path: 'Pictures/fete-thumb.png', width: 20, height: 20 },
    ] as Parameters<typeof gimpMutants>[0];
    const over = (await gimpMutants(edits, {})).find(
      (m) => m.name === 'and written over Pictures/fete.png as well',
    );
    assert.ok(over);
    assert.equal(over.edit, 1);
    assert.deepEqual(
      over.also?.map((e) => [e.op, e.path, e.to]),
      [
        ['gimp.crop', 'Pictures/fete.png', undefined],
        ['gimp.scale', 'Pictures/fete.png', undefined],
      ],
    );
  });

  test('VS Code: the nearest other text file takes the pasted line; with none, a Save As copy', async () => {
    const enc = (s: string) => new Uint8Array(Buffer.from(s));
    const initial: FileMap = {
      'projects/x/README.md': enc('# x\n'),
      'projects/x/data/a.csv': enc('a,b\n1,2\n'),
    };
    const fix = { op: 'vscode.replace_text', path: 'projects/x/data/a.csv', find: '1', replace: '3' };
    const pasted = (await vscodeMutants([fix] as never, initial)).map((m) => m.name);
    assert.ok(
      pasted.includes(
        'vscode.replace_text #1 and a line of projects/x/README.md pasted twice (a file not asked for)',
      ),
      pasted.join(' | '),
    );
    const alone = { 'projects/y/main.py': enc('print(1)\n') };
    const write = { op: 'vscode.write_file', path: 'projects/y/main.py', content: 'print(2)\n' };
    const copy = (await vscodeMutants([write] as never, alone)).map((m) => m.name);
    assert.ok(
      copy.includes('vscode.write_file #1 and saved again as projects/y/main (1).py (a file not asked for)'),
      copy.join(' | '),
    );
  });
});
