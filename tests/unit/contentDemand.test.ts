import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineDemand } from '../../skills/content/demand.ts';
import { quotaFor } from '../../skills/content/pool.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/** The parts of a spec the demand reads: the notes kind draws `rows` lines, a second node five records of two and a paragraph (three lines). */
const spec = {
  params: { kind: { pick: ['contacts', 'notes'] }, rows: { int: [9, 20] } },
  nodes: [
    {
      id: 'notes',
      generate: { records: "{{params.kind = 'notes' ? params.rows : 1}}", fields: { line: 'sentence' } },
    },
    {
      id: 'pairs',
      generate: { records: 5, fields: { a: 'sentence', b: { kind: 'sentence' }, p: 'paragraph', n: 'int' } },
    },
    // Reads another node: unknown before the task runs, left to the quota's floor.
    { id: 'later', generate: { records: '{{$count(pairs.records)}}', fields: { line: 'sentence' } } },
  ],
} as unknown as SkillSpec;

describe('content sets as large as a task draws', () => {
  test('the demand is each node’s lines (a paragraph three) times its largest count over the params', async () => {
    assert.equal(await lineDemand(spec), 20 + (2 + 3) * 5);
  });

  test('the quota asks for that many loose sentences beyond the topics’ lines, at most forty', () => {
    assert.equal(quotaFor(['sentence']).sentences, 14, 'the floor');
    assert.equal(quotaFor(['sentence'], 30).sentences, 30);
    assert.equal(quotaFor(['sentence'], 90).sentences, 40);
    // Ten topics of four lines serve a deck's 30 bullets: no more loose ones than the floor.
    assert.equal(quotaFor(['title', 'sentence'], 30).sentences, 14);
    assert.equal(quotaFor(['title'], 30).sentences, 0, 'no sentence field, no sentences');
    // Eight set paragraphs hold some 24 lines of a mailbox's 45.
    assert.equal(quotaFor(['sentence', 'paragraph'], 45).sentences, 21);
  });

  test('os.files.backup-copy: the notes list and the other lists never share or repeat a line', async () => {
    const backup = loadSkillLibrary().get('os.files.backup-copy')!.spec;
    assert.ok((await lineDemand(backup)) > 14);
    let notes = 0;
    for (let seed = 1; seed <= 40 && notes < 3; seed++) {
      const authored = await authorTask(backup, seed, offlineCaller);
      assert.ok(authored.ok, JSON.stringify(authored));
      if ((authored.context.params as { kind: string }).kind !== 'notes') continue;
      notes++;
      const m = await materializeTask(backup, authored.context);
      const entries = (m.prepares[0]!.doc as { entries: { content?: string }[] }).entries;
      const lines = entries.flatMap((e) => (e.content ?? '').split('\n').filter((l) => l.trim() !== ''));
      const twice = lines.filter((l, i) => lines.indexOf(l) !== i);
      assert.deepEqual(twice, [], `seed ${seed}: ${lines.length} lines`);
    }
    assert.equal(notes, 3, 'three tasks of the notes kind in forty seeds');
  });
});
