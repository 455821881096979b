import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { expandTree } from '../../taxonomy/expansion/apply.ts';
import {
  loadTaxonomyFile,
  parseTaxonomy,
  taxonomyFromLibrary,
  taxonomyYaml,
} from '../../taxonomy/library.ts';
import type { SkillStats } from '../../taxonomy/stats.ts';
import { taxonomyHash } from '../../taxonomy/store.ts';
import { diffTaxonomies, skillIndex, taxonomyCounts } from '../../taxonomy/tree.ts';

const spec = (id: string, apps: SkillSpec['apps'], category: string, title = `Title of ${id}`) =>
  ({ id, apps, category, title }) as SkillSpec;

describe('taxonomy tree', () => {
  test('the generator places skills by domain, app (app combination for multi-app) and category', () => {
    const tree = taxonomyFromLibrary([
      spec('calc.formulas.sum', ['calc'], 'formulas'),
      spec('thunderbird.folders.move', ['thunderbird'], 'folders'),
      spec('os.files.tree', ['os'], 'files'),
      spec('multi.calc-thunderbird.report', ['calc', 'thunderbird'], 'Drafts & Mail'),
    ]);
    const idx = skillIndex(tree);
    assert.deepEqual(
      { ...idx.get('calc.formulas.sum') },
      {
        id: 'calc.formulas.sum',
        domain: 'office',
        app: 'calc',
        category: 'formulas',
        description: 'Title of calc.formulas.sum',
        status: 'active',
      },
    );
    assert.equal(idx.get('thunderbird.folders.move')?.domain, 'communication');
    assert.equal(idx.get('os.files.tree')?.domain, 'system');
    const multi = idx.get('multi.calc-thunderbird.report')!;
    assert.deepEqual(
      [multi.domain, multi.app, multi.category],
      ['workflows', 'calc-thunderbird', 'drafts-mail'],
    );
    const counts = taxonomyCounts(tree);
    assert.equal(counts.skills, 4);
    assert.equal(counts.multiAppShare, 0.25);
  });

  test('YAML round trip keeps the tree and its hash; key order does not matter', () => {
    const tree = taxonomyFromLibrary([spec('calc.a.x', ['calc'], 'a'), spec('writer.b.y', ['writer'], 'b')]);
    const back = parseTaxonomy(taxonomyYaml(tree));
    assert.deepEqual(back, tree);
    assert.equal(taxonomyHash(back), taxonomyHash(tree));
    const reordered = { domains: Object.fromEntries(Object.entries(tree.domains).reverse()) };
    assert.equal(taxonomyHash(reordered), taxonomyHash(tree));
  });

  test('invalid trees are refused with the node named', () => {
    assert.throws(
      () =>
        parseTaxonomy(
          'domains:\n  office:\n    description: Office\n    apps:\n      calc:\n        description: "two\\nlines"\n        categories: {}\n',
        ),
      /domains\.office\.apps\.calc\.description: application descriptions are one line/,
    );
    const dup = `domains:
  office:
    description: Office docs
    apps:
      calc:
        description: Calc sheets
        categories:
          a: {description: cat a, skills: {calc.a.x: one skill}}
          b: {description: cat b, skills: {calc.a.x: same id}}
`;
    assert.throws(() => parseTaxonomy(dup), /skill calc\.a\.x also appears under office\/calc\/a/);
    assert.throws(
      () =>
        parseTaxonomy(
          'domains:\n  office:\n    description: Office\n    apps:\n      calc:\n        description: Calc\n        categories:\n          a: {description: cat, skills: {Bad_Id: x}}\n',
        ),
      /skill ids look like/,
    );
  });

  test('expansion adds candidates next to their parent, retires, promotes measured candidates; diff shows it', () => {
    const base = taxonomyFromLibrary([spec('calc.f.sum', ['calc'], 'f'), spec('calc.f.avg', ['calc'], 'f')]);
    const first = expandTree(
      base,
      [
        {
          skillId: 'calc.f.sum-advanced',
          targetSkillId: 'calc.f.sum',
          title: 'Harder sums',
          apps: ['calc'],
          category: 'f',
        },
      ],
      ['calc.f.sum'],
      [],
    );
    const idx = skillIndex(first.tree);
    assert.deepEqual(
      { ...idx.get('calc.f.sum-advanced') },
      {
        id: 'calc.f.sum-advanced',
        domain: 'office',
        app: 'calc',
        category: 'f',
        description: 'Harder sums',
        status: 'candidate',
        parent: 'calc.f.sum',
      },
    );
    assert.equal(idx.get('calc.f.sum')?.status, 'retired');
    const diff = diffTaxonomies(base, first.tree);
    assert.deepEqual(
      diff.added.map((s) => s.id),
      ['calc.f.sum-advanced'],
    );
    assert.deepEqual(
      diff.changed.map((c) => [c.id, c.from.status, c.to.status]),
      [['calc.f.sum', 'active', 'retired']],
    );
    const measured = (skillId: string, cls: SkillStats['class']) => ({ skillId, class: cls }) as SkillStats;
    const second = expandTree(first.tree, [], [], [measured('calc.f.sum-advanced', 'learnable')]);
    assert.equal(skillIndex(second.tree).get('calc.f.sum-advanced')?.status, 'active');
    assert.deepEqual(second.changes.promoted, ['calc.f.sum-advanced']);
    assert.equal(taxonomyCounts(second.tree).byStatus.retired, 1);
    const third = expandTree(first.tree, [], [], [measured('calc.f.sum-advanced', 'too_hard')]);
    assert.equal(skillIndex(third.tree).get('calc.f.sum-advanced')?.status, 'retired');
  });
});

describe('the library and taxonomy/taxonomy.yaml', () => {
  test('every skill in the taxonomy has a spec and every spec is in the taxonomy', () => {
    const library = loadSkillLibrary();
    const tree = loadTaxonomyFile();
    const inTree = new Set(skillIndex(tree).keys());
    const specs = new Set(library.keys());
    assert.deepEqual(
      [...inTree].filter((id) => !specs.has(id)),
      [],
      'taxonomy skills without a spec',
    );
    assert.deepEqual(
      [...specs].filter((id) => !inTree.has(id)),
      [],
      'specs missing from the taxonomy (forge taxonomy generate --write)',
    );
    assert.deepEqual(tree, taxonomyFromLibrary(library), 'taxonomy.yaml is the generated tree');
    const counts = taxonomyCounts(tree);
    const apps: Record<string, number> = {};
    for (const { spec } of library.values()) {
      const key = spec.apps.length > 1 ? 'multi' : spec.apps[0]!;
      apps[key] = (apps[key] ?? 0) + 1;
    }
    console.log(
      `skills ${counts.skills}; per app ${JSON.stringify(apps)}; multi-app ${counts.multiApp} (${(100 * counts.multiAppShare).toFixed(1)}%)`,
    );
    assert.equal(counts.multiApp, apps.multi ?? 0);
  });
});
