import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en, Faker } from '@faker-js/faker';
import { cellAddressesIn } from '../../app/contentReport.ts';
import { contentKits, offlineContentPool } from '../../llm/offline/content/kit.ts';
import { preparers } from '../../preparers/registry.ts';
import { placeholderIn } from '../../skills/content/placeholder.ts';
import { proseSourceFor } from '../../skills/content/pool.ts';
import { LEVELS, levelFor, levelPlan, parseLevelMix } from '../../skills/levels.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { instructionProblems, proseProblem } from '../../taskcore/verify/instruction.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

describe('instruction levels', () => {
  test('a skill run follows the mix; three tasks at 20/50/30 get one of each level', () => {
    for (const seed of [1, 2, 3, 99])
      assert.deepEqual(new Set(levelPlan({ explicit: 20, natural: 50, goal: 30 }, 3, seed)), new Set(LEVELS));
    const plan = levelPlan({ explicit: 20, natural: 50, goal: 30 }, 100, 5);
    assert.deepEqual(
      LEVELS.map((l) => plan.filter((x) => x === l).length),
      [20, 50, 30],
    );
    assert.equal(levelFor({ explicit: 0, natural: 0, goal: 100 }, 4, 2, 9), 'goal');
    assert.deepEqual(parseLevelMix('10/60/30'), { explicit: 10, natural: 60, goal: 30 });
    assert.throws(() => parseLevelMix('10/60'), /three non-negative numbers/);
  });
});

describe('instruction checks without a judge', () => {
  const base = {
    level: 'natural',
    checks: [{ kind: 'calc.cell_value', file: 'Desktop/sales.xlsx', sheet: 'Q3', cell: 'B12', value: 420 }],
    prepares: [{ app: 'calc', target: 'Desktop/sales.xlsx', open: true, doc: { sheets: [] } }],
  };
  test('reject what a permissive judge let through', () => {
    assert.match(proseProblem('a'.repeat(5000)) ?? '', /characters/);
    assert.match(proseProblem('x'.repeat(900)) ?? '', /run of/);
    assert.match(proseProblem('Synagoga victus tabella vulgus cupio tredecim.') ?? '', /function words/);
    assert.equal(proseProblem('Put the total of the Amount column under its last entry.'), undefined);
  });
  test('names the rule: leftovers, cell addresses at natural, literals the agent cannot know', () => {
    const rules = (instruction: string, extra: object = {}) =>
      instructionProblems({ ...base, instruction, ...extra }).map((p) => p.rule);
    assert.deepEqual(rules('Put the total of the Amount column of sales.xlsx under its last entry.'), []);
    assert.deepEqual(rules('Put the total of {{scenario.amount}} in sales.xlsx under the last entry.'), [
      'leftovers',
    ]);
    assert.deepEqual(rules('Put the total of the Amount column of sales.xlsx in B12.'), ['cell_address']);
    assert.deepEqual(
      rules('Put the total of the Amount column of sales.xlsx in B12.', { level: 'explicit' }),
      [],
    );
    const folder = { checks: [{ kind: 'thunderbird.folder_exists', folder: 'Receipts 2025' }], prepares: [] };
    assert.deepEqual(rules('Please make a new folder in Thunderbird for this year’s receipts.', folder), [
      'self_sufficient',
    ]);
    assert.deepEqual(
      rules('Please make a folder "Receipts 2025" in Thunderbird for the receipts.', folder),
      [],
    );
    const hidden = {
      prepares: [{ app: 'calc', target: 'Documents/sender_register.xlsx', open: false, doc: {} }],
    };
    assert.deepEqual(rules('Copy every sender into the mail log, one row each.', hidden), ['names_file']);
  });
});

describe('content', () => {
  test('the placeholder detector knows faker’s filler and passes the kit’s English', () => {
    const faker = new Faker({ locale: [en], seed: 3 });
    assert.ok(placeholderIn(faker.lorem.paragraph()));
    assert.ok(placeholderIn('Multi-tiered cloud-native task-force'));
    assert.ok(placeholderIn('Awesome Silk Sausages'));
    for (let i = 0; i < 20; i++) assert.ok(placeholderIn(faker.company.catchPhrase()));
    assert.equal(placeholderIn('The Borealis total in Project hours'), undefined);
    assert.equal(placeholderIn('A face to face meeting about the project'), undefined);
    // Latin in faker's list, English in a mail: the audio of a video is no filler.
    assert.equal(placeholderIn('Could you send me the audio of the video, minus the intro?'), undefined);
    for (const kit of contentKits().values())
      for (const t of [...kit.titles, ...kit.sentences, ...kit.products])
        assert.equal(placeholderIn(t), undefined, t);
    assert.ok(contentKits().size >= 10);
  });
  test('three tasks of a pool share no paragraph, no set repeats a title, and slots are filled', () => {
    const pool = offlineContentPool(
      'finance',
      { titles: 6, sentences: 6, paragraphs: 4, products: 4 },
      3,
      42,
    );
    const paragraphs = pool.sets.flatMap((s) => s.paragraphs);
    assert.equal(new Set(paragraphs).size, paragraphs.length);
    for (const set of pool.sets) assert.equal(new Set(set.titles).size, set.titles.length);
    const prose = proseSourceFor(pool.sets[0]!, 7);
    const text = Array.from({ length: 6 }, () => prose.next('paragraph')).join(' ');
    assert.doesNotMatch(text, /\{[a-z0-9]+\}/);
  });
  test('cell addresses are found as people write them, quarters and paper sizes are not', () => {
    assert.deepEqual(cellAddressesIn('Put it in B12, then sum C2:C20.'), ['B12', 'C2:C20']);
    assert.deepEqual(cellAddressesIn('The Q1 and Q2 figures on A4 paper.'), []);
    assert.deepEqual(cellAddressesIn('A dark red (C00000) background, as in E10 and AA100000.'), [
      'E10',
      'AA100000',
    ]);
  });
  test('every skill authors at every level offline: English, no placeholder, instruction checks pass', async () => {
    const failures: string[] = [];
    for (const [id, { spec }] of loadSkillLibrary()) {
      for (const level of LEVELS) {
        const r = await authorTask(spec, 1000 + id.length, offlineCaller, {
          level,
          roundId: 'unit',
          taskIndex: 0,
        });
        if (!r.ok) {
          failures.push(`${id} ${level}: ${r.reason} ${r.detail}`);
          continue;
        }
        const m = await materializeTask(spec, r.context);
        const problems = instructionProblems({
          instruction: m.instruction,
          level,
          checks: m.checks as Record<string, unknown>[],
          prepares: m.prepares,
        });
        for (const p of problems) failures.push(`${id} ${level}: ${p.rule}: ${p.detail}`);
        const hit = [m.instruction, JSON.stringify(m.prepares.map((p) => p.doc))]
          .map(placeholderIn)
          .find(Boolean);
        if (hit) failures.push(`${id} ${level}: placeholder ${hit.kind} "${hit.text}"`);
        // Only where the task has a sheet: elsewhere F12 is a key and B2 a paper size.
        const sheets = spec.apps.some((app) => preparers[app].instruction?.cellAddresses);
        if (level !== 'explicit' && sheets && cellAddressesIn(m.instruction).length > 0)
          failures.push(`${id} ${level}: names a cell: ${m.instruction}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});
