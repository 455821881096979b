import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECK_MAPPINGS, type GoldComparison, mapCheck } from '../../export/osworld/metrics.ts';
import {
  CHECKER_COMMAND,
  CHECKER_EVALUATOR,
  GUARD_REASON,
  offGoldReason,
  toOsworldTask,
} from '../../export/osworld/task.ts';
import { commandProblem } from '../../export/packRules.ts';
import { buildTaskPackage } from '../../taskpack/taskPackage.ts';
import { calcPackageInput } from './packageFixtures.ts';

const file = 'Desktop/a.xlsx';

test('calc.cell_value → check_cell eq / approx:<tol>; regex and dates are refused', () => {
  assert.deepEqual(
    mapCheck({ kind: 'calc.cell_value', file, sheet: 'S 1', cell: 'B7', value: 42, tolerance: 0.01 }),
    {
      ok: true,
      shape: 'table',
      rules: [
        {
          file,
          needsGold: false,
          rule: {
            type: 'check_cell',
            sheet_idx: 'RNS 1',
            coordinate: 'B7',
            props: { value: { method: 'approx:0.01', ref: 42 } },
          },
        },
      ],
    },
  );
  const eq = mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', value: 'Total' });
  assert.ok(eq.ok && eq.shape === 'table' && JSON.stringify(eq.rules[0]?.rule).includes('"method":"eq"'));
  assert.equal(mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', matches: '^x' }).ok, false);
  // A typed quote may come back curled by AutoCorrect: check_cell's eq would fail it, the checker does not.
  const quoted = mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', value: "O'Brien" });
  assert.ok(!quoted.ok && /AutoCorrect/.test(quoted.reason), JSON.stringify(quoted));
  assert.equal(
    mapCheck({ kind: 'calc.range_values', file, sheet: 'S', range: 'A1', values: [["O'Brien"]] }).ok,
    false,
  );
  assert.equal(
    mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', value: '2024-01-31' }).ok,
    false,
  );
});

test('calc.range_values → one check_cell per cell', () => {
  const m = mapCheck({
    kind: 'calc.range_values',
    file,
    sheet: 'S',
    range: 'B2:C3',
    values: [
      [1, 'x'],
      [null, 2],
    ],
  });
  assert.ok(m.ok && m.shape === 'table');
  assert.deepEqual(
    m.rules.map((r) => r.rule.coordinate),
    ['B2', 'C2', 'B3', 'C3'],
  );
  assert.equal(
    mapCheck({ kind: 'calc.range_values', file, sheet: 'S', range: 'B2:C3', values: [[1]] }).ok,
    false,
  );
  // A block that may stand lower under a title row is read where it stands: the checker's.
  const roomy = mapCheck({
    kind: 'calc.range_values',
    file,
    sheet: 'S',
    range: 'A1:A2',
    values: [['Count'], ['Total']],
    titleRoom: { label: 'A1', text: 'Count', rows: 2 },
  });
  assert.ok(!roomy.ok && /title row/.test(roomy.reason), JSON.stringify(roomy));
});

test("calc.sheet_names compares with the gold workbook; calc.freeze is the checker's", () => {
  const names = mapCheck({ kind: 'calc.sheet_names', file, names: ['A', 'B'] });
  assert.ok(
    names.ok &&
      names.shape === 'table' &&
      names.rules[0]?.needsGold &&
      names.rules[0].rule.type === 'sheet_name',
  );
  // OSWorld's freeze rule scores the LibreOffice-saved oracle 0 (tests/integration/osworldMetrics.test.ts).
  const freeze = mapCheck({ kind: 'calc.freeze', file, sheet: 'S', rows: 1, cols: 0 });
  assert.ok(!freeze.ok && /LibreOffice/.test(freeze.reason), JSON.stringify(freeze));
});

test('thunderbird.pref → check_thunderbird_prefs; presence-only and profile-less checks are refused', () => {
  assert.deepEqual(
    mapCheck({ kind: 'thunderbird.pref', file: '.thunderbird/p', name: 'mail.x', value: true }),
    {
      ok: true,
      shape: 'expect',
      expect: {
        func: 'check_thunderbird_prefs',
        file: '.thunderbird/p/prefs.js',
        name: 'mail.x',
        rule: { method: 'eq', ref: true },
      },
    },
  );
  assert.equal(mapCheck({ kind: 'thunderbird.pref', file: '.thunderbird/p', name: 'mail.x' }).ok, false);
  assert.equal(mapCheck({ kind: 'thunderbird.pref', name: 'mail.x', value: 1 }).ok, false);
});

test('os.exists / os.absent / os.mode → exact_match over vm_command_line', () => {
  const exists = mapCheck({ kind: 'os.exists', path: 'Work/a b', type: 'dir' });
  assert.ok(exists.ok && exists.shape === 'call');
  assert.deepEqual(exists.call.result.command, [
    'find',
    '/home/user/Work/a b',
    '-maxdepth',
    '0',
    '-printf',
    '%y',
  ]);
  assert.deepEqual(exists.call.expected, { type: 'rule', rules: { expected: 'd' } });
  const absent = mapCheck({ kind: 'os.absent', path: 'x' });
  assert.ok(absent.ok && absent.shape === 'call');
  assert.deepEqual(absent.call.expected, { type: 'rule', rules: { expected: '' } });
  const mode = mapCheck({ kind: 'os.mode', path: 'run.sh', mode: '0755' });
  assert.ok(mode.ok && mode.shape === 'call');
  assert.deepEqual(mode.call.expected, { type: 'rule', rules: { expected: '755' } });
  const link = mapCheck({ kind: 'os.symlink_to', path: 'Desktop/data', to: 'shared/data.csv' });
  assert.ok(link.ok && link.shape === 'call');
  assert.deepEqual(link.call.result.command, ['readlink', '-f', '-n', '--', '/home/user/Desktop/data']);
  assert.equal(commandProblem(link.call.result.command, false), null, 'pack validate accepts it');
  assert.deepEqual(link.call.expected, { type: 'rule', rules: { expected: '/home/user/shared/data.csv' } });
});

test('every other kind is refused with a reason, unknown kinds included', () => {
  for (const kind of Object.keys(CHECK_MAPPINGS)) {
    const m = mapCheck({ kind, file });
    if (!m.ok) assert.ok(m.reason.length > 10, kind);
  }
  const unknown = mapCheck({ kind: 'writer.watermark', file: 'a.docx' });
  assert.ok(!unknown.ok && /no OSWorld metric/.test(unknown.reason));
});

const docx = 'Desktop/report.docx';
const pptx = 'Desktop/deck.pptx';

function comparisons(check: Parameters<typeof mapCheck>[0]): GoldComparison[] {
  const m = mapCheck(check);
  assert.ok(m.ok && m.shape === 'gold', `${check.kind}: ${m.ok ? m.shape : m.reason}`);
  return m.comparisons;
}

// Text checks do not add compare_docx_tables: with no table changed it scores 1 on the untouched file.
test('writer.text_present → compare_docx_files (case as the check) against gold', () => {
  assert.deepEqual(comparisons({ kind: 'writer.text_present', file: docx, text: 'Q3', ignoreCase: true }), [
    { file: docx, func: 'compare_docx_files', options: { ignore_case: true } },
  ]);
  assert.deepEqual(
    comparisons({ kind: 'writer.text_present', file: docx, text: 'Q3' }).map((c) => c.options),
    [{}],
  );
});

test('writer.text_absent → compare_docx_files against gold', () => {
  assert.deepEqual(
    comparisons({ kind: 'writer.text_absent', file: docx, text: 'DRAFT' }).map((c) => c.func),
    ['compare_docx_files'],
  );
});

test('writer.text_replaced → case-sensitive compare_docx_files', () => {
  const c = comparisons({ kind: 'writer.text_replaced', file: docx, old: 'Acme', new: 'Apex' });
  assert.deepEqual(c, [{ file: docx, func: 'compare_docx_files', options: {} }]);
});

test('writer.paragraph_count → compare_docx_files paragraph by paragraph, blank ones dropped', () => {
  assert.deepEqual(comparisons({ kind: 'writer.paragraph_count', file: docx, count: 4 }), [
    {
      file: docx,

      func: 'compare_docx_files',
      options: { ignore_blanks: false, delete_empty_lines: true },
    },
  ]);
});

test('writer.table → compare_docx_tables', () => {
  assert.deepEqual(comparisons({ kind: 'writer.table', file: docx, rows: 3, cells: [] }), [
    { file: docx, func: 'compare_docx_tables', options: {} },
  ]);
});

test('writer.line_spacing → compare_line_spacing', () => {
  assert.deepEqual(
    comparisons({ kind: 'writer.line_spacing', file: docx, paragraph: 'Intro', lineSpacing: 1.5 }),
    [{ file: docx, func: 'compare_line_spacing', options: {} }],
  );
});

test('writer kinds no docx metric reads stay refused', () => {
  for (const kind of [
    'writer.heading',
    'writer.list',
    'writer.alignment',
    'writer.orientation',
    'writer.header_text',
    'writer.footer_text',
    'writer.run_format',
  ]) {
    const m = mapCheck({ kind, file: docx });
    assert.ok(!m.ok && m.reason.length > 10, kind);
  }
});

test('impress deck checks → compare_pptx_files against gold, examining only what a LibreOffice save keeps', () => {
  const options = {
    examine_shape: false,
    examine_alignment: false,
    examine_font_name: false,
    examine_font_size: false,
    examine_bullets: false,
  };
  for (const check of [
    { kind: 'impress.slide_count', file: pptx, count: 3 },
    { kind: 'impress.slide_title', file: pptx, slide: 2, text: 'Plan' },
    { kind: 'impress.slide_body', file: pptx, slide: 2, bullets: ['a'] },
    { kind: 'impress.notes', file: pptx, slide: 1, text: 'say hi' },
    { kind: 'impress.order', file: pptx, titles: ['A', 'B'] },
    { kind: 'impress.font', file: pptx, slide: 1, target: 'title', bold: true },
  ]) {
    assert.deepEqual(comparisons(check), [{ file: pptx, func: 'compare_pptx_files', options }], check.kind);
  }
  // Font names and sizes are not examined, so a font check naming one is the checker's.
  for (const font of [{ font: 'Liberation Serif' }, { size: 28 }, { bold: true, size: 28 }])
    assert.equal(
      mapCheck({ kind: 'impress.font', file: pptx, slide: 1, target: 'title', ...font }).ok,
      false,
    );
  assert.equal(mapCheck({ kind: 'impress.image_present', file: pptx, min: 1 }).ok, false);
  assert.equal(mapCheck({ kind: 'impress.table', file: pptx, slide: 1, cells: [] }).ok, false);
});

test('os.content_equals → exact_match over the base64 of the bytes, "." marking a readable file', () => {
  const m = mapCheck({ kind: 'os.content_equals', path: 'notes/a.txt', content: 'hi\n' });
  assert.ok(m.ok && m.shape === 'call');
  assert.equal(m.call.func, 'exact_match');
  assert.deepEqual(m.call.result.command, [
    'sh',
    '-c',
    'base64 -w0 -- "$1" && printf .',
    'sh',
    '/home/user/notes/a.txt',
  ]);
  assert.deepEqual(m.call.expected, { type: 'rule', rules: { expected: 'aGkK.' } });
  const empty = mapCheck({ kind: 'os.content_equals', path: 'e', base64: '' });
  assert.ok(empty.ok && empty.shape === 'call');
  assert.deepEqual(empty.call.expected, { type: 'rule', rules: { expected: '.' } });
  const trimmed = mapCheck({
    kind: 'os.content_equals',
    path: 'a',
    content: 'x y \n\n',
    ignoreTrailingWhitespace: true,
  });
  assert.ok(trimmed.ok && trimmed.shape === 'call');
  assert.equal((trimmed.call.result.command as string[])[0], 'python3');
  assert.deepEqual(trimmed.call.expected, { type: 'rule', rules: { expected: 'eCB5.' } });
});

test('os.content_matches → check_include_exclude for a plain literal only', () => {
  const m = mapCheck({ kind: 'os.content_matches', path: 'log.txt', pattern: 'status: ok' });
  assert.ok(m.ok && m.shape === 'call');
  assert.equal(m.call.func, 'check_include_exclude');
  assert.deepEqual(m.call.result.command, ['cat', '--', '/home/user/log.txt']);
  assert.deepEqual(m.call.expected, { type: 'rule', rules: { include: ['status: ok'], exclude: [] } });
  for (const pattern of ['^ok$', 'a.b', 'x\\d', 'a|b']) {
    assert.equal(mapCheck({ kind: 'os.content_matches', path: 'p', pattern }).ok, false, pattern);
  }
  assert.equal(mapCheck({ kind: 'os.content_matches', path: 'p', pattern: 'ok', flags: 'i' }).ok, false);
  assert.equal(mapCheck({ kind: 'os.content_matches', path: 'p', pattern: 'a\nb' }).ok, false);
});

/** A Writer task's package input with both states of the report and these checks. */
function writerInput(id: string, checks: Record<string, unknown>[]) {
  const files = (['initial', 'solved'] as const).map((role) => ({
    role,
    vmPath: docx,
    key: `tasks/${id}/${role}/report.docx`,
    bytes: Buffer.from(role),
  }));
  const { input } = calcPackageInput({ id, files, checks: checks as never });
  input.apps = ['writer'];
  for (const a of input.artifacts) a.app = 'writer';
  return { input, files };
}

test('checks on one document collapse into one gold call per metric, saved once', async () => {
  const id = 'b1d2c3e4-0000-4000-8000-000000000001';
  const { input, files } = writerInput(id, [
    { kind: 'writer.text_replaced', file: docx, old: 'Acme', new: 'Apex' },
    { kind: 'writer.text_absent', file: docx, text: 'DRAFT' },
    { kind: 'writer.table', file: docx, rows: 2 },
  ]);
  const pkg = buildTaskPackage(input).taskJson;
  const goldFile = async (key: string) => ({ packPath: `gold/${key}` });
  const checkerFiles = async () => ({
    checker: { packPath: 'c/forge_check.py' },
    checks: { packPath: 'c/checks.json' },
  });
  const out = await toOsworldTask(pkg, { initialFile: goldFile, goldFile, checkerFiles });
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(out.domain, 'libreoffice_writer');
  const evaluator = out.task.evaluator as Record<string, unknown[]>;
  // The gold comparisons, then the checker, which grades every check (the metrics add their verdicts).
  assert.deepEqual(evaluator.func, ['compare_docx_files', 'compare_docx_tables', 'exact_match']);
  assert.deepEqual(evaluator.expected, [
    { type: 'cache_file', path: `gold/tasks/${id}/solved/report.docx` },
    { type: 'cache_file', path: `gold/tasks/${id}/solved/report.docx` },
    { type: 'rule', rules: { expected: 'PASS' } },
  ]);
  const postconfig = evaluator.postconfig as { type: string; parameters: Record<string, unknown> }[];
  assert.deepEqual(
    postconfig.filter((s) => s.type === 'activate_window').map((s) => s.parameters.window_name),
    ['report.docx - LibreOffice Writer'],
  );

  const { input: noGold } = calcPackageInput({
    files: files.slice(0, 1),
    checks: [{ kind: 'writer.table', file: docx, rows: 2 }],
  });
  // Without a gold copy the metric cannot compare; the portable checker grades the check instead.
  const fallback = await toOsworldTask(buildTaskPackage(noGold).taskJson, {
    initialFile: goldFile,
    goldFile,
    checkerFiles,
  });
  assert.ok(fallback.ok, JSON.stringify(fallback));
  assert.equal(fallback.evaluators[0]?.evaluator, CHECKER_EVALUATOR);
  assert.match(fallback.evaluators[0]?.reason ?? '', /no oracle-solved copy/);
  const graded = fallback.task.evaluator as Record<string, unknown>;
  assert.equal(graded.func, 'exact_match');
  assert.deepEqual(graded.result, { type: 'vm_command_line', command: CHECKER_COMMAND, shell: false });
  assert.deepEqual(graded.expected, { type: 'rule', rules: { expected: 'PASS' } });
  const config = fallback.task.config as { type: string; parameters: { files?: unknown[] } }[];
  assert.deepEqual(config.filter((s) => s.type === 'upload_file').at(-1)?.parameters.files, [
    { local_path: 'c/forge_check.py', path: '/home/user/.cache/cua-forge/check/forge_check.py' },
    { local_path: 'c/checks.json', path: '/home/user/.cache/cua-forge/check/checks.json' },
  ]);
  // The document is still saved before it is read.
  assert.ok(
    (graded.postconfig as { type: string }[]).some((s) => s.type === 'activate_window'),
    'the save postconfig stays',
  );
});

test('a gold comparison a proven correct alternative fails (rubric.offGold) is left to the checker', async () => {
  const { input } = writerInput('b1d2c3e4-0000-4000-8000-000000000002', [
    { kind: 'writer.text_replaced', file: docx, old: 'Acme', new: 'Apex' },
    { kind: 'writer.table', file: docx, rows: 2 },
  ]);
  input.rubric.offGold = [{ file: docx, func: 'compare_docx_tables', right: 'price-with-pound-sign' }];
  const loc = async (key: string) => ({ packPath: `gold/${key}` });
  const out = await toOsworldTask(buildTaskPackage(input).taskJson, {
    initialFile: loc,
    goldFile: loc,
    checkerFiles: async () => ({ checker: { packPath: 'c/f.py' }, checks: { packPath: 'c/checks.json' } }),
  });
  assert.ok(out.ok, JSON.stringify(out));
  assert.deepEqual((out.task.evaluator as { func: string[] }).func, ['compare_docx_files', 'exact_match']);
  assert.equal(out.evaluators[1]?.evaluator, CHECKER_EVALUATOR);
  assert.equal(
    out.evaluators[1]?.reason,
    offGoldReason({ file: docx, func: 'compare_docx_tables', right: 'price-with-pound-sign' }),
  );
  assert.match(out.evaluators[1]?.reason ?? '', /"price-with-pound-sign"/);
});

test('compare_table without a gold copy is handed None as expected (an empty rule crashes OSWorld’s compare_table)', async () => {
  const { input, files } = calcPackageInput({
    checks: [{ kind: 'calc.cell_value', file: 'Desktop/sales.xlsx', sheet: 'S', cell: 'A1', value: 5 }],
  });
  // Only the initial workbook: no gold for the metric, which reads cell values alone.
  input.artifacts = input.artifacts.filter((a) => a.role === 'initial');
  const loc = async (key: string) => ({ packPath: `p/${key}` });
  const out = await toOsworldTask(buildTaskPackage(input).taskJson, {
    initialFile: loc,
    goldFile: loc,
    checkerFiles: async () => ({ checker: { packPath: 'c/f.py' }, checks: { packPath: 'c/c.json' } }),
  });
  assert.ok(out.ok && files.length === 2, JSON.stringify(out));
  const evaluator = out.task.evaluator as Record<string, unknown[]>;
  assert.deepEqual(evaluator.func, ['compare_table', 'exact_match']);
  assert.deepEqual(evaluator.expected?.[0], { type: 'rule', rules: null });
});

test('an infeasible task exports with OSWorld’s own infeasible evaluator and ships no checker', async () => {
  const { input } = calcPackageInput({
    checks: [
      { kind: 'os.reported_infeasible' },
      { kind: 'calc.sheet_names', file: 'Desktop/sales.xlsx', names: ['Sales'] },
    ],
  });
  input.expected = 'infeasible';
  const shipped: string[] = [];
  const out = await toOsworldTask(buildTaskPackage(input).taskJson, {
    initialFile: async (key) => ({ packPath: `files/${key}` }),
    goldFile: async (key) => ({ packPath: `gold/${key}` }),
    checkerFiles: async () => {
      shipped.push('checker');
      return { checker: { packPath: 'c/forge_check.py' }, checks: { packPath: 'c/checks.json' } };
    },
  });
  assert.ok(out.ok, JSON.stringify(out));
  assert.deepEqual(out.task.evaluator, { func: 'infeasible' });
  assert.deepEqual(
    out.evaluators.map((e) => [e.kind, e.evaluator]),
    [
      ['os.reported_infeasible', 'infeasible'],
      ['calc.sheet_names', 'infeasible'],
    ],
  );
  assert.deepEqual(shipped, []);
  // The setup still places the workbook the instruction talks about.
  const config = out.task.config as { type: string; parameters: { files?: { path: string }[] } }[];
  assert.equal(
    config.find((s) => s.type === 'upload_file')?.parameters.files?.[0]?.path,
    '/home/user/Desktop/sales.xlsx',
  );

  // The same package without `expected: infeasible` is graded by its checks.
  delete input.expected;
  const feasible = await toOsworldTask(buildTaskPackage(input).taskJson, {
    initialFile: async (key) => ({ packPath: `files/${key}` }),
    goldFile: async (key) => ({ packPath: `gold/${key}` }),
    checkerFiles: async () => ({
      checker: { packPath: 'c/forge_check.py' },
      checks: { packPath: 'c/checks.json' },
    }),
  });
  assert.ok(feasible.ok);
  assert.notDeepEqual(feasible.task.evaluator, { func: 'infeasible' });
  assert.ok(feasible.evaluators.every((e) => e.evaluator !== 'infeasible'));
});

test('a check the untouched state already passes (a guard) gets no metric call: the checker grades it', async () => {
  const checks = [
    { kind: 'calc.cell_value', file: 'Desktop/sales.xlsx', sheet: 'S', cell: 'A1', value: 5 },
    { kind: 'calc.cell_value', file: 'Desktop/sales.xlsx', sheet: 'S', cell: 'B1', value: 'Region' },
  ];
  const loc = async (key: string) => ({ packPath: `p/${key}` });
  const ctx = {
    initialFile: loc,
    goldFile: loc,
    checkerFiles: async () => ({ checker: { packPath: 'c/f.py' }, checks: { packPath: 'c/checks.json' } }),
  };
  const cellsOf = (task: Record<string, unknown>) =>
    JSON.stringify(task.evaluator).match(/"coordinate":"[A-Z]+\d+"/g) ?? [];
  const unguarded = await toOsworldTask(buildTaskPackage(calcPackageInput({ checks }).input).taskJson, ctx);
  assert.ok(unguarded.ok);
  assert.deepEqual(cellsOf(unguarded.task), ['"coordinate":"A1"', '"coordinate":"B1"']);

  const { input } = calcPackageInput({ checks });
  input.rubric.guards = [1];
  const guarded = await toOsworldTask(buildTaskPackage(input).taskJson, ctx);
  assert.ok(guarded.ok);
  // B1 already read "Region" before the task: compare_table over it would score the untouched file 1.
  assert.deepEqual(cellsOf(guarded.task), ['"coordinate":"A1"']);
  assert.equal(guarded.evaluators[1]?.evaluator, CHECKER_EVALUATOR);
  assert.equal(guarded.evaluators[1]?.reason, GUARD_REASON);
  // The checker still grades both checks.
  assert.match(JSON.stringify(guarded.task.evaluator), /exact_match/);
});
