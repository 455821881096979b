import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en, Faker } from '@faker-js/faker';
import JSZip from 'jszip';
import { z } from 'zod';
import {
  contentFigures,
  fileContent,
  fileText,
  HONORIFIC_SUFFIX,
  namesFile,
  type TaskContent,
} from '../../app/contentFigures.ts';
import { contentKits, offlineContentPool } from '../../llm/offline/content/kit.ts';
import { drawPerson, isPersonName } from '../../llm/offline/content/people.ts';
import { TOWNS } from '../../llm/offline/content/towns.ts';
import { createRng } from '../../llm/offline/prng.ts';
import { fillSchema } from '../../llm/offline/schemaFill.ts';
import { castFor, proseSourceFor, seasonOf } from '../../skills/content/pool.ts';
import { generateRecords } from '../../skills/generate.ts';
import { nameMatchesAddress } from '../../taskcore/verify/people.ts';

const task = (over: Partial<TaskContent>): TaskContent => ({
  taskId: 't',
  skillId: 's',
  level: 'explicit',
  instruction: '',
  context: {},
  openFiles: [],
  files: [],
  ...over,
});

describe('content figures (forge report content)', () => {
  test('name ↔ address: mismatches counted, matching and role addresses not', () => {
    assert.ok(nameMatchesAddress('Ann Lee', 'ann.lee@brightwater.co.uk'));
    assert.ok(nameMatchesAddress('Ann Lee', 'alee@x.com'));
    assert.ok(nameMatchesAddress('Finance team', 'accounts@x.com'));
    assert.ok(nameMatchesAddress('Harbor Credit Union', 'alerts@harborcu.org'));
    assert.ok(!nameMatchesAddress('Tod Schultz', 'zoe29@gmail.com'));
    const f = contentFigures([
      task({
        taskId: 'a',
        instruction: 'Send it to Ann Lee <ann.lee@x.com> and Bo Chan <zoe29@gmail.com>.',
        context: { data: { records: [{ name: 'Kurt Smith', email: 'lorna_wunsch@yahoo.com' }] } },
      }),
    ]);
    assert.equal(f.nameAddressMismatches, 2);
    assert.deepEqual(f.mismatchExamples.map((e) => e.address).sort(), [
      'lorna_wunsch@yahoo.com',
      'zoe29@gmail.com',
    ]);
  });

  test('headings: a document headed by a topic of its content, and its body lines on that subject', () => {
    const content = {
      topics: [
        {
          title: 'Spring appeal results',
          sentences: ['The appeal raised more than {amount}.', '{person} will thank every donor.'],
        },
        { title: 'Printer problems', sentences: ['The printer on floor two needs a new driver.'] },
      ],
    };
    const f = contentFigures([
      task({
        taskId: 'on',
        context: { content },
        files: [
          {
            path: 'Documents/appeal.docx',
            units: [
              'News release: Spring appeal results',
              'The appeal raised more than £4,000. Ann Lee will thank every donor.',
            ],
          },
        ],
      }),
      task({
        taskId: 'off',
        context: { content },
        files: [
          {
            path: 'Documents/appeal.docx',
            units: [
              'Spring appeal results',
              'The printer on floor two needs a new driver.',
              'Ann Lee will thank every donor.',
            ],
          },
          { path: 'Desktop/flyer.docx', units: ['Our flyer', 'The appeal raised more than £9.'] },
          // Not a document: a deck's title slide is not measured here.
          { path: 'Desktop/deck.pptx', units: ['Printer problems', 'The appeal raised more than £9.'] },
        ],
      }),
    ]);
    assert.equal(f.headedDocuments, 2);
    assert.equal(f.unheadedDocuments, 1);
    assert.equal(f.topicLinesInBodies, 4);
    assert.equal(f.headingTopicLines, 3);
    assert.equal(f.headingAgreement, 3 / 4);
    assert.deepEqual(
      f.offSubjectExamples.map((e) => [e.taskId, e.line]),
      [['off', 'The printer on floor two needs a new driver.']],
    );
  });

  test('headings: a later heading that is another topic starts its chapter', () => {
    const content = {
      topics: [
        { title: 'Spring appeal results', sentences: ['The appeal raised more than {amount}.'] },
        { title: 'Printer problems', sentences: ['The printer on floor two needs a new driver.'] },
      ],
    };
    const units = [
      'Spring appeal results',
      'The appeal raised more than £9.',
      'Printer problems',
      'The printer on floor two needs a new driver.',
    ];
    const two = contentFigures([
      task({ context: { content }, files: [{ path: 'Documents/h.docx', units }] }),
    ]);
    assert.deepEqual([two.topicLinesInBodies, two.headingTopicLines], [2, 2]);
    // Without the second heading, the printer line is off the document's subject.
    const one = contentFigures([
      task({
        context: { content },
        files: [{ path: 'Documents/h.docx', units: units.filter((_, i) => i !== 2) }],
      }),
    ]);
    assert.deepEqual([one.topicLinesInBodies, one.headingTopicLines], [2, 1]);
  });

  test('slides: the topic lines on a slide titled by a topic, and the share from its own', () => {
    const content = {
      topics: [
        {
          title: 'Help desk trends',
          sentences: ['Most tickets were about printers.', '{person} answers within a day.'],
        },
        { title: 'Mail server', sentences: ['The old mail server goes off on {date}.'] },
      ],
    };
    const f = contentFigures([
      task({
        taskId: 'deck',
        context: { content },
        files: [
          {
            path: 'Desktop/it.pptx',
            units: [],
            slides: [
              // A title slide: no topic's, not measured.
              ['IT update', 'Most tickets were about printers.'],
              [
                'Help desk trends',
                'Most tickets were about printers.',
                'Ann Lee answers within a day.',
                'The old mail server goes off on 3 May.',
                // Another topic's title as a bullet is off this slide's title too.
                'Mail server',
              ],
              ['Title TBD', 'The old mail server goes off on 3 May.'],
            ],
          },
        ],
      }),
    ]);
    assert.equal(f.slideTopicLines, 4);
    assert.equal(f.slideTitleLines, 2);
    assert.equal(f.slideAgreement, 2 / 4);
    assert.deepEqual(
      f.offTitleExamples.map((e) => [e.title, e.line]),
      [
        ['Help desk trends', 'The old mail server goes off on 3 May.'],
        ['Help desk trends', 'Mail server'],
      ],
    );
  });

  test('the cast: two colleagues with different surnames and first names, a real town for {place}', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const cast = castFor(seed);
      assert.notEqual(cast.person.split(' ').at(-1), cast.person2.split(' ').at(-1), `seed ${seed}`);
      assert.notEqual(cast.person.split(' ')[0], cast.person2.split(' ')[0], `seed ${seed}`);
      assert.ok((TOWNS as readonly string[]).includes(cast.place), `seed ${seed}: ${cast.place}`);
    }
  });

  test('a date in a sentence about a season falls in that season; a deadline before it does not have to', () => {
    const month = (d: string) => d.slice(d.indexOf(' ') + 1);
    for (let seed = 1; seed <= 100; seed++) {
      const cast = castFor(seed);
      assert.ok(
        ['March', 'April', 'May'].includes(month(cast.date('The spring range arrives in stores on {date}'))),
        `seed ${seed}`,
      );
      assert.ok(['June', 'July', 'August'].includes(month(cast.date('The summer fair is on {date}'))));
      assert.equal(month(cast.date('The Christmas party is on {date} at the Crown')), 'December');
      // The same sentence names the same day wherever the task uses it.
      assert.equal(cast.date('The summer fair is on {date}'), cast.date('The summer fair is on {date}'));
    }
    assert.deepEqual(seasonOf('The summer fair is on {date}.'), ['June', 'July', 'August']);
    assert.equal(seasonOf('Please book summer leave in the shared calendar before {date}.'), undefined);
    assert.equal(seasonOf('We will start on {date}, after the summer break.'), undefined);
    assert.equal(seasonOf('The car is due its service on {date}.'), undefined);
  });

  test('a partner organisation is of the trade its sentence names, the same one all through the task', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const cast = castFor(seed);
      const deliveries = cast.orgIn(
        'Deliveries from {org} arrive at the side entrance between seven and nine.',
      );
      assert.match(deliveries, /(Logistics|Wholesale|Supplies|Distribution)( Ltd)?$/, `seed ${seed}`);
      assert.equal(cast.orgIn('Our new supplier, {org}, delivers twice a week instead of once.'), deliveries);
      assert.match(
        cast.orgIn('We are applying to {org} for a grant to repair the roof.'),
        /(Trust|Foundation|Fund)$/,
      );
      assert.match(
        cast.orgIn('We found a cheaper broadband deal with {org}.'),
        /(Telecom|Broadband)( Ltd)?$/,
      );
      assert.equal(cast.orgIn('{person2} agreed sixty-day terms with {org}.'), cast.org, 'no trade named');
      assert.notEqual(deliveries, cast.ours);
    }
  });

  test('honorific suffixes: distinct suffixed names over the tasks', () => {
    for (const n of [
      'Mozell Raynor PhD',
      'Duane Crona DVM',
      'Wm Braun V',
      'Ayana Kulas Sr.',
      'Pedro Donnelly III',
    ])
      assert.match(n, HONORIFIC_SUFFIX);
    for (const n of ['Phase II', 'Ann Lee', 'Stage IV results']) assert.doesNotMatch(n, HONORIFIC_SUFFIX);
    const f = contentFigures([
      task({ taskId: 'a', context: { people: ['Duane Crona DVM', 'Ann Lee'] } }),
      task({ taskId: 'b', context: { from: 'Duane Crona DVM <duane@x.com>', other: 'Jo Park Jr.' } }),
    ]);
    assert.equal(f.honorificSuffixes, 2);
  });

  test('top recipient: the address named in the most tasks, as a share of tasks', () => {
    const f = contentFigures([
      task({ taskId: 'a', instruction: 'Mail julia@hm.de and bo@x.com.' }),
      task({ taskId: 'b', context: { to: ['Julia Hoff <julia@hm.de>'] } }),
      task({ taskId: 'c', instruction: 'Mail bo2@x.com.' }),
      task({ taskId: 'd' }),
    ]);
    assert.deepEqual(f.topRecipient, { address: 'julia@hm.de', tasks: 2, share: 0.5 });
  });

  test('sentences repeated within one prose file; tables and other files do not count', async () => {
    const zip = new JSZip();
    const slide = (text: string) =>
      `<p:sld xmlns:a="a" xmlns:p="p"><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sld>`;
    const said = 'The survey closed with just over six hundred responses.';
    zip.file('ppt/slides/slide1.xml', slide(`${said} Thanks to everyone who helped.`));
    zip.file('ppt/slides/slide2.xml', slide(said));
    const deck = await zip.generateAsync({ type: 'uint8array' });
    const units = await fileText('Desktop/review.pptx', deck);
    assert.deepEqual(units, [`${said} Thanks to everyone who helped.`, said]);
    // Slide by slide, in the slides' order (slide10 after slide2).
    zip.file('ppt/slides/slide10.xml', slide('Questions'));
    const ten = await fileContent('Desktop/review.pptx', await zip.generateAsync({ type: 'uint8array' }));
    assert.deepEqual(ten?.slides, [[`${said} Thanks to everyone who helped.`], [said], ['Questions']]);
    zip.remove('ppt/slides/slide10.xml');
    const f = contentFigures([
      task({
        files: [
          { path: 'Desktop/review.pptx', units: units! },
          { path: 'Desktop/other.docx', units: [said] },
          { path: 'Desktop/rows.xlsx', units: [said, said] },
        ],
      }),
    ]);
    assert.equal(f.duplicateSentences, 1);
    assert.equal(f.filesWithDuplicates, 1);
    assert.equal(f.duplicateExamples[0]!.path, 'Desktop/review.pptx');
  });

  test('a mail folder reads as its bodies, decoded as Thunderbird shows them, without quoted lines', async () => {
    const mbox = [
      'From - Mon Jan  6 09:00:00 2025',
      'From: Ann Lee <ann.lee@example.com>',
      'Subject: Portal trial',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'The trial copy of the portal is at the usual address and anything you=',
      ' download can go in the test folder. The caf=C3=A9 opens at nine.',
      '> An earlier line quoted back.',
      '',
    ].join('\n');
    const units = await fileText('Mail/Local Folders/Inbox', new TextEncoder().encode(mbox));
    assert.equal(units?.length, 1);
    assert.match(units![0]!, /anything you download can go in the test folder\. The café opens at nine\./);
    assert.doesNotMatch(units![0]!, /quoted back/);
  });

  test('paragraphs another task of the same skill also has', () => {
    const note =
      'Files saved here are published every morning. Ask the communications team if one does not appear.';
    const mail = `Hi all,\n\nThe portal goes live on Monday, so please set up your browser before then. Leave your start-up pages as they are.\n\nThanks,\nAnn`;
    const f = contentFigures([
      task({ taskId: 'a', skillId: 'x', files: [{ path: 'Shared/README.txt', units: [note] }] }),
      // The same note with other spacing, and the mail's middle paragraph under another greeting.
      task({
        taskId: 'b',
        skillId: 'x',
        files: [
          { path: 'Shared/README.txt', units: [note.replace(' Ask', '\nAsk')] },
          { path: 'Mail/Local Folders/Inbox', units: [mail] },
        ],
      }),
      task({
        taskId: 'c',
        skillId: 'x',
        files: [{ path: 'Mail/Local Folders/Inbox', units: [mail.replace('Ann', 'Bo')] }],
      }),
      // Another skill's task, a one-sentence line, a sheet and a site's page do not count.
      task({ taskId: 'd', skillId: 'y', files: [{ path: 'Shared/README.txt', units: [note] }] }),
      task({
        taskId: 'e',
        skillId: 'x',
        files: [{ path: 'a.txt', units: ['Keep this folder tidy, please, everyone.'] }],
      }),
      task({
        taskId: 'f',
        skillId: 'x',
        files: [{ path: 'b.txt', units: ['Keep this folder tidy, please, everyone.'] }],
      }),
      task({ taskId: 'g', skillId: 'x', files: [{ path: 'rows.csv', units: [note] }] }),
      task({ taskId: 'h', skillId: 'x', files: [{ path: 'Sites/x/index.html', units: [`<p>${note}</p>`] }] }),
      task({ taskId: 'i', skillId: 'x', files: [{ path: 'Sites/x/index.html', units: [`<p>${note}</p>`] }] }),
    ]);
    assert.equal(f.sharedParagraphs, 2);
    assert.equal(f.skillParagraphs, 3);
    assert.deepEqual(
      f.sharedParagraphExamples.map((e) => [e.skillId, e.taskIds.sort()]),
      [
        ['x', ['a', 'b']],
        ['x', ['b', 'c']],
      ],
    );
    assert.match(f.sharedParagraphExamples[1]!.paragraph, /^the portal goes live on monday/);
  });

  test('natural/goal instructions naming a file that is already open', () => {
    const open = ['Desktop/q2_sales.xlsx'];
    const f = contentFigures([
      task({ level: 'natural', openFiles: open, instruction: 'In q2_sales.xlsx, total the Amount column.' }),
      task({ level: 'goal', openFiles: open, instruction: 'I need the sales total under the column.' }),
      task({ level: 'goal', openFiles: ['Desktop/budget.xlsx'], instruction: 'Fix the budget totals.' }),
      task({ level: 'explicit', openFiles: open, instruction: 'Open q2_sales.xlsx and add a SUM.' }),
    ]);
    assert.equal(f.naturalGoalTasks, 3);
    assert.equal(f.namingOpenFile, 1);
    assert.equal(f.namingOpenFileShare, 1 / 3);
  });

  test('a file is named by its name or a stem no words could be, not by the words its title is made of', () => {
    assert.ok(namesFile('Total the Amount column in ~/Desktop/q2_sales.xlsx.', 'Desktop/q2_sales.xlsx'));
    assert.ok(namesFile('Total the Amount column in q2_sales.', 'Desktop/q2_sales.xlsx'));
    assert.ok(namesFile('The tests in ~/projects/order-sync fail.', 'projects/order-sync'));
    // What the file holds, said in words; a new file whose name starts with the stem; an app's profile.
    assert.ok(!namesFile('Group the expense claims by Team.', 'Documents/expense claims.xlsx'));
    assert.ok(!namesFile('Export it as rota-planner.jpg next to the PNG.', 'Pictures/rota-planner.png'));
    assert.ok(!namesFile('Save a copy as q2_sales_backup.xlsx.', 'Desktop/q2_sales.xlsx'));
    assert.ok(!namesFile("Put the Home button on Chromium's toolbar.", '.config/chromium'));
  });
});

