import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import type { Component } from '../../skills/compose.ts';
import { type ComponentResolver, loadSpecFile, parseSpec, SpecError } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { isLevelledNode } from '../../skills/schema.ts';
import { evaluate, jsonataSandbox } from '../../skills/template.ts';
import { untrustedSpecProblems } from '../../skills/untrusted.ts';
import { offlineCaller, proveLocally } from '../support/localProof.ts';

const skills = path.join(import.meta.dirname, '../../skills');
const compositeFile = path.join(skills, 'composite/composite.calc-writer.total-into-budget.yaml');
const compositeText = readFileSync(compositeFile, 'utf8');
const sum = loadSpecFile(path.join(skills, 'calc/calc.formulas.sum-column.yaml'));
const fill = loadSpecFile(path.join(skills, 'writer/writer.tables.fill-cell.yaml'));
const infeasible = loadSpecFile(path.join(skills, 'calc/calc.infeasible.total-missing-column.yaml'));
const components: Record<string, Component> = {
  [infeasible.spec.id]: { spec: infeasible.spec, sha256: infeasible.sha256 },
  [sum.spec.id]: { spec: sum.spec, sha256: sum.sha256 },
  [fill.spec.id]: { spec: fill.spec, sha256: fill.sha256 },
  'composite.some.other': { composite: true },
};
const resolve: ComponentResolver = (id) => components[id];

/** Parsed YAML and task contexts are walked freely here. */
// biome-ignore lint/suspicious/noExplicitAny: free-form test data
type Loose = any;

/** The composite's YAML with one change applied to its parsed value. */
function variant(change: (doc: Record<string, Loose>) => void): string {
  const doc = parse(compositeText) as Record<string, Loose>;
  change(doc);
  return stringify(doc);
}

function problemsOf(text: string, r: ComponentResolver = resolve): string {
  try {
    parseSpec(text, 'skills/composite/bad.yaml', r);
  } catch (err) {
    assert.ok(err instanceof SpecError, String(err));
    return err.message;
  }
  assert.fail('the composite was accepted');
}

after(() => jsonataSandbox.close());

