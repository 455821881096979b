import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import { type SkillSpec, skillSpecSchema } from '../../skills/schema.ts';
import { deriveMutants } from '../../taskcore/verify/mutants.ts';
import { proveLocally } from '../support/localProof.ts';

/**
 * The mutation adversary (taskcore/verify/mutants.ts): near misses of the oracle's edits that a
 * rubric must fail. A weak rubric is rejected `rubric_accepts_mutant` with the survivor named; a
 * declared freedom turns its field's variants into correct alternatives; kills are counted honestly.
 */
const library = loadSkillLibrary();
const specOf = (id: string): SkillSpec => library.get(id)!.spec;

/** The spec with its rubric's checks replaced (raw, templated) and the named wrong solutions dropped. */
function withChecks(spec: SkillSpec, checks: unknown[], dropWrong: string[]): SkillSpec {
  const raw = structuredClone(spec) as unknown as {
    rubric: Record<string, unknown>;
    nodes: { wrong?: { name: string }[] }[];
  };
  raw.rubric = { ...raw.rubric, checks };
  for (const n of raw.nodes) if (n.wrong) n.wrong = n.wrong.filter((w) => !dropWrong.includes(w.name));
  return skillSpecSchema.parse(raw);
}

test('edit-level mutants: target moved, comparison flipped, range narrowed, attribute added, an edit left out', async () => {
  const edits = [
    {
      op: 'calc.conditional_format',
      file: 'Desktop/a.xlsx',
      sheet: 'S',
      range: 'C2:C9',
      rule: { operator: 'greaterThan', values: [500], fill: 'FFC7CE' },
    },
    { op: 'calc.set_style', file: 'Desktop/a.xlsx', sheet: 'S', range: 'A1:C1', bold: true },
    { op: 'calc.set_value', file: 'Desktop/a.xlsx', sheet: 'S', cell: 'B10', value: 'Total' },
  ];
  const { mutants } = await deriveMutants(edits, {}, [], 64);
  const names = mutants.map((m) => m.name);
  for (const want of [
    /#1 range: C2:C9 → C2:C8/,
    /#1 rule\.operator: greaterThan → greaterThanOrEqual/,
    /#1 rule\.values: \[500\] → each one more/,
    /#2 italic too/,
    /#3 cell: B10 → B11/,
    /#3 value: "Total" mistyped/,
    /#2 left out/,
  ])
    assert.ok(
      names.some((n) => want.test(n)),
      `no mutant matches ${want}: ${names.join(' | ')}`,
    );
  // Each mutant changes one thing: the rest of the oracle's edits are kept as they are.
  const moved = mutants.find((m) => /cell: B10 → B11/.test(m.name))!;
  assert.deepEqual(moved.edits.slice(0, 2), edits.slice(0, 2));
  assert.equal(moved.edit, 2);
  // Every edit is attacked even under a small cap (round-robin over the edits).
  const few = (await deriveMutants(edits, {}, [], 3)).mutants;
  assert.deepEqual(
    few.map((m) => m.edit),
    [0, 1, 2],
  );
});

test('a declared freedom is not mutated: its variants become correct alternatives', async () => {
  const edits = [{ op: 'writer.insert_page_number', file: 'a.docx', where: 'footer', alignment: 'center' }];
  const bound = await deriveMutants(edits, {});
  assert.ok(bound.mutants.some((m) => /alignment: center → right/.test(m.name)));
  assert.equal(bound.freeRights.length, 0);
  const free = await deriveMutants(edits, {}, [{ edit: 0, field: 'alignment' }]);
  assert.ok(!free.mutants.some((m) => /alignment/.test(m.name)));
  assert.deepEqual(
    free.freeRights.map((r) => r.name),
    ['free: writer.insert_page_number #1 alignment: center → right'],
  );
});

