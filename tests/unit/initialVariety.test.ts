import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import { deriveSeed } from '../../skills/random.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Two tasks of one round must not start from the same files (the library round checks it on a
 * fresh seed each run). A skill with a `generate` node draws its records from the task's seed; a
 * skill without one varies only through its parameters and the model's short answers, and a small
 * space of those made tasks of one round repeat (os.system.cron had 36 possible crontabs: about
 * one library round in twelve repeated one). For those skills, the share of colliding pairs among
 * SAMPLES tasks estimates the chance that two tasks share their files; three tasks a round make
 * three pairs, so the bound keeps a repeat below about one round in a hundred per skill.
 */
const SAMPLES = 40;
const MAX_PAIR_SHARE = 1 / 300;

test('skills without generated records still vary their initial files from task to task', async () => {
  const low: string[] = [];
  for (const [id, { spec }] of loadSkillLibrary()) {
    if (spec.nodes.some((n) => 'generate' in n)) continue;
    const prints: string[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const authored = await authorTask(spec, deriveSeed(7, id, i), offlineCaller);
      assert.ok(authored.ok, `${id}: task ${i} not authored`);
      const m = await materializeTask(spec, authored.context);
      prints.push(JSON.stringify(m.prepares.map((p) => [p.target, p.doc])));
    }
    let colliding = 0;
    for (let a = 0; a < SAMPLES; a++)
      for (let b = a + 1; b < SAMPLES; b++) if (prints[a] === prints[b]) colliding++;
    const share = colliding / ((SAMPLES * (SAMPLES - 1)) / 2);
    if (share > MAX_PAIR_SHARE)
      low.push(`${id}: ${colliding} of ${(SAMPLES * (SAMPLES - 1)) / 2} pairs alike`);
  }
  assert.deepEqual(low, [], 'skills whose tasks too often start from the same files');
});