describe('composite expansion', () => {
  const loaded = parseSpec(compositeText, compositeFile, resolve);
  const { spec } = loaded;

  test('expands into an ordinary spec: step nodes, scoped step nodes, one levelled instruction node', () => {
    assert.equal(loaded.composite, true);
    const steps = spec.nodes.filter((n) => 'step' in n).map((n) => n.id);
    assert.deepEqual(steps, ['sheet', 'memo']);
    const levelled = spec.nodes.filter((n) => 'llm' in n && isLevelledNode(n.llm));
    assert.equal(levelled.length, 1);
    assert.equal(levelled[0]!.id, 'instruction');
    assert.equal('scope' in levelled[0]! ? levelled[0]!.scope : undefined, undefined);
    const scoped = spec.nodes.flatMap((n) => ('scope' in n && n.scope ? [`${n.scope}.${n.id}`] : []));
    assert.ok(scoped.includes('sheet.derived') && scoped.includes('memo.derived'), scoped.join(','));
    // The steps' own instruction nodes are not used.
    assert.ok(!scoped.includes('sheet.instruction') && !scoped.includes('memo.instruction'));
    assert.deepEqual(spec.apps, ['calc', 'writer']);
  });

  test('combines the rubric: the steps’ checks (marked with their scope), then the hand-off checks', () => {
    assert.equal(
      spec.rubric.checks.length,
      sum.spec.rubric.checks.length + fill.spec.rubric.checks.length + 1,
    );
    assert.match(JSON.stringify(spec.rubric.checks[0]), /\{\{@sheet: params\.folder\}\}/);
    // The memo's items point at the memo's checks, shifted past the sheet's.
    const memoItem = spec.rubric.items.find(
      (i) => i.text.includes('@memo:') && !i.checks.includes('invariants'),
    )!;
    assert.deepEqual(memoItem.checks, [sum.spec.rubric.checks.length]);
    const own = spec.rubric.items.at(-1)!;
    assert.deepEqual(own.checks, [spec.rubric.checks.length - 1]);
  });

  test('lifts every step wrong solution (that step wrong, the others right) and adds its own', () => {
    const wrong = spec.nodes.flatMap((n) => ('solve' in n ? n.wrong : []));
    const names = wrong.map((w) => w.name);
    for (const w of sum.spec.nodes.flatMap((n) => ('solve' in n ? n.wrong : [])))
      assert.ok(names.includes(`sheet-${w.name}`), `sheet-${w.name}`);
    for (const own of ['sheet-only', 'memo-only', 'stale-total', 'total-as-paragraph'])
      assert.ok(names.includes(own), own);
    const lifted = wrong.find((w) => w.name === 'sheet-typed-total')!;
    // The sheet's wrong edit, then the memo's oracle edit.
    assert.deepEqual(
      lifted.edits.map((e) => (e as { op: string }).op),
      ['calc.set_value', 'writer.fill_table_cell'],
    );
    assert.deepEqual(
      wrong.find((w) => w.name === 'memo-only')!.edits.map((e) => (e as { op: string }).op),
      ['writer.fill_table_cell'],
    );
  });

  test('the spec hash changes when a component changes, though the composite file did not', () => {
    const changed = { ...fill.spec, title: `${fill.spec.title} (revised)` };
    const again = parseSpec(compositeText, compositeFile, (id) =>
      id === fill.spec.id ? { spec: changed, sha256: 'f'.repeat(64) } : resolve(id),
    );
    assert.notEqual(again.sha256, loaded.sha256);
    assert.equal(parseSpec(compositeText, compositeFile, resolve).sha256, loaded.sha256);
  });

  test('the scope mark passes the static checks of untrusted specs (its expression is parsed)', () => {
    assert.deepEqual(untrustedSpecProblems(spec), []);
  });

  test('authoring keeps each step in its scope and binds the hand-off into the next step', async () => {
    const authored = await authorTask(spec, 4242, offlineCaller, { level: 'natural' });
    assert.ok(authored.ok, authored.ok ? '' : `${authored.node}: ${authored.detail}`);
    const ctx = authored.context as Record<string, Loose>;
    // The step's own nodes live in its scope, not at the root.
    assert.equal(ctx.derived, undefined);
    assert.equal(typeof ctx.sheet.derived.total, 'number');
    assert.equal(ctx.memo.params.kind, 'budget');
    assert.equal(ctx.memo.params.folder, ctx.sheet.params.folder);
    assert.equal(ctx.memo.derived.missing, ctx.sheet.derived.total.toFixed(2));
    // A JSONata expression of a step, `$$` included, sees the step's context.
    assert.equal(
      await evaluate('@sheet: $round($sum(data.records.amount), 2)', ctx),
      ctx.sheet.derived.total,
    );
    assert.equal(await evaluate('@memo: $$.derived.item', ctx), ctx.memo.derived.item);
    // Later values of the bound node still see the bound value's neighbours: the blank row is the picked one.
    assert.equal(ctx.memo.derived.rows[ctx.memo.pick.idx][2], '');
    const m = await materializeTask(spec, authored.context);
    assert.match(m.instruction, new RegExp(ctx.memo.derived.item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.deepEqual(
      m.prepares.map((p) => p.nodeId),
      ['sheet.workbook', 'memo.document'],
    );
    const check = m.checks.at(-1) as unknown as { cells: { text: string }[] };
    assert.equal(check.cells[0]!.text, ctx.sheet.derived.total.toFixed(2));
  });

  test('verification: the oracle passes, the initial state fails, every wrong solution is rejected', async () => {
    const proof = await proveLocally(spec, 77);
    assert.ok(proof.ok, proof.ok ? '' : `${proof.reason}: ${proof.detail}`);
  });
});

describe('long workflows: up to eight steps', () => {
  /** The fixture's two steps repeated as `sheet1, memo1, sheet2, memo2, …`: each memo quotes its sheet's total. */
  function chain(pairs: number): string {
    return variant((d) => {
      d.compose.steps = Array.from({ length: pairs }, (_, k) => [
        { as: `sheet${k + 1}`, skill: sum.spec.id },
        {
          as: `memo${k + 1}`,
          skill: fill.spec.id,
          bind: {
            'params.kind': "{{'budget'}}",
            'derived.missing': `{{$formatNumber(sheet${k + 1}.derived.total, '0.00')}}`,
          },
        },
      ]).flat();
      // The hand-off checks and wrong solutions name the first pair.
      d.rubric.checks = JSON.parse(
        JSON.stringify(d.rubric.checks).replaceAll('sheet.', 'sheet1.').replaceAll('memo.', 'memo1.'),
      );
      d.wrong = JSON.parse(
        JSON.stringify(d.wrong).replaceAll('sheet.', 'sheet1.').replaceAll('memo.', 'memo1.'),
      );
      for (const w of d.wrong)
        w.steps = Object.fromEntries(Object.entries(w.steps ?? {}).map(([k, v]) => [`${k}1`, v]));
      d.nodes = JSON.parse(
        JSON.stringify(d.nodes).replaceAll('sheet.', 'sheet1.').replaceAll('memo.', 'memo1.'),
      );
    });
  }
  // A step skill that needs two features (say a filter and a chart) counts twice in the composite's depth.
  const deeper: ComponentResolver = (id) =>
    id === sum.spec.id ? { spec: { ...sum.spec, features: 2 }, sha256: sum.sha256 } : resolve(id);

  test('eight steps expand in order; every step’s checks and wrong solutions are lifted', () => {
    const { spec } = parseSpec(chain(4), compositeFile, resolve);
    assert.deepEqual(
      spec.nodes.filter((n) => 'step' in n).map((n) => n.id),
      ['sheet1', 'memo1', 'sheet2', 'memo2', 'sheet3', 'memo3', 'sheet4', 'memo4'],
    );
    const per = sum.spec.rubric.checks.length + fill.spec.rubric.checks.length;
    assert.equal(spec.rubric.checks.length, 4 * per + 1);
    const names = spec.nodes.flatMap((n) => ('solve' in n ? n.wrong.map((w) => w.name) : []));
    for (const as of ['sheet4', 'memo3'])
      assert.ok(
        names.some((n) => n.startsWith(`${as}-`)),
        as,
      );
    // A step's lifted wrong solution keeps the seven other steps right.
    const lifted = spec.nodes
      .flatMap((n) => ('solve' in n ? n.wrong : []))
      .find((w) => w.name === 'memo3-row-above')!;
    assert.equal(lifted.edits.length, 8);
  });

  test('the composite’s features sum its steps’ (a plain step counts 1)', () => {
    assert.equal(parseSpec(chain(4), compositeFile, resolve).spec.features, 8);
    assert.equal(parseSpec(chain(4), compositeFile, deeper).spec.features, 12);
    assert.equal(parseSpec(chain(3), compositeFile, deeper).spec.features, 9);
    assert.equal(parseSpec(compositeText, compositeFile, deeper).spec.features, 3);
  });

  test('a long workflow is authored: six steps, each bound to its own sheet', async () => {
    const { spec } = parseSpec(chain(3), compositeFile, resolve);
    const authored = await authorTask(spec, 99, offlineCaller, { level: 'explicit' });
    assert.ok(authored.ok, authored.ok ? '' : `${authored.node}: ${authored.detail}`);
    const ctx = authored.context as Record<string, Loose>;
    for (const k of [1, 2, 3])
      assert.equal(ctx[`memo${k}`].derived.missing, ctx[`sheet${k}`].derived.total.toFixed(2));
  });

  test('more than eight steps, or one, are refused', () => {
    const nine = variant((d) => {
      d.compose.steps = Array.from({ length: 9 }, (_, k) => ({ as: `s${k}`, skill: sum.spec.id }));
    });
    assert.match(problemsOf(nine), /compose\.steps.*2 to 8 steps/);
    const one = variant((d) => {
      d.compose.steps = d.compose.steps.slice(0, 1);
    });
    assert.match(problemsOf(one), /2 to 8 steps/);
  });
});

describe('bad composites name the file and the step', () => {
  test('an unknown skill id', () => {
    const msg = problemsOf(variant((d) => (d.compose.steps[1].skill = 'writer.tables.no-such-skill')));
    assert.match(msg, /bad\.yaml/);
    assert.match(
      msg,
      /compose\.steps\[1\]\.skill.*step memo: unknown skill id "writer\.tables\.no-such-skill"/,
    );
  });

  test('a binding to a param or value the step does not have', () => {
    const msg = problemsOf(
      variant((d) => (d.compose.steps[1].bind['derived.price'] = '{{sheet.derived.total}}')),
    );
    assert.match(msg, /step memo: writer\.tables\.fill-cell has no param or node value "derived\.price"/);
  });

  test('a binding that reads a later step (a cycle)', () => {
    const msg = problemsOf(
      variant((d) => (d.compose.steps[0].bind = { 'params.folder': '{{memo.params.folder}}' })),
    );
    assert.match(msg, /step sheet: the binding reads step memo, which runs later \(a cycle\)/);
  });

  test('a composite as a step', () => {
    const msg = problemsOf(variant((d) => (d.compose.steps[0].skill = 'composite.some.other')));
    assert.match(msg, /step sheet: composite\.some\.other is itself a composite/);
  });

  test('an infeasible skill as a step', () => {
    const msg = problemsOf(variant((d) => (d.compose.steps[0].skill = infeasible.spec.id)));
    assert.match(msg, /step sheet: calc\.infeasible\.total-missing-column is an infeasible skill/);
  });

  test('a binding that reads one of the composite’s own nodes (they run after the steps)', () => {
    const msg = problemsOf(
      variant((d) => (d.compose.steps[1].bind['params.folder'] = '{{instruction.text}}')),
    );
    assert.match(
      msg,
      /step memo: the binding reads the composite's node instruction, which runs after the steps/,
    );
  });

  test('a wrong solution naming a step wrong solution that does not exist', () => {
    const msg = problemsOf(variant((d) => (d.wrong[0].steps = { sheet: 'no-such-wrong' })));
    assert.match(
      msg,
      /wrong sheet-only: step sheet \(calc\.formulas\.sum-column\) has no wrong solution "no-such-wrong"/,
    );
  });

  test('fewer than three wrong solutions of its own, and a second levelled node', () => {
    const msg = problemsOf(
      variant((d) => {
        d.wrong = d.wrong.slice(0, 2);
      }),
    );
    assert.match(msg, /at least 3 wrong solutions/);
    const two = problemsOf(variant((d) => d.nodes.push({ ...d.nodes[0], id: 'again' })));
    assert.match(two, /exactly one levelled instruction node/);
  });

  test('without the library, a composite cannot be resolved', () => {
    assert.throws(() => parseSpec(compositeText, 'x.yaml'), /needs the skill library/);
  });
});
