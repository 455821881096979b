import assert from 'node:assert/strict';
import { test } from 'node:test';
import JSZip from 'jszip';
import { type CellSnap, labelCells } from '../../preparers/calc/invariants.ts';
import { applyEdits, preparers, probeCheck } from '../../preparers/registry.ts';
import { GENERIC_RIGHTS } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { type SkillSpec, skillSpecSchema } from '../../skills/schema.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { genericRights, genericRightsBeside } from '../../taskcore/verify/rightSolutions.ts';
import { proveRubric } from '../../taskcore/verify/rubricProof.ts';
import { buildLocalTask, offlineCaller, proveLocally } from '../support/localProof.ts';

/**
 * Correct alternatives (`right:` and the preparers' generic ones): each must pass the whole rubric
 * with our probes and with the shipped checker, and a rubric that fails one rejects the task,
 * naming it.
 */
const library = loadSkillLibrary();
const specOf = (id: string): SkillSpec => {
  const l = library.get(id);
  if (!l) throw new Error(`no skill ${id} in the library`);
  return l.spec;
};

/** The spec with its solve node's declared rights replaced (and the rubric patched, when given). */
function withRights(
  spec: SkillSpec,
  right: { name: string; edits: unknown[] }[],
  rubric: Partial<SkillSpec['rubric']> = {},
): SkillSpec {
  const raw = structuredClone(spec) as unknown as { nodes: Record<string, unknown>[]; rubric: object };
  for (const n of raw.nodes) if ('solve' in n) n.right = right;
  raw.rubric = { ...raw.rubric, ...rubric };
  return skillSpecSchema.parse(raw);
}

test('declared and generic correct alternatives pass our probes and the shipped checker (export gate)', async () => {
  const spec = specOf('calc.formulas.sum-column');
  const a = await authorTask(spec, 3, offlineCaller, { level: 'goal', roundId: 'rights', taskIndex: 0 });
  assert.ok(a.ok);
  const p = await prepareInMemory(spec, 'file', a.context);
  assert.ok(p.ok, p.ok ? '' : `${p.reason}: ${p.detail}`);
  const names = (p.stats.right ?? []).map((r) => r.name);
  assert.deepEqual(names.sort(), [
    'calc-absolute-refs',
    'calc-formula-spelling',
    'calc-result-label',
    'header-in-range',
    'subtotal',
    'total-labelled',
  ]);
  assert.equal(p.stats.rightTried, 6);
  assert.equal(p.stats.rightPassed, 6);
  // The gate graded initial, oracle, every wrong solution, every mutant tried and every correct alternative.
  assert.equal(p.stats.exportStates, 2 + p.stats.wrongTried + p.stats.mutants!.tried + 6);
  assert.ok(p.runs.some((r) => r.nodeId === 'verify_right_passes' && r.status === 'ok'));
});

/** The total cell of calc.formulas.sum-column, for alternatives written into it. */
const sumCell = {
  op: 'calc.set_formula',
  file: '{{params.folder}}/{{scenario.file_name}}.xlsx',
  sheet: '{{scenario.sheet}}',
  cell: '{{derived.cell}}',
};

test('a correct alternative the rubric fails rejects the task rubric_rejects_right, naming it and the check', async () => {
  const spec = specOf('calc.formulas.sum-column');
  // Declared "right" but one row short: a spec error the proof must name, not accept.
  const bad = withRights(spec, [
    { name: 'subtotal', edits: [{ ...sumCell, formula: 'SUBTOTAL(9,B2:B{{derived.last_row}})' }] },
    { name: 'short-range', edits: [{ ...sumCell, formula: 'SUM(B2:B{{derived.last_row - 1}})' }] },
  ]);
  const p = await proveLocally(bad, 1);
  assert.equal(p.ok, false);
  if (p.ok) return;
  assert.equal(p.reason, 'rubric_rejects_right');
  assert.equal(p.node, 'verify_right_passes');
  assert.match(p.detail, /"short-range"/);
  assert.match(p.detail, /calc\.cell_value/);
  assert.match(p.detail, /calc\.formula/);
  assert.doesNotMatch(p.detail, /"subtotal"/);
  const failed = p.stats?.right?.filter((r) => !r.passed).map((r) => r.name);
  assert.deepEqual(failed, ['short-range']);
  assert.equal(p.stats?.rightPassed, (p.stats?.rightTried ?? 0) - 1);
});

