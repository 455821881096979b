import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ContentSet } from '../../llm/offline/content/kit.ts';
import { DocumentTypeError, documentType, documentTypes } from '../../skills/content/documentTypes.ts';
import { castFor, proseSourceFor } from '../../skills/content/pool.ts';
import { generateRecords } from '../../skills/generate.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/** A frame or kit sentence as a pattern: its slots stand for whatever the task's cast filled in. */
const pattern = (s: string) =>
  new RegExp(`^${s.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-z0-9]+\\?\}/g, '.+?')}$`);
const oneOf = (text: string, variants: readonly string[]) => variants.some((v) => pattern(v).test(text));
const sentencesOf = (paragraph: string) => paragraph.split(/(?<=[.!?])\s+(?=[A-Z"])/);

describe('document types', () => {
  test('every type has its heading patterns, openings and closings, and no line is shared', () => {
    const types = documentTypes();
    assert.ok(types.size >= 40, `${types.size} types`);
    const lines: string[] = [];
    // Aliases share their type's object: each type's lines are counted once.
    for (const type of new Set(types.values())) {
      for (const t of type.title) assert.equal(t.split('{title}').length, 2, t);
      assert.ok(type.opening.length >= 3 && type.closing.length >= 3, type.title[0]);
      lines.push(...type.opening, ...type.closing);
    }
    assert.equal(new Set(lines).size, lines.length, 'a line in two places');
    // An alias is the same type under another name.
    assert.equal(documentType('audit summary'), documentType('audit report'));
    assert.equal(documentType(' Press Release '), documentType('press release'));
  });

  test('a name the table lacks is refused by name, never read as a path', () => {
    for (const name of ['travel notes', '../../etc/passwd', 'skills/content/documentTypes'])
      assert.throws(
        () => documentType(name),
        (err: unknown) => err instanceof DocumentTypeError && err.message.includes(`"${name}"`),
      );
    const prose = { next: () => 'A subject', frame: () => 'framed' };
    assert.throws(
      () =>
        generateRecords(
          { records: 1, fields: { n: { kind: 'int', frame: 'memo', unique: false } }, duplicates: 0 },
          1,
          prose,
        ),
      /field n: a frame fits a title or a paragraph, not int/,
    );
  });

  test('a framed Writer document opens and closes in its type and keeps to its heading’s subject', async () => {
    const { spec } = loadSkillLibrary().get('writer.editing.delete-paragraph')!;
    const seen = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const authored = await authorTask(spec, seed, offlineCaller, { level: 'explicit' });
      assert.ok(authored.ok, String(seed));
      const type = documentType(String((authored.context.params as { domain: string }).domain));
      seen.add(String((authored.context.params as { domain: string }).domain));
      const content = authored.context.content as ContentSet;
      const m = await materializeTask(spec, authored.context);
      const blocks = (
        m.prepares[0]!.doc as { blocks: { type: string; text?: string; runs?: { text: string }[] }[] }
      ).blocks;
      const heading = blocks[0]!.text!;
      const subject = content.topics.find((t) =>
        type.title.some((p) => p.replace('{title}', t.title) === heading),
      );
      assert.ok(subject, `seed ${seed}: heading "${heading}" is not a ${type.title.join(' / ')} of a topic`);
      const paragraphs = blocks.slice(1).map((b) => b.runs![0]!.text);
      const victim = paragraphs.findIndex((p) => p.startsWith('Remember '));
      const own = paragraphs.filter((_, i) => i !== victim);
      if (victim !== 0)
        assert.ok(oneOf(paragraphs[0]!, type.opening), `seed ${seed}: opening "${paragraphs[0]}"`);
      if (victim !== paragraphs.length - 1)
        assert.ok(oneOf(paragraphs.at(-1)!, type.closing), `seed ${seed}: closing "${paragraphs.at(-1)}"`);
      // The first paragraph of the body is about the heading's subject, sentence by sentence.
      const body = own.find((p, i) => i > 0 && !oneOf(p, type.opening))!;
      for (const s of sentencesOf(body))
        assert.ok(oneOf(s, subject.sentences), `seed ${seed}: "${s}" is not about "${subject.title}"`);
    }
    assert.ok(seen.size >= 2, 'the seeds drew one type only');
  });

  test('a framed body shares its subject’s lines over its paragraphs; an unframed record keeps three lines', () => {
    const topic = (title: string) => ({
      title,
      sentences: [1, 2, 3, 4].map((i) => `Line ${i} about ${title.toLowerCase()} for the team.`),
    });
    const set: ContentSet = {
      titles: [],
      topics: [topic('Budget'), topic('Travel')],
      sentences: [],
      paragraphs: [],
      products: [],
    };
    const prose = proseSourceFor(set, 3);
    const head = generateRecords(
      { records: 1, fields: { h: { kind: 'title', frame: 'memo', unique: false } }, duplicates: 0 },
      1,
      prose,
    );
    assert.ok(
      oneOf(
        String(head.records[0]!.h),
        documentType('memo').title.map((t) => t.replace('{title}', 'Budget')),
      ),
    );
    const doc = generateRecords(
      { records: 4, fields: { p: { kind: 'paragraph', frame: 'memo', unique: true } }, duplicates: 0 },
      2,
      prose,
    );
    const [opening, first, second, closing] = doc.records.map((r) => String(r.p));
    assert.ok(oneOf(opening!, documentType('memo').opening), opening);
    assert.ok(oneOf(closing!, documentType('memo').closing), closing);
    for (const body of [first!, second!]) {
      assert.equal(sentencesOf(body).length, 2, body);
      for (const x of sentencesOf(body)) assert.match(x, /about budget/);
    }
    // Four body paragraphs over four lines: one line each, all on the subject.
    const long = proseSourceFor(set, 4);
    generateRecords(
      { records: 1, fields: { h: { kind: 'title', frame: 'newsletter', unique: false } }, duplicates: 0 },
      1,
      long,
    );
    const bodies = generateRecords(
      { records: 6, fields: { p: { kind: 'paragraph', frame: 'newsletter', unique: true } }, duplicates: 0 },
      2,
      long,
    ).records.map((r) => String(r.p));
    for (const body of bodies.slice(1, -1)) assert.match(body, /^Line \d about budget for the team\.$/);
    assert.equal(new Set(bodies).size, 6);
    // A mail's body after its subject: three of the four lines, as before frames.
    const mail = generateRecords(
      { records: 1, fields: { subject: 'title', body: 'paragraph' }, duplicates: 0 },
      3,
      prose,
    );
    assert.equal(mail.records[0]!.subject, 'Travel');
    assert.equal(sentencesOf(String(mail.records[0]!.body)).length, 3);
  });

  test('a frame speaks for its own organisation, the one a spec names, never the partner its lines mention', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const cast = castFor(seed);
      assert.notEqual(cast.ours, cast.org, `seed ${seed}`);
    }
    const set: ContentSet = {
      titles: [],
      topics: [
        {
          title: 'Budget',
          sentences: ['Line one about the budget for {org}.', 'Line two about the budget.'],
        },
      ],
      sentences: [],
      paragraphs: [],
      products: [],
    };
    const framed = (seed: number, of?: string) => {
      const prose = proseSourceFor(set, seed);
      const field = { frame: 'annual report', unique: false, ...(of ? { of } : {}) };
      generateRecords({ records: 1, fields: { h: { kind: 'title', ...field } }, duplicates: 0 }, 1, prose);
      return generateRecords(
        { records: 3, fields: { p: { kind: 'paragraph', ...field } }, duplicates: 0 },
        2,
        prose,
      ).records.map((r) => String(r.p));
    };
    // Seeds whose opening names an organisation: it is the task's own (or the named one), not the partner.
    let naming = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const cast = castFor(seed);
      const [opening, body] = framed(seed);
      assert.ok(body!.includes(cast.org), body);
      assert.ok(!opening!.includes(cast.org), opening);
      if (!opening!.includes(cast.ours)) continue;
      naming++;
      const [named] = framed(seed, 'Harbor Logistics');
      assert.ok(named!.includes('Harbor Logistics') && !named!.includes(cast.ours), named);
    }
    assert.ok(naming >= 3, `${naming} of 30 openings name an organisation`);
  });

  test('a spec naming a type the table lacks fails as the spec’s error, named', async () => {
    const { spec } = loadSkillLibrary().get('writer.formatting.document-font')!;
    const broken = structuredClone(spec);
    (broken.params as Record<string, unknown>).domain = { pick: ['travel notes'] };
    const authored = await authorTask(broken, 1, offlineCaller, { level: 'explicit' });
    assert.equal(authored.ok, false);
    assert.ok(!authored.ok && authored.reason === 'spec_error', JSON.stringify(authored));
    assert.match(!authored.ok ? authored.detail : '', /no document type "travel notes"/);
  });
});
