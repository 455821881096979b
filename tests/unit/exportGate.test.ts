import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { CheckerRunner } from '../../preparers/checker/runner.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { type PreparedTask, prepareInMemory } from '../../taskcore/prepareCore.ts';
import { exportGate, type GateState } from '../../taskcore/verify/exportGate.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * The export gate grades a task in the form it ships: these tests prove it accepts tasks of every
 * application, and that it rejects, naming the check, when the shipped checker goes wrong.
 */
const library = loadSkillLibrary();
const specOf = (id: string): SkillSpec => {
  const l = library.get(id);
  if (!l) throw new Error(`no skill ${id} in the library`);
  return l.spec;
};

async function prepared(id: string, level: 'explicit' | 'natural' | 'goal' = 'goal'): Promise<PreparedTask> {
  const spec = specOf(id);
  for (let seed = 1; seed < 6; seed++) {
    const a = await authorTask(spec, seed, offlineCaller, {
      level,
      roundId: `gate-test-${seed}`,
      taskIndex: 0,
    });
    if (!a.ok) continue;
    const p = await prepareInMemory(spec, 'file', a.context);
    if (p.ok || p.reason === 'export_mismatch') return p;
  }
  throw new Error(`${id}: no task reached the export gate in 5 seeds`);
}

const runners: CheckerRunner[] = [];
after(async () => {
  await Promise.all(runners.map((r) => r.close()));
});

/** The task's gate input and its initial and oracle states, as the prepare stage hands them over. */
async function gateInput(id: string) {
  const p = await prepared(id);
  assert.ok(p.ok, `${id}: ${p.ok ? '' : `${p.reason}: ${p.detail}`}`);
  // The draft the prepare stage's own gate graded.
  const task = p.draft;
  const states: GateState[] = [
    { name: 'initial', files: p.initial, expect: 'fail', probes: p.before, played: true },
    { name: 'oracle', files: p.solved, expect: 'pass', probes: p.after },
  ];
  return { task, states, checks: p.checks };
}

/** The shipped checker with some Python put in just before its entry point. */
function brokenChecker(python: string): CheckerRunner {
  const text = checkerSource().text.replace(
    '# ---- entry point ----',
    `${python}\n\n# ---- entry point ----`,
  );
  assert.notEqual(text, checkerSource().text, 'the checker has no entry point marker to patch before');
  const runner = new CheckerRunner(text);
  runners.push(runner);
  return runner;
}

for (const id of [
  'calc.formulas.sum-column',
  'writer.formatting.highlight',
  'impress.slides.reorder',
  'thunderbird.filters.move-by-sender',
  'os.files.symlink',
  'multi.writer-os.export-text',
]) {
  test(`${id}: accepted with the gate's node run (initial, oracle and wrong solutions graded as shipped)`, async () => {
    const p = await prepared(id, 'explicit');
    assert.ok(p.ok, p.ok ? '' : `${p.reason}: ${p.detail}`);
    assert.ok(
      p.runs.some((r) => r.nodeId === 'verify_export' && r.status === 'ok'),
      'the gate ran',
    );
  });
}

test('a checker that compares structured values with their key order fails the oracle: rejected, the check named', async () => {
  // The shipped checks are canonical JSON (keys sorted); snapshots the checker makes are not.
  const runner = brokenChecker('same_json = lambda a, b: json.dumps(a) == json.dumps(b)');
  const { task, states, checks } = await gateInput('writer.formatting.highlight');
  assert.ok(
    checks.some((c) => c.kind === 'writer.unchanged'),
    'the task has a writer.unchanged invariant',
  );
  const verdict = await exportGate(task, states, runner);
  assert.equal(verdict.ok, false);
  assert.match(
    verdict.ok ? '' : verdict.detail,
    /oracle: check #\d+ writer\.unchanged is pass in TypeScript and fail in the shipped checker/,
  );
  assert.match(
    verdict.ok ? '' : verdict.detail,
    /oracle: the exported checker prints "FAIL #\d+ writer\.unchanged /,
  );
});

test('a checker kind that always fails: rejected with the kind named', async () => {
  const runner = brokenChecker("KINDS['calc.cell_value'] = lambda env, c: (False, {'broken': True})");
  const { task, states, checks } = await gateInput('calc.formulas.sum-column');
  assert.ok(checks.some((c) => c.kind === 'calc.cell_value'));
  const verdict = await exportGate(task, states, runner);
  assert.equal(verdict.ok, false);
  assert.match(
    verdict.ok ? '' : verdict.detail,
    /oracle: check #\d+ calc\.cell_value is pass in TypeScript and fail/,
  );
});

test('the shipped checker passes the same inputs (the broken ones above are the only difference)', async () => {
  const runner = new CheckerRunner();
  runners.push(runner);
  for (const id of ['writer.formatting.highlight', 'calc.formulas.sum-column']) {
    const { task, states } = await gateInput(id);
    assert.deepEqual(await exportGate(task, states, runner), { ok: true, states: 2 }, id);
  }
});

test('a state that must fail but passes the shipped checker is named with the score OSWorld would give', async () => {
  const { task, states } = await gateInput('calc.formulas.sum-column');
  // The oracle's files presented as a state that must fail (a wrong solution the checker cannot see).
  const verdict = await exportGate(task, [
    {
      name: 'wrong solution "same as oracle"',
      files: states[1]!.files,
      expect: 'fail',
      probes: states[1]!.probes,
    },
  ]);
  assert.equal(verdict.ok, false);
  assert.match(
    verdict.ok ? '' : verdict.detail,
    /wrong solution "same as oracle": the exported checker prints "PASS", so OSWorld scores it 1 \(expected 0\)/,
  );
});