test("an alternative that leaves the oracle's own files passes but is counted apart: it proves no new state", async () => {
  const spec = specOf('calc.formulas.sum-column');
  const solve = spec.nodes.find((n) => 'solve' in n) as { solve: { op: string }[] };
  const p = await proveLocally(
    withRights(spec, [
      { name: 'oracle-again', edits: solve.solve },
      { name: 'subtotal', edits: [{ ...sumCell, formula: 'SUBTOTAL(9,B2:B{{derived.last_row}})' }] },
    ]),
    1,
  );
  assert.ok(p.ok, p.ok ? '' : `${p.reason}: ${p.detail}`);
  const byName = new Map((p.stats?.right ?? []).map((r) => [r.name, r]));
  assert.equal(byName.get('oracle-again')?.sameAsOracle, true);
  assert.equal(byName.get('subtotal')?.sameAsOracle, false);
  assert.equal(p.stats?.rightSameAsOracle, 1);
  assert.equal(p.stats?.rightPassed, p.stats?.rightTried);
});

test('a text label beside a new result is a declared freedom of the Calc invariant; a number there is not', async () => {
  const before = new Map<string, CellSnap>([
    ['A1', { v: 'Item' }],
    ['B1', { v: 'Amount' }],
    ['A2', { v: 'Paper' }],
    ['B2', { v: 4 }],
  ]);
  const after = new Map<string, CellSnap>([...before, ['B3', { v: 4, f: true }]]);
  assert.deepEqual(labelCells(before, after), ['A3']);
  // A filled column of results has its labels beside it already: no label cells.
  const column = new Map<string, CellSnap>(before);
  for (let r = 1; r <= 5; r++) column.set(`D${r}`, { v: r, f: true });
  assert.deepEqual(labelCells(before, column), []);
  const task = await buildLocalTask(specOf('calc.formulas.sum-column'), 1);
  const file = Object.keys(task.solved).find((f) => f.endsWith('.xlsx'))!;
  const unchanged = (await preparers.calc.invariants(task.initial, task.solved, [file])).find(
    (c) => c.kind === 'calc.unchanged',
  ) as { labels?: string[] } | undefined;
  const label = unchanged?.labels?.[0];
  assert.ok(label, 'the total under the column gets the label cell to its left');
  const sheet = (task.m.edits[0] as unknown as { sheet: string }).sheet;
  for (const [value, pass] of [
    ['Total', true],
    [123, false],
  ] as const) {
    const files = await applyEdits(task.solved, [
      { op: 'calc.set_value', file, sheet, cell: label, value } as never,
    ]);
    const v = await probeCheck(files, unchanged as never);
    assert.equal(v.pass, pass, `${JSON.stringify(value)} in ${label}: ${JSON.stringify(v.observed)}`);
  }
});

test('a skill turns a generic correct alternative off with a reason; the others still run', async () => {
  const spec = specOf('calc.formulas.sum-column');
  const off = withRights(spec, [], {
    generic_right_off: [{ name: 'calc-absolute-refs', reason: 'measuring the opt-out in a test' }],
  });
  const p = await proveLocally(off, 1);
  assert.ok(p.ok, p.ok ? '' : `${p.reason}: ${p.detail}`);
  assert.deepEqual(
    p.stats.right?.map((r) => r.name),
    ['calc-formula-spelling', 'calc-result-label'],
  );
  assert.throws(
    () =>
      withRights(spec, [], {
        generic_right_off: [{ name: 'no-such-right' as never, reason: 'a typo in a spec' }],
      }),
    /generic_right_off/,
  );
});

test('generic correct alternatives spell formulas differently and leave other edits alone', () => {
  const edits: { op: string; [k: string]: unknown }[] = [
    { op: 'calc.set_value', file: 'a.xlsx', sheet: 'S', cell: 'C1', value: 'Share' },
    { op: 'calc.set_formula', file: 'a.xlsx', sheet: 'S', cell: 'B10', formula: '=SUMIF(A2:A9,"x",B2:B9)' },
    { op: 'os.write_file', path: 'n.txt', content: 'x' },
    { op: 'calc.fill_formula', file: 'a.xlsx', sheet: 'S', range: 'C2:C9', formula: "B2/'My data'!B$10" },
  ];
  const rights = Object.fromEntries(genericRights(edits).map((r) => [r.name, r.edits]));
  const formulaAt = (name: string, i: number) =>
    (rights[name]?.[i] as { formula?: string } | undefined)?.formula;
  assert.deepEqual(
    rights['calc-formula-spelling']?.map((e) => (e as { formula?: string }).formula),
    [undefined, 'sumif(A2:A9, "x", B2:B9)', undefined, "B2 / 'My data'!B$10"],
  );
  assert.equal(formulaAt('calc-absolute-refs', 1), 'SUMIF($A$2:$A$9,"x",$B$2:$B$9)');
  // A filled formula keeps its relative references: absolute ones would change what each row reads.
  assert.equal(formulaAt('calc-absolute-refs', 3), "B2/'My data'!B$10");
  assert.deepEqual(rights['calc-formula-spelling']?.[2], edits[2]);
  // Cells that a later edit moves (a sort) keep the oracle's references.
  assert.equal(
    genericRights([
      ...edits,
      { op: 'calc.sort_range', file: 'a.xlsx', sheet: 'S', range: 'A1:C9', by: [] },
    ]).some((r) => r.name === 'calc-absolute-refs'),
    false,
  );
});

