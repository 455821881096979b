import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import {
  compositeStructure,
  compositeStructureMarkdown,
  LONG_HORIZON_STEPS,
  stepKinds,
  stepSkills,
} from '../../taxonomy/compositeStructure.ts';
import { appsNeeded } from '../../taxonomy/coverage.ts';

const library = [...loadSkillLibrary().values()].map((l) => l.spec);

function composite(id: string, steps: string[], apps: string[]): SkillSpec {
  return {
    id,
    apps,
    nodes: [...steps.map((skill, i) => ({ id: `s${i}`, step: { skill } })), { id: 'instruction', llm: {} }],
  } as unknown as SkillSpec;
}

describe('composite structure', () => {
  it('reads the step kinds (app.category of each step skill) in order; a plain skill has none', () => {
    const c = composite('composite.a.b', ['calc.formulas.sum-column', 'thunderbird.drafts.new-message'], []);
    assert.deepEqual(stepSkills(c), ['calc.formulas.sum-column', 'thunderbird.drafts.new-message']);
    assert.deepEqual(stepKinds(c), ['calc.formulas', 'thunderbird.drafts']);
    assert.deepEqual(stepKinds(library.find((s) => s.id === 'calc.formulas.sum-column')!), []);
  });

  it('clusters composites by sequence (order matters) and counts app combinations', () => {
    const r = compositeStructure([
      composite(
        'c.total',
        ['calc.formulas.sum-column', 'thunderbird.drafts.new-message'],
        ['calc', 'thunderbird'],
      ),
      composite(
        'c.average',
        ['calc.formulas.average-column', 'thunderbird.drafts.new-message'],
        ['thunderbird', 'calc'],
      ),
      composite(
        'c.reversed',
        ['thunderbird.drafts.new-message', 'calc.formulas.sum-column'],
        ['calc', 'thunderbird'],
      ),
      composite(
        'c.long',
        [
          'os.text.csv-cleanup',
          'calc.formulas.sum-column',
          'writer.tables.fill-cell',
          'impress.titles.change-title',
        ],
        ['os', 'calc', 'writer', 'impress'],
      ),
      {
        id: 'calc.formulas.sum-column',
        apps: ['calc'],
        nodes: [{ id: 'x', values: {} }],
      } as unknown as SkillSpec,
    ]);
    assert.equal(r.composites, 4);
    assert.equal(r.sequences, 3);
    assert.deepEqual(r.clusters, [
      { kinds: 'calc.formulas > thunderbird.drafts', composites: ['c.average', 'c.total'] },
    ]);
    assert.deepEqual(r.appCombinations, [
      { apps: 'calc+thunderbird', composites: 3 },
      { apps: 'calc+impress+os+writer', composites: 1 },
    ]);
    assert.equal(r.long, 0);
    const md = compositeStructureMarkdown(r).join('\n');
    assert.match(md, /\| calc\.formulas > thunderbird\.drafts \| c\.average, c\.total \|/);
    assert.match(md, /2 distinct application combinations/);
  });

  it('no two composites of the library share a step-kind sequence', () => {
    // The clusters that were there when the rule came in (five calc → mail drafts, two calc → writer
    // tables, three pairs of os → mail drafts) were retired down to one composite each.
    const { clusters } = compositeStructure(library);
    assert.deepEqual(
      clusters.map(
        (c) => `${c.composites.join(' and ')} share the steps ${c.kinds}: give one a step of another kind`,
      ),
      [],
    );
  });

  it(`the long-horizon tier: 6+ workflows of ${LONG_HORIZON_STEPS}+ steps, each over 3+ applications with 10+ checkpoints`, () => {
    const long = library.filter((s) => stepSkills(s).length >= LONG_HORIZON_STEPS);
    assert.ok(long.length >= 6, `only ${long.length} long workflows`);
    for (const s of long) {
      assert.ok(appsNeeded(s).length >= 3, `${s.id} needs only ${appsNeeded(s).join(', ')}`);
      // A checkpoint is a rubric item (what partial credit counts), backed by one or more checks.
      assert.ok(s.rubric.items.length >= 10, `${s.id} has ${s.rubric.items.length} rubric items`);
      assert.ok(s.rubric.checks.length >= 10, `${s.id} has ${s.rubric.checks.length} checks`);
      assert.ok((s.features ?? 1) >= LONG_HORIZON_STEPS, `${s.id}: depth ${s.features}`);
    }
    console.log(
      `long workflows: ${long.length}; ${long.map((s) => `${s.id} ${stepSkills(s).length} steps/${s.rubric.items.length} items/${s.rubric.checks.length} checks`).join('; ')}`,
    );
  });
});
