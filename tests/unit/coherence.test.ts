import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { coherenceProblems } from '../../taskcore/verify/coherence.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

const mail = (from: string, text: string, extra: Record<string, unknown> = {}) => ({
  from,
  to: ['Priya Shah <priya.shah@harbourtrust.org>'],
  subject: 'Room for the quarterly review',
  date: '2026-03-02T09:30:00Z',
  text,
  ...extra,
});
const inbox = (...messages: unknown[]) => ({ folders: [{ path: 'Inbox', messages }] });
const problems = (docs: unknown[], instruction = 'Book the room the mail asks for.') =>
  coherenceProblems({ instruction, docs });

describe('coherence: artefacts that contradict each other', () => {
  test('a mail signed by its sender, a short form of their name, or anyone on a team address holds together', () => {
    assert.deepEqual(
      problems([
        inbox(
          mail('Ann Lee <ann.lee@harbourtrust.org>', 'Hi Priya,\n\nCould we have room 4?\n\nBest,\nAnn\n'),
          mail('Robert Mendes <robert.mendes@harbourtrust.org>', 'Fine by me.\n\nThanks,\nRob\nFacilities'),
          mail('Facilities <facilities@harbourtrust.org>', 'Booked.\n\nRegards,\nTom'),
          mail('Ann Lee <ann.lee@harbourtrust.org>', 'The review is on Tuesday, 3 March 2026 at 10:00.'),
        ),
      ]),
      [],
    );
  });

  test('a mail from one person signed with another person’s name is incoherent', () => {
    const found = problems([
      inbox(
        mail('Ann Lee <ann.lee@harbourtrust.org>', 'Could we have room 4?\n\nKind regards,\nMarcus Bell'),
      ),
    ]);
    assert.deepEqual(found, ['a mail from "Ann Lee" is signed "Marcus"']);
  });

  test('one address given to two people, or a name on someone else’s address, is incoherent', () => {
    const twoPeople = problems([
      inbox(
        mail('Ann Lee <a.lee@harbourtrust.org>', 'Room 4, please.'),
        mail('Arthur Lee <a.lee@harbourtrust.org>', 'Room 5, please.'),
      ),
    ]);
    assert.equal(twoPeople.length, 1);
    assert.match(twoPeople[0]!, /a\.lee@harbourtrust\.org belongs to both "Ann Lee" and "Arthur Lee"/);
    // The instruction and the files are read together.
    assert.deepEqual(
      problems(
        [inbox(mail('Ann Lee <ann.lee@harbourtrust.org>', 'Room 4.'))],
        'Reply to Tod Schultz <ann.lee@harbourtrust.org>.',
      ),
      ['"Tod Schultz" is named on ann.lee@harbourtrust.org'],
    );
    // An organisation named on its own domain is its address.
    assert.deepEqual(
      problems([inbox(mail('City Library <notices@citylibrary.org>', 'Your books are due.'))]),
      [],
    );
  });

  test('a weekday beside a date it does not fall on, or a date that does not exist, is incoherent', () => {
    assert.deepEqual(problems([{ paragraphs: ['The review is on Monday, 3 March 2026.'] }]), [
      '"Monday, 3 March 2026" falls on a tuesday',
    ]);
    assert.deepEqual(problems([{ title: 'Board meeting: Thursday, March 5th, 2026' }]), []);
    assert.deepEqual(problems([{ title: 'Board meeting: Friday, March 5th, 2026' }]), [
      '"Friday, March 5th, 2026" falls on a thursday',
    ]);
    assert.deepEqual(problems([{ title: 'Payroll closes Tue 31 Feb 2026' }]), [
      '"Tue 31 Feb 2026" is not a date',
    ]);
  });

  test('one event given two dates across the files is incoherent; series, ranges and moves are not', () => {
    const deck = (...body: string[]) => ({ slides: [{ layout: 'title_content', title: 'Events', body }] });
    const memo = (text: string) => ({ blocks: [{ type: 'paragraph', runs: [{ text }] }] });
    assert.deepEqual(
      problems([
        deck('Please let Karen know if you can bake for the cake sale on 25 June.'),
        inbox(
          mail('Ann Lee <ann.lee@harbourtrust.org>', 'Thanks to all who baked for the cake sale on 17 June.'),
        ),
      ]),
      ['"cake sale" is on 25 June and on 17 June'],
    );
    assert.deepEqual(
      problems([
        deck('Board meeting: Thursday, 5 March 2026'),
        memo('The board meeting is on 12 March 2026.'),
      ]),
      ['"board meeting" is on 5 March 2026 and on 12 March 2026'],
    );
    // The same day written two ways, and two different events, agree.
    assert.deepEqual(
      problems([
        deck('Open day: March 5th, 2026', 'Quiz night on 6 March'),
        memo('The open day is on 5 March.'),
      ]),
      [],
    );
    // Near misses: a recurring event, an ordinal, a range, a moved date, a schedule's list, other years.
    const near = [
      [deck('The team meeting on 5 March is weekly.'), memo('The team meeting on 12 March is weekly.')],
      [memo('The next board meeting is on 5 March.'), memo('The board meeting is on 12 March.')],
      [
        memo('The book fair on 5 March – 7 March needs helpers.'),
        memo('The book fair on 6 March opens at ten.'),
      ],
      [memo('The board meeting is on 5 March.'), memo('The board meeting has moved: it is on 12 March.')],
      [deck('Board meeting: 5 March', 'Board meeting: 2 April')],
      [memo('The open day on 5 March 2025 drew a crowd.'), memo('The open day on 7 March 2026 is booked.')],
      [
        memo('The cake sale on 5 March.'),
        memo('The cake sale on 6 March.'),
        memo('The cake sale on 7 March.'),
      ],
      [
        memo('Ann has her performance review on 5 March.'),
        memo('Tom has his performance review on 9 March.'),
      ],
      // A data file is a table, not prose: a CSV of meetings lists occurrences.
      [
        {
          entries: [
            { path: 'events.csv', type: 'file', content: 'Board meeting,5 March\nBoard meeting,2 April\n' },
          ],
        },
      ],
    ];
    for (const docs of near) assert.deepEqual(problems(docs), [], JSON.stringify(docs));
    // A task that asks for the date to be set right holds the right one in its changes.
    const fix = [{ op: 'impress.set_text', slide: 1, text: 'Board meeting: 12 March' }];
    assert.deepEqual(
      coherenceProblems({
        instruction: 'Bring the deck in line with the memo.',
        docs: [deck('Board meeting: 5 March'), memo('The board meeting is on 12 March.')],
        changes: fix,
      }),
      [],
    );
  });

  test('a figure the prose gives a sheet label that the sheet does not hold is incoherent', () => {
    const book = {
      sheets: [
        {
          name: 'Costs',
          columns: [
            { header: 'Item', type: 'text' },
            { header: 'Amount', type: 'currency' },
          ],
          rows: [
            ['Travel', 1240.5],
            ['Meals', 312],
            ['Meals', 88],
          ],
          cells: [
            { cell: 'D8', value: 'Share' },
            { cell: 'E8', value: 0.125 },
          ],
          formulas: [{ cell: 'B5', formula: 'SUM(B2:B4)' }],
        },
      ],
    };
    const memo = (text: string) => ({ blocks: [{ type: 'paragraph', runs: [{ text }] }] });
    assert.deepEqual(problems([book, memo('Travel: 1,420.50. Meals were fine.')]), [
      '"Travel" is 1,420.50 in the text and 1240.5 in the sheet',
    ]);
    // Whitespace runs count as one space (or one line break): a long run in model-written text
    // changes nothing, and the patterns never retry across it.
    assert.deepEqual(problems([book, memo(`Travel:${' '.repeat(50_000)}1,420.50. Meals were fine.`)]), [
      '"Travel" is 1,420.50 in the text and 1240.5 in the sheet',
    ]);
    assert.deepEqual(
      problems([book, memo(`Travel${' '.repeat(50_000)}and more.\n\n\nMeals were fine.`)]),
      [],
    );
    // The held figure, rounded or as a percentage, agrees.
    for (const text of ['Travel: £1,240.50.', 'Travel came to 1,241.', 'The share is 12.5%.', 'Share: 0.125'])
      assert.deepEqual(problems([book, memo(text)]), [], text);
    // Near misses: a label on several rows, a figure with a unit or a qualifier, another measure of
    // the label, an estimate, a figure the task asks for, a sum whose value is not stored.
    const near: [string, unknown?][] = [
      ['Meals: 400.'],
      ['Travel: 3 trips this month.'],
      ['Total travel: 2,000.'],
      ['Travel is about 1,300.'],
      ['Travel should be 1,300 after the refund.'],
      ['Ann said our travel figure: 1,300.'],
      ['Travel: 1,300.', [{ op: 'calc.set_cells', cells: [{ cell: 'B2', value: 1300 }] }]],
    ];
    for (const [text, changes] of near)
      assert.deepEqual(
        coherenceProblems({ instruction: 'Tidy the sheet.', docs: [book, memo(text)], changes }),
        [],
        text,
      );
    // A settings file is not prose: its "travel = 0" is the slot the task may fill.
    assert.deepEqual(
      problems([book, { entries: [{ path: 'budget.ini', type: 'file', content: 'travel = 0\n' }] }]),
      [],
    );
    // Only the sheet as the task starts counts: the instruction may ask for a new figure.
    assert.deepEqual(
      problems([book, memo('Meals were fine.')], 'Change Travel to 1,300 and mail Ann: Travel: 1,300.'),
      [],
    );
  });

  test('the pipeline rejects an incoherent task as content_incoherent before building anything', async () => {
    const [id, { spec }] = [...loadSkillLibrary()].find(([k]) => k === 'thunderbird.messages.flag-message')!;
    const authored = await authorTask(spec, 11, offlineCaller, { level: 'explicit' });
    assert.ok(authored.ok, id);
    const coherent = await prepareInMemory(spec, 'file', authored.context);
    assert.ok(coherent.ok, coherent.ok ? '' : `${coherent.reason}: ${coherent.detail}`);
    // The same task with one sender's address handed to another person in the instruction.
    const sender = JSON.stringify(authored.context).match(
      /"([A-Z][a-z]+ [A-Z][a-z]+) <([^<>\s]+@[^<>\s]+)>"/,
    );
    assert.ok(sender, 'the offline author names a sender');
    const spoiled = structuredClone(authored.context) as Record<string, unknown>;
    const text = JSON.stringify(spoiled).replaceAll(
      `${sender[1]} <${sender[2]}>`,
      `Tod Schultz <${sender[2]}>`,
    );
    const rejected = await prepareInMemory(spec, 'file', JSON.parse(text));
    assert.equal(rejected.ok, false);
    assert.equal(rejected.ok ? '' : rejected.reason, 'content_incoherent');
    assert.equal(rejected.ok ? '' : rejected.node, 'verify_coherence');
  });
});