test("generic Calc alternative: typed text with AutoCorrect's curly quotes, formulas and plain text left alone", () => {
  const edits = [
    {
      op: 'calc.set_values',
      file: 'a.xlsx',
      sheet: 'S',
      cell: 'B2',
      values: [
        ["O'Brien", 'Aoife'],
        ['Walsh', 12],
      ],
    },
    { op: 'calc.set_value', file: 'a.xlsx', sheet: 'S', cell: 'C1', value: 'Share' },
    { op: 'calc.set_formula', file: 'a.xlsx', sheet: 'S', cell: 'D2', formula: 'IF(A2="x","y\'s","")' },
  ];
  const curled = genericRights(edits).find((r) => r.name === 'calc-autocorrect-quotes')?.edits;
  assert.deepEqual(curled, [
    {
      ...edits[0],
      values: [
        ['O\u2019Brien', 'Aoife'],
        ['Walsh', 12],
      ],
    },
    edits[1],
    edits[2],
  ]);
  assert.equal(
    genericRights(edits.slice(1)).some((r) => r.name === 'calc-autocorrect-quotes'),
    false,
    'no typed quote, no alternative',
  );
});

test('generic Calc alternative: a label typed beside each new result, only where that cell is empty', async () => {
  const C = preparers.calc;
  const FILE = 'Documents/costs.xlsx';
  const initial = await C.build(
    FILE,
    C.docSchema.parse({
      sheets: [
        {
          name: 'Costs',
          columns: [
            { header: 'Item', type: 'text' },
            { header: 'Amount', type: 'number' },
          ],
          rows: [
            ['Paper', 4],
            ['Toner', 60],
          ],
        },
      ],
    }),
  );
  const on = { file: FILE, sheet: 'Costs' };
  const oracle = [
    C.editSchema.parse({ op: 'calc.set_formula', ...on, cell: 'B5', formula: 'SUM(B2:B3)' }),
    C.editSchema.parse({ op: 'calc.set_formula', ...on, cell: 'B6', formula: 'MAX(B2:B3)' }),
    // Its left neighbour already holds text: no label goes there.
    C.editSchema.parse({ op: 'calc.set_value', ...on, cell: 'C1', value: 'Note' }),
    C.editSchema.parse({ op: 'calc.set_formula', ...on, cell: 'D1', formula: 'MIN(B2:B3)' }),
  ];
  const solved = await applyEdits(initial, oracle);
  const [right, ...more] = await genericRightsBeside(initial, solved, oracle);
  assert.equal(more.length, 0);
  assert.equal(right?.name, 'calc-result-label');
  assert.deepEqual(right.edits.slice(0, oracle.length), oracle);
  assert.deepEqual(
    right.edits
      .slice(oracle.length)
      .map((e) => [(e as unknown as { cell: string }).cell, (e as unknown as { value: string }).value]),
    [
      ['A5', 'Total'],
      ['A6', 'Highest'],
    ],
  );
  // It passes the Calc invariant of the task; a skill can turn it off.
  const files = await applyEdits(initial, right.edits);
  for (const check of await C.invariants(initial, solved, [FILE]))
    assert.ok((await probeCheck(files, check as never)).pass, JSON.stringify(check).slice(0, 200));
  assert.deepEqual(await genericRightsBeside(initial, solved, oracle, ['calc-result-label']), []);
});

