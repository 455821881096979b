import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { curlQuotes } from '../../preparers/office/asTyped.ts';
import { OoxmlPackage } from '../../preparers/ooxml/package.ts';
import { el, serializeXml } from '../../preparers/ooxml/xml.ts';
import type { FileMap } from '../../preparers/types.ts';
import { openDocx } from '../../preparers/writer/document.ts';
import { writerPreparer as W, type WriterCheck, type WriterDoc } from '../../preparers/writer/index.ts';
import { sampleWriterDoc, writerScenario } from '../../preparers/writer/sample.ts';
import { assertVerdicts, materializeHome, runCheckerBatch, shippedVerdicts } from '../support/checkerHome.ts';

const FILE = 'Documents/report.docx';

describe('writer schemas', () => {
  test('accept the scenario and reject unsafe paths, unknown ops and stray fields', () => {
    const { cases } = writerScenario(FILE);
    assert.ok(cases.length >= 13);
    const bad = [
      { op: 'writer.replace_text', file: '/etc/passwd.docx', find: 'a', replace: 'b' },
      { op: 'writer.replace_text', file: 'Documents/../../x.docx', find: 'a', replace: 'b' },
      { op: 'writer.replace_text', file: 'Documents/x.xlsx', find: 'a', replace: 'b' },
      { op: 'writer.explode', file: FILE },
      { op: 'writer.set_heading', file: FILE, paragraph: 'x', level: 1, extra: true },
      { op: 'writer.set_run_format', file: FILE, paragraph: 'x', color: '#FF0000' },
    ];
    for (const edit of bad) assert.equal(W.editSchema.safeParse(edit).success, false, JSON.stringify(edit));
    assert.equal(
      W.checkSchema.safeParse({ kind: 'writer.heading', file: FILE, paragraph: 'x', level: 0 }).success,
      false,
    );
    assert.equal(W.docSchema.safeParse({ blocks: [] }).success, false);
  });
});