describe('generated people, organisations and lists', () => {
  test('records: names without suffixes whose addresses match; a firm gets a firm address', () => {
    const people = generateRecords(
      { records: 300, fields: { name: 'full_name', email: { kind: 'email', unique: true } }, duplicates: 0 },
      7,
    );
    for (const r of people.records) {
      assert.doesNotMatch(String(r.name), HONORIFIC_SUFFIX);
      assert.ok(isPersonName(String(r.name)), String(r.name));
      assert.ok(nameMatchesAddress(String(r.name), String(r.email)), `${r.name} <${r.email}>`);
    }
    assert.equal(new Set(people.records.map((r) => r.email)).size, 300);
    assert.ok(new Set(people.records.map((r) => r.name)).size > 250, 'a large cast');
    const firms = generateRecords(
      { records: 20, fields: { name: 'company', email: 'email' }, duplicates: 0 },
      3,
    );
    for (const r of firms.records) {
      assert.doesNotMatch(String(r.name), /,/);
      assert.ok(nameMatchesAddress(String(r.name), String(r.email)), `${r.name} <${r.email}>`);
    }
  });

  test('no place names or faker suffixes among first names; the cast of prose slots too', () => {
    const rng = createRng(5);
    const places = /^(Dakota|Dallas|Paris|Orlando|Houston|Brooklyn|Sydney|Austin|Savannah|Cheyenne|Camden)$/;
    for (let i = 0; i < 500; i++) assert.doesNotMatch(drawPerson(rng).first, places);
    for (let seed = 0; seed < 200; seed++) {
      const cast = castFor(seed);
      for (const n of [cast.person, cast.person2]) assert.ok(isPersonName(n) && !HONORIFIC_SUFFIX.test(n), n);
      assert.doesNotMatch(cast.org, /,/);
    }
  });

  test('kit list items are whole: no item split at a comma, no comma in a product', () => {
    for (const [domain, kit] of contentKits()) {
      for (const p of kit.products) {
        assert.doesNotMatch(p, /,/, `${domain}: ${p}`);
        assert.equal((p.match(/\(/g) ?? []).length, (p.match(/\)/g) ?? []).length, `${domain}: ${p}`);
      }
    }
    assert.ok(contentKits().get('retail')!.products.includes('Lined A5 notebook'));
    // Variants of a product beyond the set keep it one item.
    const set = offlineContentPool('retail', { titles: 2, sentences: 2, paragraphs: 0, products: 3 }, 1, 9)
      .sets[0]!;
    const prose = proseSourceFor(set, 4);
    for (let i = 0; i < 20; i++) assert.doesNotMatch(prose.next('product'), /,/);
  });

  test('the offline model draws a person where a hint lists a few, and keeps firms and newsletters', () => {
    const schema = z.toJSONSchema(
      z.object({
        owner: z.object({ name: z.string(), email: z.email() }),
        sender: z.string(),
        sender_email: z.email(),
        letter: z.object({ name: z.string(), email: z.email() }),
      }),
    ) as Record<string, unknown>;
    const fields = {
      owner: [{ name: 'Ingrid Solberg', email: 'ingrid@solberg-consult.no' }],
      sender: ['Helena Brooks'],
      sender_email: ['olu@adeyemi-partners.com'],
      letter: [{ name: 'The Weekly Spoke', email: 'news@weeklyspoke.com' }],
    };
    const owners = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const v = fillSchema(schema, {
        rng: createRng(seed),
        faker: new Faker({ locale: [en], seed }),
        fields,
      }) as {
        owner: { name: string; email: string };
        sender: string;
        sender_email: string;
        letter: { name: string; email: string };
      };
      owners.add(v.owner.email);
      assert.ok(nameMatchesAddress(v.owner.name, v.owner.email), JSON.stringify(v.owner));
      assert.ok(nameMatchesAddress(v.sender, v.sender_email), `${v.sender} <${v.sender_email}>`);
      assert.deepEqual(v.letter, fields.letter[0]);
    }
    assert.ok(owners.size > 30, `${owners.size} distinct owners over 40 seeds`);
  });
});
