import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { transitionOf } from '../../preparers/impress/design.ts';
import { impressPreparer as P } from '../../preparers/impress/index.ts';
import { pdfPageCount } from '../../preparers/impress/pdf.ts';
import { impressScenario } from '../../preparers/impress/sample.ts';
import type { ImpressCheck, ImpressEdit } from '../../preparers/impress/schema.ts';
import { parseXml } from '../../preparers/ooxml/xml.ts';
import type { FileMap } from '../../preparers/types.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';

const FILE = 'Documents/deck.pptx';
const PDF = 'Documents/handouts/deck.pdf';
const { doc } = impressScenario(FILE);
const edit = (e: object) => P.editSchema.parse({ file: FILE, ...e }) as ImpressEdit;
const check = (c: object) => P.checkSchema.parse({ file: FILE, ...c }) as ImpressCheck;

/** Each new edit op with the checks it must turn from failing to passing. */
const CASES: { name: string; edits: ImpressEdit[]; checks: ImpressCheck[] }[] = [
  {
    name: 'hide',
    edits: [edit({ op: 'impress.hide_slide', slide: 2 })],
    checks: [check({ kind: 'impress.hidden', slide: 2 })],
  },
  {
    name: 'background on every slide',
    edits: [edit({ op: 'impress.set_background', color: 'E2F0D9' })],
    checks: [1, 4, 6].map((slide) => check({ kind: 'impress.background', slide, color: 'E2F0D9' })),
  },
  {
    name: 'transition',
    edits: [edit({ op: 'impress.set_transition', slide: 1, effect: 'wipe' })],
    checks: [check({ kind: 'impress.transition', slide: 1, effect: 'wipe' })],
  },
  {
    name: 'slide size',
    edits: [edit({ op: 'impress.set_slide_size', width: 11.024, height: 8.268 })],
    checks: [check({ kind: 'impress.slide_size', width: 11.024, height: 8.268, orientation: 'landscape' })],
  },
  {
    name: 'move the picture',
    edits: [edit({ op: 'impress.move_shape', slide: 5, shape: 'picture', x: 1, w: 3, h: 2 })],
    checks: [
      check({
        kind: 'impress.shape_box',
        slide: 5,
        shape: 'picture',
        x: { max: 1.05 },
        right: { min: 3.95, max: 4.05 },
      }),
    ],
  },
  {
    name: 'duplicate keeps pictures and notes',
    edits: [
      edit({ op: 'impress.duplicate_slide', slide: 5 }),
      edit({ op: 'impress.set_notes', slide: 1, text: 'Hi' }),
    ],
    checks: [
      check({ kind: 'impress.slide_count', count: 7 }),
      check({ kind: 'impress.image_present', slide: 6, min: 1, max: 1 }),
      check({ kind: 'impress.table', slide: 6, rows: 2, cols: 2 }),
      check({ kind: 'impress.notes', slide: 1, text: 'Hi', exact: true }),
    ],
  },
  {
    name: 'export to PDF',
    edits: [edit({ op: 'impress.hide_slide', slide: 4 }), edit({ op: 'impress.export_pdf', to: PDF })],
    checks: [P.checkSchema.parse({ kind: 'impress.pdf', path: PDF, pages: 5 })],
  },
];