test("generic Writer alternatives: an inserted table's header row as LibreOffice's dialogs leave it", async () => {
  const W = preparers.writer;
  const FILE = 'Documents/t.docx';
  const initial = await W.build(
    FILE,
    W.docSchema.parse({ blocks: [{ type: 'paragraph', runs: [{ text: 'Our suppliers:' }] }] }),
  );
  const insert = W.editSchema.parse({
    op: 'writer.insert_table',
    file: FILE,
    after: 'Our suppliers:',
    rows: [
      ['Name', 'Phone'],
      ['Ann Lee', '01632 960123'],
    ],
  });
  const other: { op: string } = { op: 'os.write_file', path: 'n.txt', content: 'x' } as { op: string };
  const rights = genericRights([insert, other]);
  assert.deepEqual(
    rights.map((r) => r.name),
    ['writer-table-header-plain', 'writer-table-header-centred'],
  );
  const headerXml = async (edits: { op: string }[]) => {
    const files = await applyEdits(
      initial,
      edits.filter((e) => e.op.startsWith('writer.')),
    );
    const xml = await (await JSZip.loadAsync(files[FILE]!)).file('word/document.xml')!.async('string');
    return /<w:tr>.*?<\/w:tr>/s.exec(xml.slice(xml.indexOf('<w:tbl>')))![0];
  };
  assert.match(await headerXml([insert]), /<w:b\/>/);
  const plain = await headerXml(rights[0]!.edits);
  assert.doesNotMatch(plain, /<w:b\/>|<w:jc /);
  assert.match(plain, /Name/);
  assert.match(await headerXml(rights[1]!.edits), /<w:jc w:val="center"\/>.*<w:b\/>/s);
  // The other app's edit is the oracle's; a table whose header the oracle set is left alone.
  assert.equal(rights[0]!.edits[1], other);
  assert.deepEqual(genericRights([{ ...insert, header: 'plain' } as { op: string }]), []);
});

test('every generic correct alternative passes on every skill it applies to (one seed each)', async () => {
  const failed: string[] = [];
  const seen = new Set<string>();
  for (const { spec } of library.values()) {
    const task = await buildLocalTask(spec, 1);
    const off = task.m.genericRightOff;
    if (genericRights(task.m.edits, off).length === 0) continue;
    // Only the generic ones: the declared ones are proved with each skill's own tasks.
    const p = await proveRubric({ ...task.m, right: [] }, task.initial, task.solved, task.owner);
    for (const r of p.stats?.right ?? []) {
      // A declared freedom's variants (`free: …`) are proved here too, but they are the skill's, not generic.
      if (!r.name.startsWith('free: ')) seen.add(r.name);
      if (!r.passed) failed.push(`${spec.id} ${r.name}: ${r.failing.join('; ').slice(0, 300)}`);
    }
    if (!p.ok && p.reason !== 'rubric_rejects_right')
      failed.push(`${spec.id}: ${p.reason}: ${p.detail.slice(0, 300)}`);
  }
  assert.deepEqual(failed, []);
  assert.deepEqual(
    [...seen].sort(),
    [...GENERIC_RIGHTS].sort(),
    'the library exercises every generic alternative',
  );
});

test("a composite keeps its steps' correct alternatives: that step done its other way, the others as the oracle", () => {
  const spec = specOf('composite.calc-thunderbird.total-to-mail');
  const right = spec.nodes.flatMap((n) => ('solve' in n ? n.right : []));
  const subtotal = right.find((r) => r.name.endsWith('-subtotal'));
  assert.ok(subtotal, `rights: ${right.map((r) => r.name).join(', ')}`);
  const ops = (subtotal.edits as { op: string }[]).map((e) => e.op.split('.')[0]);
  assert.ok(ops.includes('calc') && ops.includes('thunderbird'), `ops: ${ops.join(', ')}`);
});

test('a correct alternative limited to levels is tried only at those levels', async () => {
  const spec = specOf('calc.formulas.sum-column');
  const limited = withRights(spec, [
    { name: 'subtotal', edits: [{ ...sumCell, formula: 'SUBTOTAL(9,B2:B{{derived.last_row}})' }] },
    {
      name: 'header-in-range',
      edits: [{ ...sumCell, formula: 'SUM(B1:B{{derived.last_row}})' }],
      levels: ['goal'],
    },
  ] as { name: string; edits: unknown[] }[]);
  for (const [level, want] of [
    ['explicit', ['subtotal']],
    ['goal', ['header-in-range', 'subtotal']],
  ] as const) {
    const a = await authorTask(limited, 5, offlineCaller, { level });
    assert.ok(a.ok);
    const m = await materializeTask(limited, a.context);
    assert.deepEqual(m.right.map((r) => r.name).sort(), want);
  }
});
