import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { impressPreparer as P } from '../../preparers/impress/index.ts';
import { patternPng } from '../../preparers/impress/png.ts';
import { impressScenario, sampleImpressDoc } from '../../preparers/impress/sample.ts';
import { OoxmlPackage } from '../../preparers/ooxml/package.ts';
import { assertVerdicts, shippedVerdicts } from '../support/checkerHome.ts';

const FILE = 'Desktop/deck.pptx';

describe('impress schemas', () => {
  test('reject unsafe paths, slide 0, unknown layouts and stray fields', () => {
    const bad = [
      { op: 'impress.set_title', file: '../deck.pptx', slide: 1, text: 'x' },
      { op: 'impress.set_title', file: 'deck.docx', slide: 1, text: 'x' },
      { op: 'impress.set_title', file: FILE, slide: 0, text: 'x' },
      { op: 'impress.set_layout', file: FILE, slide: 1, layout: 'comparison' },
      { op: 'impress.delete_slide', file: FILE, slide: 1, force: true },
    ];
    for (const e of bad) assert.equal(P.editSchema.safeParse(e).success, false, JSON.stringify(e));
    assert.equal(
      P.checkSchema.safeParse({ kind: 'impress.order', file: FILE, titles: ['only one'] }).success,
      false,
    );
    assert.equal(P.docSchema.safeParse({ slides: [] }).success, false);
  });
});

