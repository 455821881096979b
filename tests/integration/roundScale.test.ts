import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { parseSpec } from '../../skills/load.ts';
import { noteSkillYaml } from '../support/noteSkill.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

/** A small OS skill, cloned under 500 ids: the round's machinery, not the documents, is under test. */
const template = (id: string) =>
  noteSkillYaml({
    id,
    category: 'scale',
    file: 'n{{params.n}}.txt',
    line: 'note {{params.n}}',
    params: 'n: {int: [1, 1000000]}',
  });

const SKILLS = 500;
let forge: TestForge;
before(async () => {
  forge = await startTestForge(
    { FORGE_PREPARE_QUEUE_CONCURRENCY: '24', FORGE_PIPELINE_QUEUE_CONCURRENCY: '64' },
    ['pipeline', 'prepare'],
  );
});
after(async () => {
  await forge?.close();
});

test(`a round of ${SKILLS} skills: sliding window of children, continue-as-new, every task accepted`, async () => {
  const ids = Array.from({ length: SKILLS }, (_, i) => `os.scale.s${String(i).padStart(4, '0')}`);
  // Status "test": selectable by explicit allocation only, so these never join other rounds.
  for (const id of ids)
    await forge.runtime.specs.put(parseSpec(template(id), `${id}.yaml`).spec, 'file', undefined, 'test');
  const started = await startRound(forge.deps, {
    allocation: Object.fromEntries(ids.map((id) => [id, 1])),
    window: 40,
    taskConcurrency: 1,
    seed: Math.floor(Date.now() % 1_000_000_000),
    maxHistoryEvents: 1500,
  });
  const progress = await waitForRound(forge.deps, started.roundId);
  assert.equal(progress.status, 'completed');
  assert.equal(progress.skillsTotal, SKILLS);
  assert.equal(progress.accepted, SKILLS, JSON.stringify(progress.rejectedByReason));
  const runs: string[] = [];
  for await (const w of forge.temporal.client.workflow.list({
    query: `WorkflowId = '${started.workflowId}'`,
  }))
    runs.push(w.runId);
  assert.ok(runs.length >= 2, `the round continued as new (runs: ${runs.length})`);
});
