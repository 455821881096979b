import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { loadSkillLibrary } from '../../skills/load.ts';
import {
  authorOutput,
  offlineAuthor,
  offlineProposals,
  proposalOutput,
} from '../../taxonomy/expansion/prompts.ts';
import { staticCheck } from '../../taxonomy/expansion/staticCheck.ts';
import type { ExpansionTarget } from '../../taxonomy/expansion/targets.ts';
import { deriveVariant } from '../../taxonomy/expansion/variant.ts';

const library = loadSkillLibrary();
const sum = library.get('calc.formulas.sum-column')!.spec;
const target = (action: ExpansionTarget['action'], allowed: ExpansionTarget['allowed']): ExpansionTarget => ({
  skillId: sum.id,
  action,
  class: 'x',
  passRate: 1,
  attempts: 12,
  difficulty: 1,
  allowed,
});

describe('expansion: proposals, offline authoring and the static gate', () => {
  test('offline proposals follow the action, fit the output schema and avoid taken names', () => {
    const taken = new Set([`${sum.id}-focus-a`]);
    const split = offlineProposals(target('split', ['split']), sum, taken);
    assert.ok(proposalOutput.safeParse(split).success);
    assert.deepEqual(
      split.proposals.map((p) => [p.kind, p.name]),
      [
        ['split', 'focus-a-2'],
        ['split', 'focus-b'],
      ],
    );
    const sat = offlineProposals(target('harder', ['harder', 'retire']), sum, new Set());
    assert.deepEqual(
      sat.proposals.map((p) => p.kind),
      ['harder', 'retire'],
    );
    assert.equal(sat.proposals[0]!.difficulty, sum.difficulty + 1);
  });

  test('variants narrow the parameter space inside the exemplar’s', () => {
    const base = {
      id: `${sum.id}-x`,
      title: 'A variant',
      description: 'A variant of the sum skill for tests.',
      difficulty: 2,
    };
    const harder = deriveVariant(sum, { ...base, kind: 'harder', part: 0 });
    assert.deepEqual(harder.params.rows, { int: [24, 40] });
    assert.deepEqual(harder.params.domain, sum.params.domain);
    const a = deriveVariant(sum, { ...base, kind: 'split', part: 0 });
    const b = deriveVariant(sum, { ...base, kind: 'split', part: 1 });
    assert.deepEqual(a.params.rows, { int: [8, 24] });
    assert.deepEqual(a.params.domain, { pick: ['sales', 'inventory', 'expenses'] });
    assert.deepEqual(b.params.domain, { pick: ['donations', 'payroll'] });
    assert.deepEqual(a.params.folder, sum.params.folder, 'short lists are kept whole');
    assert.equal(a.id, base.id);
    assert.deepEqual(a.nodes, sum.nodes);
  });

  test('the offline author’s YAML passes the static gate; bad or clashing text is refused with a reason', () => {
    const req = {
      id: `${sum.id}-advanced`,
      kind: 'harder',
      title: 'Total a long column',
      description: 'Total a long numeric column with a SUM formula.',
      difficulty: 2,
      rationale: 'saturated',
      part: 0,
    };
    const answer = offlineAuthor(req, sum);
    assert.ok(authorOutput.safeParse(answer).success);
    const ok = staticCheck(answer.spec_yaml, { id: req.id, apps: sum.apps }, new Set([sum.id]));
    assert.ok(ok.ok, ok.ok ? '' : ok.reason);
    if (ok.ok) assert.equal(ok.spec.difficulty, 2);
    const taken = staticCheck(answer.spec_yaml, { id: req.id, apps: sum.apps }, new Set([req.id]));
    assert.deepEqual(taken, { ok: false, reason: `skill ${req.id} already exists` });
    const wrongId = staticCheck(answer.spec_yaml, { id: `${sum.id}-other`, apps: sum.apps }, new Set());
    assert.equal(wrongId.ok, false);
    const apps = staticCheck(answer.spec_yaml, { id: req.id, apps: ['writer'] }, new Set());
    assert.match(apps.ok ? '' : apps.reason, /apps calc differ/);
    const broken = staticCheck(
      stringify({ ...sum, id: req.id, nodes: [] }),
      { id: req.id, apps: sum.apps },
      new Set(),
    );
    assert.match(broken.ok ? '' : broken.reason, /invalid spec/);
    const garbage = staticCheck('id: [unclosed', { id: req.id, apps: sum.apps }, new Set());
    assert.match(garbage.ok ? '' : garbage.reason, /invalid spec/);
  });
});
