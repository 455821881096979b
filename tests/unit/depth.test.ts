import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DepthPlanError,
  depthMixSchema,
  depthOf,
  filterMinDepth,
  isDiscovery,
  isLongHorizon,
  isLongHorizonSkill,
  parseDepthMix,
  planDepthMix,
  weightLongHorizon,
} from '../../skills/depth.ts';
import { readSkillLibrary } from '../../skills/load.ts';

describe('task depth', () => {
  test('a plain skill is depth 1 unless it says otherwise; a composite sums its steps’', () => {
    assert.equal(depthOf({}), 1);
    assert.equal(depthOf({ features: 3 }), 3);
    const library = readSkillLibrary();
    const composites = [...library.specs.values()].filter((l) => l.composite);
    assert.ok(composites.length > 0, 'the library has composites');
    for (const c of composites) {
      const steps = c.spec.nodes.flatMap((n) => ('step' in n ? [n.step.skill] : []));
      const want = steps.reduce((sum, id) => sum + depthOf(library.specs.get(id)?.spec ?? {}), 0);
      assert.ok(steps.length >= 2, c.spec.id);
      assert.equal(depthOf(c.spec), want, `${c.spec.id}: the sum of ${steps.join(' + ')}`);
    }
  });

  test('discovery holds only at a level the skill lists', () => {
    const spec = { discovery: ['goal' as const] };
    assert.equal(isDiscovery(spec, 'goal'), true);
    assert.equal(isDiscovery(spec, 'natural'), false);
    assert.equal(isDiscovery(spec, undefined), false);
    assert.equal(isDiscovery({}, 'goal'), false);
  });

  test('long horizon needs all three: 6 features, 3 apps, 10 checkpoints', () => {
    assert.equal(isLongHorizon({ depth: 6, apps: 3, checkpoints: 10 }), true);
    assert.equal(isLongHorizon({ depth: 5, apps: 3, checkpoints: 12 }), false);
    assert.equal(isLongHorizon({ depth: 7, apps: 2, checkpoints: 12 }), false);
    assert.equal(isLongHorizon({ depth: 7, apps: 4, checkpoints: 9 }), false);
  });
});

describe('depth mix', () => {
  test('parses the CLI form and JSON alike, and says what is wrong', () => {
    assert.deepEqual(parseDepthMix('1=50,2-3=35,4+=15'), { '1': 50, '2-3': 35, '4+': 15 });
    assert.deepEqual(parseDepthMix('{"1": 50, "4+": 50}'), { '1': 50, '4+': 50 });
    assert.deepEqual(parseDepthMix('2:100'), { '2': 100 });
    assert.throws(() => parseDepthMix('1=50,deep=50'), /"deep" is not a depth range/);
    assert.throws(() => parseDepthMix('1-3=50,3+=50'), /"1-3" and "3\+" overlap/);
    assert.throws(() => parseDepthMix('1=0,2=0'), /at least one non-zero share/);
    assert.throws(() => parseDepthMix('0=100'), /depth starts at 1/);
    assert.throws(() => parseDepthMix('3-2=100'), /ends before it starts/);
    assert.throws(() => parseDepthMix('1=150'), /at most 100/);
    assert.throws(() => parseDepthMix('1=half'), /"half" is not a number/);
    assert.throws(() => parseDepthMix('{"1": '), /not valid JSON/);
    assert.equal(depthMixSchema.safeParse({}).success, false);
  });

  const library = [
    { id: 'a.one', depth: 1, tasks: 3 },
    { id: 'b.one', depth: 1, tasks: 3 },
    { id: 'c.one', depth: 1, tasks: 3 },
    { id: 'd.two', depth: 2, tasks: 3 },
    { id: 'e.three', depth: 3, tasks: 3 },
    { id: 'f.six', depth: 6, tasks: 3 },
  ];

  test('keeps the total and gives each range its share, spread over its skills', () => {
    const { tasks, rows } = planDepthMix(library, { '1': 50, '2-3': 30, '4+': 20 });
    const total = [...tasks.values()].reduce((a, b) => a + b, 0);
    assert.equal(total, 18);
    assert.deepEqual(
      rows.map((r) => [r.key, r.tasks]),
      [
        ['1', 9],
        ['2-3', 5],
        ['4+', 4],
      ],
    );
    assert.deepEqual([tasks.get('a.one'), tasks.get('b.one'), tasks.get('c.one')].map(Number), [3, 3, 3]);
    assert.equal(tasks.get('d.two')! + tasks.get('e.three')!, 5);
    assert.equal(tasks.get('f.six'), 4);
  });

  test('an allocation’s weights survive inside a range; skills outside every range get none', () => {
    const weighted = library.map((s) => (s.id === 'a.one' ? { ...s, tasks: 9 } : s));
    const { tasks } = planDepthMix(weighted, { '1': 100 });
    assert.equal(tasks.get('a.one'), 14); // 9 of 15 weight → 14.4 of 24
    assert.equal(tasks.get('b.one')! + tasks.get('c.one')!, 10);
    assert.equal(tasks.get('d.two'), 0);
    assert.equal(tasks.get('f.six'), 0);
  });

  test('is deterministic and ends on whole tasks by largest remainder', () => {
    const mix = { '1': 33, '2': 33, '3+': 34 };
    const a = planDepthMix(library, mix);
    const b = planDepthMix(library, mix);
    assert.deepEqual([...a.tasks], [...b.tasks]);
    assert.deepEqual(
      a.rows.map((r) => r.tasks),
      [6, 6, 6],
    );
  });

  test('a range with a share and no skill is an error naming the depths there are', () => {
    assert.throws(
      () => planDepthMix(library.slice(0, 3), { '1': 80, '2-3': 20 }),
      (err: unknown) =>
        err instanceof DepthPlanError &&
        /20% to depth 2-3/.test(err.message) &&
        /have depth 1\)/.test(err.message),
    );
    // A zero share is allowed to be empty.
    assert.doesNotThrow(() => planDepthMix(library.slice(0, 3), { '1': 100, '4+': 0 }));
  });

  test('a minimum depth keeps the deep skills, and says how deep the selection goes when none is', () => {
    assert.deepEqual(
      filterMinDepth(library, 3).map((s) => s.id),
      ['e.three', 'f.six'],
    );
    assert.throws(() => filterMinDepth(library.slice(0, 4), 4), /deepest of the 4 selected has 2/);
  });
});