test('a rubric blind to an attribute not asked for is rejected rubric_accepts_mutant, naming the near miss', async () => {
  const spec = specOf('calc.styles.highlight-row');
  const strong = await proveLocally(spec, 1);
  assert.ok(strong.ok, strong.ok ? '' : `${strong.reason}: ${strong.detail}`);
  // With the invariants, the italic row is caught by a check the untouched state passes.
  const m = strong.stats.mutants!;
  assert.ok(m.tried > 0 && m.killed === m.tried, JSON.stringify(m));
  assert.ok(m.discriminating > 0);
  assert.deepEqual(m.survivors, []);
  assert.deepEqual(m.editsWithoutDiscriminatingKill, []);

  // Without them only the requested bold and fill are checked: bold, italic and filled passes (the
  // wrong solutions that only the invariants catch, and the generic select-all, are taken out so
  // that the adversary is what catches the weakness).
  const raw = structuredClone(spec) as unknown as { rubric: Record<string, unknown> };
  raw.rubric = {
    ...raw.rubric,
    generic_ok: [{ name: 'bulk-everything', reason: 'measuring the adversary alone in a test' }],
  };
  const weak = await proveLocally(
    withChecks(skillSpecSchema.parse(raw), spec.rubric.checks, ['whole-table-highlighted']),
    1,
    { invariants: false },
  );
  assert.equal(weak.ok, false);
  if (weak.ok) return;
  assert.equal(weak.reason, 'rubric_accepts_mutant');
  assert.equal(weak.node, 'verify_mutants_fail');
  assert.match(weak.detail, /calc\.set_style #1 italic too/);
  assert.ok(weak.stats?.mutants?.survivors.some((s) => /italic too/.test(s)));
});

test('a check that ignores the comparison is rejected even with no wrong solution for it: the flipped operator survives', async () => {
  const spec = specOf('calc.formatting.conditional-highlight');
  const strong = await proveLocally(spec, 1);
  assert.ok(strong.ok, strong.ok ? '' : `${strong.reason}: ${strong.detail}`);
  // The check without its operator (any comparison against the threshold passes it), and without
  // the declared wrong solution that would have caught it.
  const raw = structuredClone(spec.rubric.checks) as (Record<string, unknown> | string)[];
  const at = raw.findIndex((c) => JSON.stringify(c).includes('calc.conditional_format'));
  const check = raw[at];
  // The check is an object, or one JSONata expression (its range depends on the level).
  if (typeof check === 'string') {
    assert.match(check, /'operator': 'greaterThan', /, 'the skill checks the rule operator');
    raw[at] = check.replace(/'operator': 'greaterThan', /, '');
  } else {
    assert.ok(check && 'operator' in check, 'the skill checks the rule operator');
    delete check.operator;
  }
  const weak = await proveLocally(withChecks(spec, raw, ['wrong-operator']), 1);
  assert.equal(weak.ok, false);
  if (weak.ok) return;
  assert.equal(weak.reason, 'rubric_accepts_mutant');
  assert.match(weak.detail, /operator: \w+ → \w+/);
});

test('wrong solutions that leave the untouched state are failed but not counted as kills', async () => {
  const p = await proveLocally(specOf('calc.styles.highlight-row'), 1);
  assert.ok(p.ok);
  const same = p.stats.wrong.filter((w) => w.sameAsInitial).map((w) => w.name);
  assert.deepEqual(same.sort(), ['no-op', 'save-unchanged']);
  assert.equal(p.stats.wrongSameAsInitial, 2);
  assert.equal(p.stats.wrongKilled, p.stats.wrongTried - 2);
  assert.equal(p.stats.wrongKilled, (p.stats.wrongDiscriminating ?? 0) + (p.stats.wrongUndone ?? 0));
});

test('collateral mutants: the edit made and again on its neighbour, placed right after it and queued early', async () => {
  const edits = [
    { op: 'calc.set_value', file: 'Desktop/a.xlsx', sheet: 'S', cell: 'B10', value: 'Total' },
    { op: 'calc.set_style', file: 'Desktop/a.xlsx', sheet: 'S', range: 'A1:C1', bold: true },
  ];
  const { mutants } = await deriveMutants(edits, {}, [], 64);
  const twice = mutants.find((m) => /#1 done on its target and again with cell: B10 → B11/.test(m.name));
  assert.ok(twice, mutants.map((m) => m.name).join(' | '));
  assert.equal(twice.collateral, true);
  assert.equal(twice.edit, 0);
  // All the oracle's edits, the neighbour's copy right after the one it copies.
  assert.deepEqual(twice.edits, [edits[0], { ...edits[0], cell: 'B11' }, edits[1]]);
  // Under a cap, each edit's collateral mutant comes in the second round, before its other near misses.
  const few = (await deriveMutants(edits, {}, [], 4)).mutants;
  assert.ok(
    few.slice(2).some((m) => m.collateral && m.edit === 0),
    few.map((m) => m.name).join(' | '),
  );
});

test('every edit gets a discriminating kill from its collateral mutant; without invariants that mutant survives', async () => {
  // One skill per kind of collateral: a setting beside, a card, a comment, a folder of the home.
  const cases: [string, RegExp][] = [
    ['vlc.interface.multiple-instances', /changed too \(the option beside it\)/],
    ['chromium.settings.homepage', /changed too \(a setting beside it\)/],
    ['thunderbird.contacts.add-contact', /a contact not asked for/],
    ['writer.text.comments', /on the next paragraph \(.*\) too/],
    ['gimp.export.png-to-jpeg', /exported again as/],
    ['multi.calc-os.backup-then-sort', /as well as its own/],
    // Session 18: what the oracle leaves alone inside the object it touches.
    ['os.search.replace-config-value', /opened up to everyone/],
    ['vscode.code.rename-symbol', /saved again as/],
  ];
  for (const [id, collateral] of cases) {
    const spec = specOf(id);
    const strong = await proveLocally(spec, 1);
    assert.ok(strong.ok, strong.ok ? '' : `${id}: ${strong.reason}: ${strong.detail}`);
    assert.deepEqual(strong.stats.mutants?.editsWithoutDiscriminatingKill, [], id);
    assert.deepEqual(strong.stats.mutants?.survivors, [], id);
    // Without invariants and without the spec's wrong solutions (which would catch some first).
    const wrongs = (spec.nodes as { wrong?: { name: string }[] }[]).flatMap((n) =>
      (n.wrong ?? []).map((w) => w.name),
    );
    const weak = await proveLocally(withChecks(spec, spec.rubric.checks, wrongs), 1, { invariants: false });
    assert.equal(weak.ok, false, id);
    if (weak.ok) continue;
    assert.equal(weak.reason, 'rubric_accepts_mutant', id);
    assert.match(weak.detail, collateral, id);
  }
});