describe('impress oracle edits', () => {
  const { doc, cases } = impressScenario(FILE);
  for (const c of cases) {
    test(`${c.edits.map((e) => e.op).join(' + ')} turns its checks from failing to passing`, async () => {
      const initial = await P.build(FILE, doc);
      const solved = await P.apply(initial, c.edits);
      for (const check of c.checks) {
        const before = await P.probe(initial, check);
        const after = await P.probe(solved, check);
        assert.equal(
          before.pass,
          false,
          `${check.kind} already passes before: ${JSON.stringify(before.observed)}`,
        );
        assert.equal(after.pass, true, `${check.kind} fails after: ${JSON.stringify(after.observed)}`);
      }
    });
  }

  test('delete_slide removes the slide part, its notes and their content types', async () => {
    const initial = await P.build(FILE, doc);
    const solved = await P.apply(initial, [
      P.editSchema.parse({ op: 'impress.delete_slide', file: FILE, slide: 1 }),
    ]);
    const before = await OoxmlPackage.open(initial[FILE], FILE);
    const after = await OoxmlPackage.open(solved[FILE], FILE);
    assert.equal(after.parts('ppt/slides/slide').length, before.parts('ppt/slides/slide').length - 1);
    assert.equal(
      after.parts('ppt/notesSlides/notesSlide').length,
      before.parts('ppt/notesSlides/notesSlide').length - 1,
    );
    const types = (await after.part('[Content_Types].xml')).elements('Override').map((o) => o.attrs.PartName);
    // (pptxgenjs itself declares slide masters it never writes, so only our parts are checked.)
    for (const t of types.filter((t) => /\/(slides|notesSlides)\//.test(t))) {
      assert.ok(after.has(t.slice(1)), `content type for missing part ${t}`);
    }
  });

  test('a note typed on two lines is the same note; other words are not', async () => {
    const initial = await P.build(FILE, doc);
    const note = (text: string) =>
      P.editSchema.parse({ op: 'impress.set_notes', file: FILE, slide: 2, text });
    const check = (exact: boolean) =>
      P.checkSchema.parse({
        kind: 'impress.notes',
        file: FILE,
        slide: 2,
        text: 'Ask about the budget first',
        exact,
      });
    for (const [typed, pass] of [
      ['Ask about the\nbudget first', true],
      ['Ask about the budget first\n', true],
      ['Ask about the budget', false],
    ] as const) {
      const solved = await P.apply(initial, [note(typed)]);
      for (const exact of [true, false])
        assert.equal((await P.probe(solved, check(exact))).pass, pass, typed);
    }
  });

  test('a title typed on two lines (a manual line break) is the same title, in both checkers', async () => {
    const initial = await P.build(FILE, doc);
    const title = (text: string) =>
      P.editSchema.parse({ op: 'impress.set_title', file: FILE, slide: 2, text });
    const check = P.checkSchema.parse({
      kind: 'impress.slide_title',
      file: FILE,
      slide: 2,
      text: 'Three Priorities for Next Year',
      exact: true,
    });
    const states = {
      twoLines: await P.apply(initial, [title('Three Priorities\nfor Next Year')]),
      cut: await P.apply(initial, [title('Three Priorities\nfor Next')]),
    };
    // Shift+Enter is an a:br inside the one paragraph, not a newline inside the text.
    const pkg = await OoxmlPackage.open(states.twoLines[FILE]!, FILE);
    const slide = await pkg.part('ppt/slides/slide2.xml');
    const p = slide.descendants('a:p').find((x) => x.descendants('a:br').length > 0);
    assert.ok(p, 'the title paragraph holds a line break');
    assert.deepEqual(
      p.descendants('a:t').map((t) => t.text()),
      ['Three Priorities', 'for Next Year'],
    );
    assert.equal((await P.probe(states.twoLines, check)).pass, true);
    assert.equal((await P.probe(states.cut, check)).pass, false);
    const verdicts = await shippedVerdicts(states, [check]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      [true, false],
      'the shipped checker agrees',
    );
  });

  test('figures free in a body: "12480" is "12,480" and "£1,200.50" is "1200.5"; another number is not, in both checkers', async () => {
    const initial = await P.build(FILE, doc);
    const body = (bullets: string[]) =>
      P.editSchema.parse({ op: 'impress.set_body', file: FILE, slide: 2, bullets });
    const check = (exact: boolean, figures: boolean) =>
      P.checkSchema.parse({
        kind: 'impress.slide_body',
        file: FILE,
        slide: 2,
        bullets: ['Volunteers: 12,480', 'Raised: £1,200.50'],
        exact,
        figures,
      });
    const states = {
      asAsked: await P.apply(initial, [body(['Volunteers: 12,480', 'Raised: £1,200.50'])]),
      plain: await P.apply(initial, [body(['Volunteers: 12480', 'Raised: 1200.5'])]),
      otherNumber: await P.apply(initial, [body(['Volunteers: 12,490', 'Raised: £1,200.50'])]),
      runOn: await P.apply(initial, [body(['Volunteers: 124801', 'Raised: £1,200.50'])]),
    };
    const checks = [check(true, true), check(false, true), check(true, false)];
    const want = {
      asAsked: [true, true, true],
      plain: [true, true, false],
      otherNumber: [false, false, false],
      runOn: [false, false, false],
    };
    await assertVerdicts(states, checks, want, P.probe);
  });

  test('slide numbers out of range fail with a clear message', async () => {
    const initial = await P.build(FILE, doc);
    await assert.rejects(
      P.apply(initial, [P.editSchema.parse({ op: 'impress.set_title', file: FILE, slide: 9, text: 'x' })]),
      /slide 9 does not exist \(the presentation has 6\)/,
    );
    const r = await P.probe(
      initial,
      P.checkSchema.parse({ kind: 'impress.notes', file: FILE, slide: 9, text: 'x' }),
    );
    assert.equal(r.pass, false);
  });
});

test('patternPng writes a valid PNG whose pixels depend on the seed', () => {
  const a = patternPng(16, 8, '336699', 1);
  const b = patternPng(16, 8, '336699', 2);
  assert.deepEqual([...a.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = (png: Uint8Array) => {
    const buf = Buffer.from(png);
    const at = buf.indexOf('IDAT');
    return inflateSync(buf.subarray(at + 4, at + 4 + buf.readUInt32BE(at - 4)));
  };
  assert.equal(idat(a).length, (16 * 3 + 1) * 8);
  assert.deepEqual([...idat(a).subarray(1, 4)], [0x33, 0x66, 0x99]);
  assert.notDeepEqual(idat(a), idat(b));
});

test('the typical twelve-slide deck builds and probes its own content', async () => {
  const files = await P.build(FILE, sampleImpressDoc(12));
  const checks = [
    { kind: 'impress.slide_count', count: 12 },
    { kind: 'impress.slide_title', slide: 12, text: 'Topic 11' },
    { kind: 'impress.font', slide: 5, target: 'title', bold: true, size: 32 },
    { kind: 'impress.image_present', min: 2, max: 2 },
  ];
  for (const c of checks) {
    const r = await P.probe(files, P.checkSchema.parse({ ...c, file: FILE }));
    assert.equal(r.pass, true, `${c.kind}: ${JSON.stringify(r.observed)}`);
  }
});

const text = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,12}[A-Za-z]$/);
const slideArb = fc.record({
  layout: fc.constantFrom(
    'title_content' as const,
    'two_content' as const,
    'title' as const,
    'section' as const,
  ),
  title: text,
  body: fc.array(text, { minLength: 1, maxLength: 4 }),
  notes: fc.option(text, { nil: undefined }),
  size: fc.constantFrom(20, 28, 40),
  bold: fc.boolean(),
  table: fc.boolean(),
});

test('property: probe reads back what build wrote', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(slideArb, { minLength: 1, maxLength: 5 }), async (raw) => {
      // Tag texts with their slide so no text is a substring of another slide's.
      const slides = raw.map((s, i) => ({
        layout: s.layout,
        title: `S${i} ${s.title}`,
        body: s.body.map((b, j) => `S${i}.${j} ${b}`),
        notes: s.notes && `N${i} ${s.notes}`,
        titleFont: { size: s.size, bold: s.bold },
        tables: s.table ? [{ x: 1, y: 3, w: 4, h: 1, rows: [['k', `v${i}`]] }] : [],
      }));
      const files = await P.build(FILE, P.docSchema.parse({ slides }));
      const checks: object[] = [
        { kind: 'impress.slide_count', count: slides.length },
        ...(slides.length > 1 ? [{ kind: 'impress.order', titles: slides.map((s) => s.title) }] : []),
      ];
      slides.forEach((s, i) => {
        const slide = i + 1;
        checks.push({ kind: 'impress.slide_title', slide, text: s.title, exact: true });
        checks.push({ kind: 'impress.slide_body', slide, bullets: s.body, exact: true });
        checks.push({
          kind: 'impress.font',
          slide,
          target: 'title',
          size: s.titleFont.size,
          bold: s.titleFont.bold,
        });
        if (s.notes) checks.push({ kind: 'impress.notes', slide, text: s.notes });
        if (s.tables.length)
          checks.push({
            kind: 'impress.table',
            slide,
            rows: 1,
            cols: 2,
            cells: [{ row: 1, col: 2, text: `v${i}` }],
          });
      });
      for (const c of checks) {
        const check = P.checkSchema.parse({ ...c, file: FILE });
        const r = await P.probe(files, check);
        assert.equal(r.pass, true, `${JSON.stringify(check)} → ${JSON.stringify(r.observed)}`);
      }
    }),
    { numRuns: 12, seed: 7 },
  );
});
