import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calcPreparer as C } from '../../preparers/calc/index.ts';
import { sampleCalcDoc } from '../../preparers/calc/sample.ts';
import { impressPreparer as P } from '../../preparers/impress/index.ts';
import { sampleImpressDoc } from '../../preparers/impress/sample.ts';
import type { FileMap } from '../../preparers/types.ts';
import { writerPreparer as W } from '../../preparers/writer/index.ts';
import { sampleWriterDoc } from '../../preparers/writer/sample.ts';
import { comparisonsOffGold } from '../../taskcore/verify/offGold.ts';

/**
 * A correct alternative loses a gold comparison exactly when it reads differently from the oracle's
 * file to that comparison: what OSWorld's metric ignores (geometry, formatting in docx, formulas)
 * keeps the comparison; what it compares (a line break, a paragraph's words, sheet names) hands it
 * to the checker. tests/integration/osworldMetrics.test.ts scores every library right with the
 * metrics themselves.
 */

const offNames = async (
  checks: { kind: string; file?: string }[],
  solved: FileMap,
  rights: Record<string, FileMap>,
) =>
  (
    await comparisonsOffGold(
      checks,
      solved,
      Object.entries(rights).map(([name, files]) => ({ name, files })),
    )
  ).map((o) => `${o.func} ${o.right}`);

test('a deck: a moved title keeps compare_pptx_files, a title on two lines or other words do not', async () => {
  const FILE = 'Desktop/deck.pptx';
  const initial = await P.build(FILE, sampleImpressDoc(3));
  const title = (text: string) => P.editSchema.parse({ op: 'impress.set_title', file: FILE, slide: 2, text });
  const solved = await P.apply(initial, [title('Budget review for the spring term')]);
  const checks = [
    { kind: 'impress.slide_title', file: FILE, slide: 2, text: 'Budget review for the spring term' },
  ];
  const moved = await P.apply(solved, [
    P.editSchema.parse({ op: 'impress.move_shape', file: FILE, slide: 2, shape: 'title', x: 1.5 }),
  ]);
  assert.deepEqual(await offNames(checks, solved, { moved, same: solved }), []);
  const twoLines = await P.apply(initial, [title('Budget review\nfor the spring term')]);
  assert.deepEqual(await offNames(checks, solved, { moved, twoLines }), ['compare_pptx_files twoLines']);
  const notes = await P.apply(solved, [
    P.editSchema.parse({ op: 'impress.set_notes', file: FILE, slide: 1, text: 'Ask about the venue.' }),
  ]);
  assert.deepEqual(await offNames(checks, solved, { notes }), ['compare_pptx_files notes']);
});

test('a document: bold words keep compare_docx_files, other words do not', async () => {
  const FILE = 'Documents/report.docx';
  const initial = await W.build(FILE, sampleWriterDoc(1));
  const replace = (replace: string) =>
    W.editSchema.parse({ op: 'writer.replace_text', file: FILE, find: 'Revenue rose', replace });
  const solved = await W.apply(initial, [replace('Income rose')]);
  const checks = [{ kind: 'writer.text_replaced', file: FILE, old: 'Revenue rose', new: 'Income rose' }];
  const bolded = await W.apply(solved, [
    W.editSchema.parse({ op: 'writer.set_run_format', file: FILE, paragraph: 'Paragraph 1.1', italic: true }),
  ]);
  assert.notDeepEqual(bolded[FILE], solved[FILE]);
  assert.deepEqual(await offNames(checks, solved, { bolded }), []);
  const worded = await W.apply(initial, [replace('Income  rose')]);
  // ignore_blanks: a doubled space reads as one; a missing word does not.
  assert.deepEqual(await offNames(checks, solved, { worded }), []);
  const other = await W.apply(initial, [replace('Income grew')]);
  assert.deepEqual(await offNames(checks, solved, { other }), ['compare_docx_files other']);
});

test('a workbook: compare_table reads the gold only for sheet names', async () => {
  const FILE = 'Documents/orders.xlsx';
  const initial = await C.build(FILE, sampleCalcDoc(5));
  const add = (sheet: string) => C.editSchema.parse({ op: 'calc.add_sheet', file: FILE, sheet });
  const solved = await C.apply(initial, [add('Summary')]);
  const checks = [{ kind: 'calc.sheet_names', file: FILE, names: ['Orders', 'Summary'] }];
  assert.equal((await C.probe(solved, checks[0] as never)).pass, true);
  const valued = await C.apply(solved, [
    C.editSchema.parse({ op: 'calc.set_value', file: FILE, sheet: 'Summary', cell: 'A1', value: 'Totals' }),
  ]);
  assert.deepEqual(await offNames(checks, solved, { valued }), []);
  const first = await C.apply(initial, [
    C.editSchema.parse({ op: 'calc.add_sheet', file: FILE, sheet: 'Summary', position: 0 }),
  ]);
  assert.deepEqual(await offNames(checks, solved, { first }), ['compare_table first']);
});
