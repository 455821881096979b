import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { parseSpec } from '../../skills/load.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

/** A small OS skill, cloned under 500 ids: the round's machinery, not the documents, is under test. */
const template = (id: string) => `
id: ${id}
title: Write a note file
apps: [os]
category: scale
description: Put a given line into a new note file in the home directory.
difficulty: 1
channel: terminal
params:
  n: {int: [1, 1000000]}
nodes:
  - id: instruction
    llm:
      prompt: Ask the agent to write the line "note {{params.n}}" into ~/notes/n{{params.n}}.txt.
      output: {text: text}
      offline:
        text:
          explicit: ["Create ~/notes/n{{params.n}}.txt containing the line: note {{params.n}}"]
          natural: ["Please add a file n{{params.n}}.txt to my notes folder with the line: note {{params.n}}"]
          goal: ["My notes folder should have a file n{{params.n}}.txt that says: note {{params.n}}"]
  - id: files
    prepare:
      app: os
      target: notes
      open: false
      doc: {entries: [{path: notes/readme.txt, type: file, content: "notes go here\\n"}]}
  - id: solution
    solve:
      - {op: os.write_file, path: "notes/n{{params.n}}.txt", content: "note {{params.n}}\\n"}
instruction: "{{instruction.text}}"
rubric:
  checks:
    - {kind: os.content_equals, path: "notes/n{{params.n}}.txt", content: "note {{params.n}}\\n"}
  items: [{text: "The note file holds exactly the given line.", checks: [0]}]
`;

const SKILLS = 500;
let forge: TestForge;
before(async () => {
  forge = await startTestForge({ FORGE_PREPARE_QUEUE_CONCURRENCY: '24', FORGE_LLM_QUEUE_CONCURRENCY: '64' }, [
    'llm',
    'prepare',
  ]);
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
