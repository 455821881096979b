import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEdits } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { writerPreparer as W } from '../../preparers/writer/index.ts';
import { writerMutants } from '../../preparers/writer/mutants.ts';
import type { WriterEdit } from '../../preparers/writer/schema.ts';
import { assertVerdicts } from '../support/checkerHome.ts';

/**
 * A table the task fills keeps every cell it leaves alone (issue 26): before, the invariant
 * dropped a table as soon as the oracle wrote one cell of it, so a value typed into the
 * neighbouring cell as well passed. Both checkers agree; the near miss is proposed.
 */
const FILE = 'Documents/budget.docx';
const DOC = {
  blocks: [
    { type: 'heading', level: 1, text: 'Event budget' },
    {
      type: 'table',
      header: ['Item', 'Price'],
      rows: [
        ['Hall hire', '450.00'],
        ['Catering', ''],
        ['Printing', '85.50'],
      ],
    },
  ],
};
const fill = (row: number, text: string) =>
  W.editSchema.parse({ op: 'writer.fill_table_cell', file: FILE, table: 1, row, col: 2, text }) as WriterEdit;

describe('writer tables: kept cells', () => {
  test('the asked cell filled passes; the cell below typed too, or a header changed, fails', async () => {
    const initial = await W.build(FILE, W.docSchema.parse(DOC));
    const solved = await applyEdits(initial, [fill(3, '1200.00')]);
    const checks = (
      (await W.invariants(initial, solved, [FILE])) as { kind: string; cells?: unknown[] }[]
    ).filter((c) => c.kind === 'writer.unchanged');
    assert.equal(checks.length, 1);
    assert.equal(checks[0]!.cells?.length, 7, 'every cell but the one filled');
    const states: Record<string, FileMap> = {
      untouched: initial,
      oracle: solved,
      belowToo: await applyEdits(initial, [fill(3, '1200.00'), fill(4, '1200.00')]),
      headerRetyped: await applyEdits(initial, [
        fill(3, '1200.00'),
        W.editSchema.parse({
          op: 'writer.fill_table_cell',
          file: FILE,
          table: 1,
          row: 1,
          col: 2,
          text: 'Cost',
        }),
      ]),
    };
    await assertVerdicts(
      states,
      checks,
      { untouched: [true], oracle: [true], belowToo: [false], headerRetyped: [false] },
      (files, c) => W.probe(files, c as never),
    );
  });

  test('the near miss "and the cell below too" is proposed for a filled cell', async () => {
    const initial = await W.build(FILE, W.docSchema.parse(DOC));
    const names = (await writerMutants([fill(3, '1200.00')], initial)).map((m) => m.name);
    assert.ok(
      names.includes('writer.fill_table_cell #1 and row 4 too (a cell the task leaves alone)'),
      names.join(' | '),
    );
    // At the table's end, the row above.
    const last = (await writerMutants([fill(4, '99.00')], initial)).map((m) => m.name);
    assert.ok(
      last.includes('writer.fill_table_cell #1 and row 3 too (a cell the task leaves alone)'),
      last.join(' | '),
    );
  });
});