describe('a default round’s long-horizon share', () => {
  test('over the whole library at the default 3 tasks a skill, long workflows get ≥ 5% and no other skill loses a task', () => {
    const specs = [...readSkillLibrary().specs.values()].map(({ spec }) => ({
      id: spec.id,
      depth: depthOf(spec),
      apps: spec.apps.length,
      tasks: 3,
    }));
    const long = specs.filter(isLongHorizonSkill);
    assert.ok(long.length >= 1, 'the library has long-horizon skills');
    const asIs = (long.length * 3) / (specs.length * 3);
    assert.ok(
      asIs < 0.05,
      `without the weighting they are ${(asIs * 100).toFixed(1)}%: the test proves nothing`,
    );
    const tasks = weightLongHorizon(specs);
    const total = [...tasks.values()].reduce((a, b) => a + b, 0);
    const longTasks = long.reduce((a, s) => a + tasks.get(s.id)!, 0);
    console.log(
      `default round: ${longTasks} of ${total} tasks long-horizon (${((longTasks / total) * 100).toFixed(1)}%, ${long.length} skills; ${(asIs * 100).toFixed(1)}% unweighted)`,
    );
    assert.ok(longTasks / total >= 0.05, `${longTasks}/${total}`);
    assert.ok(longTasks / total < 0.08, 'raised to the share, not far past it');
    for (const s of specs) if (!isLongHorizonSkill(s)) assert.equal(tasks.get(s.id), 3, s.id);
  });

  test('it needs depth and three applications; selections without long skills, or only of them, stay as asked', () => {
    const skills = [
      { id: 'a', depth: 1, apps: 1, tasks: 3 },
      { id: 'b', depth: 6, apps: 2, tasks: 3 }, // deep but two apps: not long-horizon
      ...Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, depth: 2, apps: 3, tasks: 3 })),
      { id: 'long1', depth: 7, apps: 3, tasks: 3 },
      { id: 'long2', depth: 6, apps: 5, tasks: 1 },
    ];
    const tasks = weightLongHorizon(skills, 0.1);
    // 96 other tasks: at 10% the two long skills need ceil(96 × 0.1 / 0.9) = 11, split 3 : 1.
    assert.equal(tasks.get('long1')! + tasks.get('long2')!, 11);
    assert.ok(tasks.get('long1')! > tasks.get('long2')!);
    assert.equal(tasks.get('b'), 3);
    assert.equal(tasks.get('a'), 3);
    const plain = skills.filter((s) => !s.id.startsWith('long'));
    assert.deepEqual([...weightLongHorizon(plain)], [...new Map(plain.map((s) => [s.id, 3]))]);
    const onlyLong = skills.filter((s) => s.id.startsWith('long'));
    assert.deepEqual(
      [...weightLongHorizon(onlyLong)],
      [
        ['long1', 3],
        ['long2', 1],
      ],
    );
    // Already at the share: unchanged.
    assert.equal(weightLongHorizon(skills, 0.01).get('long1'), 3);
  });
});
