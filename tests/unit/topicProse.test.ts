import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import {
  type ContentSet,
  classifyDomain,
  contentKits,
  kitFileSchema,
  offlineContentPool,
} from '../../llm/offline/content/kit.ts';
import { contentPoolSchema, contentPrompt, proseSourceFor, quotaFor } from '../../skills/content/pool.ts';
import { generateRecords } from '../../skills/generate.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/** A kit sentence as a pattern: its slots stand for whatever the task's cast filled in. */
const pattern = (s: string) =>
  new RegExp(`^${s.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-z0-9]+\\?\}/g, '.+?')}$`);
const fromTopic = (text: string, sentences: readonly string[]) =>
  sentences.some((s) => pattern(s).test(text));

const topic = (title: string, n = 4) => ({
  title,
  sentences: Array.from({ length: n }, (_, i) => `Line ${i + 1} about ${title.toLowerCase()} for the team.`),
});
const kitOf = (topics: unknown[]) => ({
  keywords: ['office'],
  topics,
  products: ['Stapler', 'Desk lamp', 'Paper (A4)', 'Pens', 'Mugs', 'Folders'],
});
const eight = Array.from({ length: 8 }, (_, i) => topic(`Topic number ${i + 1}`));

describe('topic-coherent prose', () => {
  test('every kit has at least eight topics of four sentences, no sentence under two titles', () => {
    for (const [domain, kit] of contentKits()) {
      assert.ok(kit.topics.length >= 8, domain);
      for (const t of kit.topics) assert.ok(t.sentences.length >= 4, `${domain}: ${t.title}`);
      assert.equal(new Set(kit.sentences).size, kit.sentences.length, domain);
      assert.deepEqual(
        kit.titles,
        kit.topics.map((t) => t.title),
      );
    }
    assert.ok(kitFileSchema.safeParse(kitOf(eight)).success);
    const rejects = (why: string, kit: unknown) =>
      assert.equal(kitFileSchema.safeParse(kit).success, false, why);
    rejects('seven topics', kitOf(eight.slice(1)));
    rejects('a topic of three sentences', kitOf([...eight.slice(1), topic('Short topic', 3)]));
    rejects(
      'one sentence under two titles',
      kitOf([...eight, { ...topic('Copy'), sentences: eight[0]!.sentences }]),
    );
    rejects('a title twice', kitOf([...eight, topic('Topic number 1')]));
    // A YAML flow list would split "Room (A, B)" at its comma: the halves are unbalanced.
    rejects(
      'unbalanced bracket',
      kitOf([
        ...eight.slice(1),
        { ...topic('Rooms'), sentences: ['Meet in room (A', ...topic('Rooms').sentences] },
      ]),
    );
    rejects('the old flat lists', { ...kitOf(eight), titles: ['A title'] });
    assert.ok(stringify(kitOf(eight)).includes('topics:'));
  });

  test('the offline content set pairs each title with its kit topic', () => {
    const quota = quotaFor(['title', 'sentence']);
    const pool = offlineContentPool('clinic', quota, 3, 7);
    const kit = contentKits().get('clinic')!;
    assert.ok(contentPoolSchema(quota, 3).safeParse(pool).success);
    for (const set of pool.sets) {
      assert.deepEqual(
        set.titles,
        set.topics.map((t) => t.title),
      );
      for (const t of set.topics)
        assert.deepEqual(
          [...t.sentences].sort(),
          [...kit.topics.find((k) => k.title === t.title)!.sentences].sort(),
        );
    }
    // Titles alone (mail subjects, bookmark names) carry no sentences.
    assert.deepEqual(offlineContentPool('clinic', quotaFor(['title']), 1, 7).sets[0]!.topics, []);
    // The model is asked for sentences written for each title, and must give them.
    assert.match(
      contentPrompt(loadSkillLibrary().get('impress.slides.add-title-bullets')!.spec, 'clinic', quota, 3),
      /written about exactly that title/,
    );
    const bare = { sets: pool.sets.map((s) => ({ ...s, topics: [] })) };
    assert.equal(contentPoolSchema(quota, 3).safeParse(bare).success, false);
  });

  test("a record takes its body from its title, later titles never reuse an earlier one's lines", () => {
    const set: ContentSet = {
      titles: ['Budget', 'Travel'],
      topics: [topic('Budget'), topic('Travel')],
      sentences: ['A loose line that belongs to no title at all.', 'Another loose line for the memo.'],
      paragraphs: [],
      products: [],
    };
    const prose = proseSourceFor(set, 3);
    // No title drawn yet: the loose sentences, as before topics existed.
    assert.equal(prose.next('sentence'), 'A loose line that belongs to no title at all.');
    const mail = generateRecords(
      { records: 3, fields: { subject: 'title', body: 'paragraph', ps: 'sentence' }, duplicates: 0 },
      5,
      prose,
    );
    const [budget, travel, again] = mail.records as { subject: string; body: string; ps: string }[];
    assert.equal(budget!.subject, 'Budget');
    for (const x of [...budget!.body.split(/(?<=\.) /), budget!.ps]) assert.match(x, /about budget/);
    for (const x of [...travel!.body.split(/(?<=\.) /), travel!.ps]) assert.match(x, /about travel/);
    // "Budget: next steps" has spent its topic: a follow-up note about it, then a loose line, and
    // not one already on the first record.
    assert.equal(again!.subject, 'Budget: next steps');
    assert.equal(
      again!.body,
      'I will draft the next steps on budget and send them round by the end of the week.',
    );
    assert.doesNotMatch(`${again!.body} ${again!.ps}`, /about budget/);
  });

  test('later mails of an Inbox are follow-ups of different kinds, each a note about its first mail, said once', () => {
    const set: ContentSet = {
      titles: ['Flu clinic', 'Blue Harbor launch'],
      topics: [topic('Flu clinic'), topic('Blue Harbor launch')],
      sentences: ['A loose line that belongs to no title at all.', 'Another loose line for the memo.'],
      paragraphs: [],
      products: [],
    };
    const mail = generateRecords(
      { records: 4, fields: { subject: 'title', body: 'paragraph', aside: 'paragraph' }, duplicates: 0 },
      5,
      proseSourceFor(set, 3),
    ).records as { subject: string; body: string; aside: string }[];
    assert.deepEqual(
      mail.map((m) => m.subject),
      ['Flu clinic', 'Blue Harbor launch', 'Flu clinic: next steps', 'Blue Harbor launch: questions'],
    );
    // The subject in the sentence as it reads there; a name keeps its capitals.
    assert.equal(
      mail[2]!.body,
      'I will draft the next steps on flu clinic and send them round by the end of the week.',
    );
    assert.match(mail[3]!.body, /^A couple of questions about Blue Harbor launch came up/);
    // A second paragraph under the same subject is not the note again.
    for (const m of mail.slice(2)) assert.notEqual(m.aside, m.body);
  });

  test('a mailbox with more messages than the set has paragraphs says no sentence twice while unused lines remain', () => {
    const set: ContentSet = {
      titles: ['Budget', 'Travel'],
      topics: [topic('Budget'), topic('Travel'), topic('Rota'), topic('Parking')],
      sentences: ['A loose line that belongs to no title at all.', 'Another loose line for the memo.'],
      paragraphs: ['Line 1 about budget for the team. Line 2 about budget for the team.'],
      products: [],
    };
    const prose = proseSourceFor(set, 3);
    // Five bodies without subjects: the set's one paragraph, then four of three lines each.
    const bodies = Array.from({ length: 5 }, () => prose.next('paragraph'));
    const lines = bodies.flatMap((b) => b.split(/(?<=\.) /));
    // 18 lines in the set, 14 handed out: none twice (they cycled through the set before).
    assert.equal(lines.length, 14, JSON.stringify(bodies));
    assert.equal(new Set(lines).size, lines.length, JSON.stringify(bodies));
    // Loose lines go first, then the topics no title has drawn.
    assert.match(bodies[1]!, /^A loose line/);
  });

  test("a signed body reads as a mail: a greeting, the text, a sign-off by the record's own person", () => {
    const set: ContentSet = {
      titles: ['Budget', 'Travel'],
      topics: [topic('Budget'), topic('Travel')],
      sentences: [],
      paragraphs: [],
      products: [],
    };
    const signed = { kind: 'paragraph' as const, signed: true, unique: false };
    const named = generateRecords(
      { records: 2, fields: { name: 'full_name', subject: 'title', body: signed }, duplicates: 0 },
      5,
      proseSourceFor(set, 3),
    ).records as { name: string; subject: string; body: string }[];
    for (const r of named) {
      const [greeting, text, close] = r.body.split('\n\n');
      assert.match(greeting!, /^(Hi|Hello|Morning)\b.*,$/, r.body);
      assert.match(text!, new RegExp(`about ${r.subject.toLowerCase()}`), r.body);
      assert.equal(close!.split('\n')[1], r.name.split(' ')[0], 'signed with the sender of that record');
    }
    // No person in the record (a newsletter, or a spec that sends it as someone else): no name.
    const bare = generateRecords(
      { records: 1, fields: { subject: 'title', body: signed }, duplicates: 0 },
      5,
      proseSourceFor(set, 3),
    ).records[0] as { body: string };
    assert.doesNotMatch(bare.body.split('\n\n')[2]!, /\n/);
  });

  test("per_title counts from the latest node of titles: an earlier step's subjects do not shift a deck", () => {
    const set: ContentSet = {
      titles: [],
      topics: [topic('Budget'), topic('Travel'), topic('Rota')],
      sentences: ['A loose line that belongs to no title at all.'],
      paragraphs: [],
      products: [],
    };
    const prose = proseSourceFor(set, 3);
    generateRecords({ records: 1, fields: { subject: 'title', body: 'paragraph' }, duplicates: 0 }, 1, prose);
    const deck = generateRecords({ records: 2, fields: { title: 'title' }, duplicates: 0 }, 2, prose);
    assert.deepEqual(
      deck.records.map((r) => r.title),
      ['Travel', 'Rota'],
    );
    const bullets = generateRecords(
      { records: 4, fields: { text: { kind: 'sentence', per_title: 2, unique: false } }, duplicates: 0 },
      3,
      prose,
    ).records.map((r) => String(r.text));
    for (const b of bullets.slice(0, 2)) assert.match(b, /about travel/);
    for (const b of bullets.slice(2)) assert.match(b, /about rota/);
  });

  test("every slide of an impress deck has bullets from its own title's topic, none on two slides", async () => {
    const { spec } = loadSkillLibrary().get('impress.slides.add-title-bullets')!;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const authored = await authorTask(spec, seed, offlineCaller, { level: 'explicit' });
      assert.ok(authored.ok, String(seed));
      const content = authored.context.content as ContentSet;
      const m = await materializeTask(spec, authored.context);
      const slides = (m.prepares[0]!.doc as { slides: { layout: string; title: string; body: string[] }[] })
        .slides;
      const titled = slides.filter((s) => content.topics.some((t) => t.title === s.title));
      assert.equal(titled.length, slides.length - 1, `seed ${seed}: all but the title slide`);
      for (const slide of titled) {
        const own = content.topics.find((t) => t.title === slide.title)!.sentences;
        assert.equal(slide.body.length, 3);
        for (const bullet of slide.body)
          assert.ok(fromTopic(bullet, own), `seed ${seed}: "${bullet}" under "${slide.title}"`);
      }
      const bullets = titled.flatMap((s) => s.body);
      assert.equal(new Set(bullets).size, bullets.length, `seed ${seed}: a bullet on two slides`);
    }
  });

  test('a task draws its sector from what it is about, not from the words that describe the software', () => {
    const skill = 'Saves it in the folder it was opened from; the order of the slides stays.';
    for (let seed = 1; seed <= 20; seed++) {
      // "it" is a pronoun and "order" the slides' order: the subject decides.
      assert.equal(classifyDomain('wedding slideshow', skill, seed), 'household');
      assert.equal(classifyDomain('vendor pitch | pitch_deck', skill, seed), 'retail');
      assert.equal(classifyDomain('IT migration', skill, seed), 'it');
      assert.equal(classifyDomain('patients seen this week', skill, seed), 'clinic');
      // A subject with no sector word leaves it to the skill's words, then to the seed.
      assert.equal(classifyDomain('annual letter', 'A price list for the shop', seed), 'retail');
    }
    // "order" (the slides') is not retail: only "orders" are.
    const drawn = new Set(
      Array.from({ length: 40 }, (_, seed) => classifyDomain('annual letter', skill, seed)),
    );
    assert.ok(drawn.size >= 5, `a subject naming no sector draws from every kit: ${[...drawn].join(', ')}`);
    // Whole words only: "items" holds no "it", "patiently" no patient.
    for (let seed = 1; seed <= 20; seed++)
      assert.equal(classifyDomain('items waiting patiently', 'A price list for the shop', seed), 'retail');
  });
});