describe('writer oracle edits', () => {
  const { doc, cases } = writerScenario(FILE);
  for (const c of cases) {
    test(`${c.edits.map((e) => e.op).join(' + ')} turns its checks from failing to passing`, async () => {
      const initial = await W.build(FILE, doc);
      const solved = await W.apply(initial, c.edits);
      for (const check of c.checks) {
        const before = await W.probe(initial, check);
        const after = await W.probe(solved, check);
        assert.equal(
          before.pass,
          false,
          `${check.kind} already passes before the edit: ${JSON.stringify(before)}`,
        );
        assert.equal(
          after.pass,
          true,
          `${check.kind} fails after the edit: ${JSON.stringify(after.observed)}`,
        );
      }
    });
  }

  test('a table check with after reads the paragraph the table follows', async () => {
    const doc = W.docSchema.parse({
      blocks: [
        { type: 'paragraph', runs: [{ text: 'Open items are listed below.' }] },
        { type: 'paragraph', runs: [{ text: 'Next review: Monday.' }] },
      ],
    });
    const initial = await W.build(FILE, doc);
    const table = (after: string) =>
      W.editSchema.parse({ op: 'writer.insert_table', file: FILE, after, rows: [['Ref'], ['T-1']] });
    const check = W.checkSchema.parse({
      kind: 'writer.table',
      file: FILE,
      table: 1,
      rows: 2,
      after: 'listed below',
    });
    const right = await W.apply(initial, [table('listed below')]);
    const atEnd = await W.apply(initial, [table('Next review')]);
    assert.equal((await W.probe(right, check)).pass, true);
    const wrong = await W.probe(atEnd, check);
    assert.equal(wrong.pass, false);
    assert.match(JSON.stringify(wrong.observed), /Next review/);
    // The portable checker reads the same position.
    const work = mkdtempSync(path.join(tmpdir(), 'forge-writer-after-'));
    try {
      const checker = path.join(work, 'forge_check.py');
      writeFileSync(checker, checkerSource().text);
      const jobs = [];
      for (const [name, files] of Object.entries({ right, atEnd })) {
        const home = path.join(work, name);
        await materializeHome(home, files);
        jobs.push({ home, checks: [check] });
      }
      const verdicts = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
      assert.deepEqual(
        verdicts.map((v) => v[0]!.pass),
        [true, false],
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('a paragraph style edited (Edit Style) gives every heading in it the look; a body font set directly wins', async () => {
    const doc = W.docSchema.parse({
      blocks: [
        { type: 'heading', level: 1, text: 'Annual letter' },
        { type: 'heading', level: 2, text: 'What is new' },
        { type: 'paragraph', runs: [{ text: 'Body in its own font.', font: 'Carlito', size: 11 }] },
        { type: 'heading', level: 2, text: 'Who to contact' },
      ],
    });
    const initial = await W.build(FILE, doc);
    const style = (s: string, font = 'DejaVu Sans') =>
      W.editSchema.parse({ op: 'writer.set_style_format', file: FILE, style: s, font, bold: true });
    const check = (text: string) =>
      W.checkSchema.parse({ kind: 'writer.run_format', file: FILE, text, font: 'DejaVu Sans', bold: true });
    const checks = ['Annual letter', 'What is new', 'Who to contact', 'Body in its own font.'].map(check);
    const states = {
      // Both heading styles edited: every heading of either level, none of them touched directly.
      headings: await W.apply(initial, [style('Heading1'), style('Heading2')]),
      // Heading 1 only: the Heading 2 paragraphs keep their old look.
      oneStyle: await W.apply(initial, [style('Heading1')]),
      // The Normal style: the headings are based on it and take it; the body's own direct font wins.
      normal: await W.apply(initial, [style('Normal')]),
    };
    const ours = async (files: FileMap) =>
      Promise.all(checks.map(async (c) => (await W.probe(files, c)).pass));
    const want = {
      headings: [true, true, true, false],
      oneStyle: [true, false, false, false],
      normal: [true, true, true, false],
    };
    for (const [name, files] of Object.entries(states))
      assert.deepEqual(await ours(files), want[name as keyof typeof want], name);
    assert.deepEqual(await ours(initial), [false, false, false, false], 'untouched');
    const verdicts = await shippedVerdicts(states, checks);
    assert.deepEqual(
      verdicts.map((v) => v.map((x) => x.pass)),
      Object.keys(states).map((k) => want[k as keyof typeof want]),
      'the shipped checker agrees',
    );
  });

  test('a block quote indented on both sides reads as indented from the left; from the right only does not', async () => {
    const doc = W.docSchema.parse({
      blocks: [
        { type: 'paragraph', runs: [{ text: 'Our year in short.' }] },
        { type: 'paragraph', runs: [{ text: '"The garden changed the street."', italic: true }] },
      ],
    });
    const initial = await W.build(FILE, doc);
    const indent = (over: Record<string, number>) =>
      W.editSchema.parse({ op: 'writer.set_indent', file: FILE, paragraph: 'garden changed', ...over });
    const check = W.checkSchema.parse({
      kind: 'writer.indent',
      file: FILE,
      paragraph: 'garden changed',
      left: 0.5,
      firstLine: 0,
    });
    const states = {
      both: await W.apply(initial, [indent({ left: 0.5, right: 0.5 })]),
      rightOnly: await W.apply(initial, [indent({ right: 0.5 })]),
    };
    const ind = (await openDocx(states.both, FILE)).body.descendants('w:ind')[0]!;
    assert.deepEqual(ind.attrs, { 'w:left': '720', 'w:right': '720' }, 'After text is written as w:right');
    assert.equal((await W.probe(states.both, check)).pass, true);
    assert.equal((await W.probe(states.rightOnly, check)).pass, false);
    const verdicts = await shippedVerdicts(states, [check]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      [true, false],
      'the shipped checker agrees',
    );
  });

  test('a header typed with AutoCorrect\'s en dash for " - " still reads as asked; other text does not', async () => {
    const doc = W.docSchema.parse({
      blocks: [{ type: 'paragraph', runs: [{ text: 'Minutes of the May meeting.' }] }],
    });
    const initial = await W.build(FILE, doc);
    const header = (text: string) => W.editSchema.parse({ op: 'writer.set_header', file: FILE, text });
    const check = W.checkSchema.parse({
      kind: 'writer.header_text',
      file: FILE,
      text: 'Keller and Sons - Draft',
    });
    const states = {
      asTyped: await W.apply(initial, [header('Keller and Sons - Draft')]),
      enDash: await W.apply(initial, [header('Keller and Sons \u2013 Draft')]),
      otherLabel: await W.apply(initial, [header('Keller and Sons \u2013 Confidential')]),
      noDash: await W.apply(initial, [header('Keller and Sons Draft')]),
    };
    const want = [true, true, false, false];
    const ours = await Promise.all(Object.values(states).map(async (f) => (await W.probe(f, check)).pass));
    assert.deepEqual(ours, want);
    const verdicts = await shippedVerdicts(states, [check]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      want,
      'the shipped checker agrees',
    );
  });

  test("text typed with AutoCorrect's curly quotes reads as typed, in the document and in the check; other words do not", async () => {
    const doc = W.docSchema.parse({
      blocks: [
        { type: 'paragraph', runs: [{ text: 'Notes from the \u201cspring\u201d review.' }] },
        { type: 'paragraph', runs: [{ text: 'The year\u2019s figures follow.' }] },
      ],
    });
    const initial = await W.build(FILE, doc);
    const typed = (text: string) =>
      W.apply(initial, [W.editSchema.parse({ op: 'writer.insert_paragraph', file: FILE, text })]);
    const asked = `We'll send the "final" copy on Friday.`;
    assert.equal(curlQuotes(asked), 'We\u2019ll send the \u201cfinal\u201d copy on Friday.');
    assert.equal(curlQuotes("'Draft' (the 'old' one)"), '\u2018Draft\u2019 (the \u2018old\u2019 one)');
    const checks = [
      W.checkSchema.parse({ kind: 'writer.text_present', file: FILE, text: asked }),
      // A paragraph found by text the check quotes straight, the document curly.
      W.checkSchema.parse({
        kind: 'writer.alignment',
        file: FILE,
        paragraph: "The year's figures",
        alignment: 'left',
      }),
      W.checkSchema.parse({ kind: 'writer.text_present', file: FILE, text: 'the "spring" review' }),
    ];
    await assertVerdicts(
      {
        straight: await typed(asked),
        curled: await typed(curlQuotes(asked)),
        otherWords: await typed(curlQuotes(`We'll send the "first" copy on Friday.`)),
      },
      checks,
      { straight: [true, true, true], curled: [true, true, true], otherWords: [false, true, true] },
      W.probe,
    );
  });

  test('a table cell read with its figures free: the pound sign, separators and trailing zeros pass, another figure or currency fails', async () => {
    const doc = W.docSchema.parse({
      blocks: [
        {
          type: 'table',
          header: ['Item', 'Price'],
          rows: [
            ['Desk lamp', '24.00'],
            ['Shelf unit', ''],
          ],
        },
      ],
    });
    const initial = await W.build(FILE, doc);
    const fill = (text: string) =>
      W.apply(initial, [
        W.editSchema.parse({ op: 'writer.fill_table_cell', file: FILE, table: 1, row: 3, col: 2, text }),
      ]);
    const cell = { row: 3, col: 2, text: '1250.50' };
    const checks = [
      W.checkSchema.parse({ kind: 'writer.table', file: FILE, table: 1, cells: [cell], figures: true }),
      W.checkSchema.parse({ kind: 'writer.table', file: FILE, table: 1, cells: [cell] }),
    ];
    await assertVerdicts(
      {
        asked: await fill('1250.50'),
        pounds: await fill('£1,250.50'),
        shorter: await fill('1250.5'),
        anotherFigure: await fill('£1,250.05'),
        euros: await fill('1250.50 EUR'),
        empty: initial,
      },
      checks,
      {
        asked: [true, true],
        pounds: [true, false],
        shorter: [true, false],
        anotherFigure: [false, false],
        euros: [false, false],
        empty: [false, false],
      },
      W.probe,
    );
  });

  test('a page break saved as the paragraph property, a run ahead of the text or a line of its own starts the page; only there', async () => {
    const doc = W.docSchema.parse({
      blocks: [
        { type: 'heading', level: 1, text: 'Findings' },
        { type: 'paragraph', runs: [{ text: 'Most sites passed.' }] },
        { type: 'heading', level: 1, text: 'Glossary' },
        { type: 'paragraph', runs: [{ text: 'Terms used above.' }] },
      ],
    });
    const initial = await W.build(FILE, doc);
    const brk = (form: string) =>
      W.editSchema.parse({ op: 'writer.insert_page_break', file: FILE, before: 'Glossary', form });
    const checks = [
      W.checkSchema.parse({ kind: 'writer.page_break', file: FILE, paragraph: 'Glossary' }),
      W.checkSchema.parse({ kind: 'writer.page_break', file: FILE, paragraph: 'Terms used', before: false }),
      W.checkSchema.parse({ kind: 'writer.paragraph_count', file: FILE, count: 4 }),
    ];
    const states = {
      property: await W.apply(initial, [brk('property')]),
      run: await W.apply(initial, [brk('run')]),
      line: await W.apply(initial, [brk('line')]),
      untouched: initial,
    };
    const want = {
      property: [true, true, true],
      run: [true, true, true],
      line: [true, true, true],
      untouched: [false, true, true],
    };
    await assertVerdicts(states, checks, want, W.probe);
  });

  test('set_margins writes the sides given in twips and keeps the others; the page stays landscape', async () => {
    const initial = await W.build(
      FILE,
      W.docSchema.parse({ blocks: [{ type: 'paragraph', runs: [{ text: 'Rota' }] }] }),
    );
    const files = await W.apply(initial, [
      W.editSchema.parse({ op: 'writer.set_orientation', file: FILE, orientation: 'landscape' }),
      W.editSchema.parse({ op: 'writer.set_margins', file: FILE, left: 0.5, right: 0.75 }),
    ]);
    const before = (await openDocx(initial, FILE)).body.descendants('w:pgMar')[0]!.attrs;
    const after = (await openDocx(files, FILE)).body.descendants('w:pgMar')[0]!.attrs;
    assert.equal(after['w:left'], '720');
    assert.equal(after['w:right'], '1080');
    assert.equal(after['w:top'], before['w:top']);
    const check = W.checkSchema.parse({ kind: 'writer.orientation', file: FILE, orientation: 'landscape' });
    assert.equal((await W.probe(files, check)).pass, true);
  });

  test('replace_text works across run boundaries and keeps other text', async () => {
    const files = await W.build(FILE, {
      blocks: [
        {
          type: 'paragraph',
          runs: [{ text: 'The Ac' }, { text: 'me', bold: true }, { text: ' plan, Acme!' }],
        },
      ],
      section: { orientation: 'portrait' },
    });
    const solved = await W.apply(files, [
      W.editSchema.parse({ op: 'writer.replace_text', file: FILE, find: 'Acme', replace: 'Initech' }),
    ]);
    const present = await W.probe(
      solved,
      W.checkSchema.parse({ kind: 'writer.text_present', file: FILE, text: 'The Initech plan, Initech!' }),
    );
    assert.equal(present.pass, true, JSON.stringify(present.observed));
  });

  test('edits that select nothing fail with a message naming the text and the file', async () => {
    const files = await W.build(FILE, writerScenario(FILE).doc);
    await assert.rejects(
      W.apply(files, [
        W.editSchema.parse({
          op: 'writer.set_alignment',
          file: FILE,
          paragraph: 'nowhere',
          alignment: 'right',
        }),
      ]),
      /no paragraph contains "nowhere"/,
    );
    await assert.rejects(
      W.apply(files, [
        W.editSchema.parse({ op: 'writer.set_header', file: 'Documents/other.docx', text: 'x' }),
      ]),
      /Documents\/other\.docx does not exist/,
    );
  });

  test('a heading style is recognised by its name even when its id differs (LibreOffice style ids)', async () => {
    const files = await W.build(FILE, {
      blocks: [{ type: 'heading', level: 2, text: 'Renamed' }],
      section: { orientation: 'portrait' },
    });
    const pkg = await OoxmlPackage.open(files[FILE], FILE);
    const styles = await pkg.part('word/styles.xml');
    const heading = styles.elements('w:style').find((s) => s.attrs['w:styleId'] === 'Heading2')!;
    heading.attrs['w:styleId'] = 'Titre2';
    heading.ensure('w:name').attrs['w:val'] = 'heading 2';
    const doc = await pkg.part('word/document.xml');
    for (const p of doc.descendants('w:pStyle'))
      if (p.attrs['w:val'] === 'Heading2') p.attrs['w:val'] = 'Titre2';
    const renamed: FileMap = { [FILE]: await pkg.save() };
    const check = W.checkSchema.parse({ kind: 'writer.heading', file: FILE, paragraph: 'Renamed', level: 2 });
    assert.equal((await W.probe(renamed, check)).pass, true);
  });

  test('the typical ten-page document builds and probes its own content', async () => {
    const files = await W.build(FILE, sampleWriterDoc(10));
    const checks: WriterCheck[] = [
      W.checkSchema.parse({ kind: 'writer.text_present', file: FILE, text: 'Chapter 10: Operations review' }),
      W.checkSchema.parse({ kind: 'writer.table', file: FILE, table: 10, rows: 4, cols: 4 }),
      W.checkSchema.parse({ kind: 'writer.footer_text', file: FILE, text: 'Confidential' }),
    ];
    for (const c of checks) assert.equal((await W.probe(files, c)).pass, true, c.kind);
  });
});

describe('ooxml xml round trip', () => {
  test('escapes text and attributes', () => {
    const xml = serializeXml(el('a', { t: 'x"<&>' }, 'a<b & c>'));
    assert.match(xml, /<a t="x&quot;&lt;&amp;&gt;">a&lt;b &amp; c&gt;<\/a>/);
  });
});

// Texts are tagged with their block index so no generated text contains another.
const word = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,14}[A-Za-z]$/);
const blockArb = fc.oneof(
  fc.record({ type: fc.constant('heading' as const), level: fc.integer({ min: 1, max: 3 }), text: word }),
  fc.record({
    type: fc.constant('paragraph' as const),
    runs: fc.array(
      fc.record({
        text: word,
        bold: fc.boolean(),
        italic: fc.boolean(),
        size: fc.constantFrom(10, 11, 12.5, 14),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    alignment: fc.constantFrom('left' as const, 'center' as const, 'right' as const, 'justify' as const),
    lineSpacing: fc.constantFrom(1, 1.15, 1.5, 2),
  }),
  fc.record({
    type: fc.constant('list' as const),
    listType: fc.constantFrom('bullet' as const, 'numbered' as const),
    items: fc.array(word, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    type: fc.constant('table' as const),
    rows: fc.array(fc.array(word, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 3 }),
  }),
);

function tag(blocks: unknown[]): WriterDoc['blocks'] {
  return (blocks as WriterDoc['blocks']).map((b, i) => {
    const t = (s: string, j = 0) => `[${i}.${j}] ${s}`;
    switch (b.type) {
      case 'heading':
        return { ...b, text: t(b.text) };
      case 'paragraph':
        return { ...b, runs: b.runs.map((r, j) => ({ ...r, text: t(r.text, j) })) };
      case 'list':
        return { ...b, items: b.items.map((s, j) => t(s, j)) };
      case 'table':
        return { ...b, rows: b.rows.map((r, j) => r.map((s, k) => t(s, j * 10 + k))) };
      default:
        return b;
    }
  });
}

test('property: probe reads back what build wrote', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(blockArb, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('portrait' as const, 'landscape' as const),
      async (raw, orientation) => {
        const doc = W.docSchema.parse({ blocks: tag(raw), section: { orientation } });
        const files = await W.build(FILE, doc);
        const checks: unknown[] = [{ kind: 'writer.orientation', orientation }];
        let table = 0;
        for (const b of doc.blocks) {
          if (b.type === 'heading')
            checks.push({ kind: 'writer.heading', paragraph: b.text, level: b.level });
          if (b.type === 'paragraph') {
            const first = b.runs[0].text;
            checks.push({ kind: 'writer.alignment', paragraph: first, alignment: b.alignment ?? 'left' });
            checks.push({ kind: 'writer.line_spacing', paragraph: first, lineSpacing: b.lineSpacing ?? 1 });
            for (const r of b.runs) {
              checks.push({
                kind: 'writer.run_format',
                text: r.text,
                bold: !!r.bold,
                italic: !!r.italic,
                size: r.size,
              });
            }
          }
          if (b.type === 'list')
            checks.push({ kind: 'writer.list', paragraphs: b.items, listType: b.listType });
          if (b.type === 'table') {
            table++;
            const last = b.rows.length;
            checks.push({
              kind: 'writer.table',
              table,
              rows: last,
              cols: 2,
              cells: [{ row: last, col: 2, text: b.rows[last - 1][1] }],
            });
          }
        }
        for (const raw of checks) {
          const check = W.checkSchema.parse({ ...(raw as object), file: FILE });
          const r = await W.probe(files, check);
          assert.equal(r.pass, true, `${JSON.stringify(check)} → ${JSON.stringify(r.observed)}`);
        }
      },
    ),
    { numRuns: 15, seed: 42 },
  );
});