describe('impress design ops and kinds', () => {
  let initial: FileMap;
  before(async () => {
    initial = await P.build(FILE, doc);
  });

  for (const c of CASES) {
    test(`${c.name}: the checks fail before and pass after`, async () => {
      const solved = await P.apply(initial, c.edits);
      for (const k of c.checks) {
        assert.equal((await P.probe(initial, k)).pass, false, `${k.kind} passes before`);
        const after = await P.probe(solved, k);
        assert.equal(after.pass, true, `${k.kind} fails after: ${JSON.stringify(after.observed)}`);
      }
    });
  }

  test('shape_box bounds, slide_size orientation and transition effect reject near misses', async () => {
    const solved = await P.apply(initial, [
      edit({ op: 'impress.move_shape', slide: 5, shape: 'picture', x: 4.9 }),
      edit({ op: 'impress.set_slide_size', width: 5.625, height: 10 }),
      edit({ op: 'impress.set_transition', slide: 1, effect: 'fade' }),
    ]);
    for (const k of [
      check({ kind: 'impress.shape_box', slide: 5, shape: 'picture', x: { min: 5 } }),
      check({ kind: 'impress.shape_box', slide: 5, shape: 'picture', nth: 2 }),
      check({ kind: 'impress.slide_size', width: 10, height: 5.625 }),
      check({ kind: 'impress.slide_size', orientation: 'landscape' }),
      check({ kind: 'impress.transition', slide: 1, effect: 'dissolve' }),
      check({ kind: 'impress.transition', slide: 2, effect: 'fade' }),
    ]) {
      assert.equal((await P.probe(solved, k)).pass, false, JSON.stringify(k));
    }
  });

  test('a PDF counts only the slides that are not hidden; a renamed deck is not a PDF', async () => {
    const solved = await P.apply(initial, [
      edit({ op: 'impress.hide_slide', slide: 2 }),
      edit({ op: 'impress.hide_slide', slide: 3 }),
      edit({ op: 'impress.export_pdf', to: PDF }),
    ]);
    assert.equal(pdfPageCount(solved[PDF]!), 4);
    const renamed = { ...initial, [PDF]: initial[FILE]! };
    const r = await P.probe(renamed, P.checkSchema.parse({ kind: 'impress.pdf', path: PDF }));
    assert.deepEqual(r, { pass: false, observed: { error: 'not a PDF', bytes: initial[FILE]!.length } });
  });

  test('LibreOffice transitions: the p14 form and an empty transition', () => {
    const p = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
    const mc = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
    const empty = `<p:sld ${p} ${mc}><mc:AlternateContent><mc:Choice Requires="p14"><p:transition spd="slow"/></mc:Choice><mc:Fallback><p:transition spd="slow"/></mc:Fallback></mc:AlternateContent></p:sld>`;
    assert.equal(transitionOf(parseXml(empty)), 'none');
    const split = `<p:sld ${p}><p:transition spd="med"><p:split orient="vert"/></p:transition></p:sld>`;
    assert.equal(transitionOf(parseXml(split)), 'split');
  });

  test('the invariants pin hidden, background and transition of the slides the oracle left alone', async () => {
    const oracle = [edit({ op: 'impress.set_background', slide: 2, color: '1F4E79' })];
    const solved = await P.apply(initial, oracle);
    const [unchanged] = await P.invariants(initial, solved, [FILE]);
    assert.equal((await P.probe(solved, unchanged!)).pass, true);
    for (const collateral of [
      edit({ op: 'impress.hide_slide', slide: 3 }),
      edit({ op: 'impress.set_background', slide: 3, color: '1F4E79' }),
      edit({ op: 'impress.set_transition', slide: 1, effect: 'fade' }),
    ]) {
      const wrong = await P.apply(solved, [collateral]);
      assert.equal((await P.probe(wrong, unchanged!)).pass, false, collateral.op);
    }
  });
});

describe('the Python checker agrees on the design kinds', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-impress-design-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('same verdicts on the initial and solved state of every case', async () => {
    const checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
    const initial = await P.build(FILE, doc);
    const jobs: { home: string; checks: unknown[] }[] = [];
    const expected: boolean[][] = [];
    for (const [i, c] of CASES.entries()) {
      const solved = await P.apply(initial, c.edits);
      const invariants = await P.invariants(initial, solved, [FILE]);
      for (const [label, files] of [
        ['initial', initial],
        ['solved', solved],
      ] as const) {
        const home = path.join(work, `${i}-${label}`);
        await materializeHome(home, files);
        const checks = [...c.checks, ...invariants];
        jobs.push({ home, checks });
        expected.push(await Promise.all(checks.map(async (k) => (await P.probe(files, k)).pass)));
      }
    }
    const verdicts = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
    assert.deepEqual(
      verdicts.map((v) => v.map((x) => x.pass)),
      expected,
    );
  });
});
