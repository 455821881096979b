import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { gimpPreparer } from '../../preparers/gimp/index.ts';
import { impressPreparer as P } from '../../preparers/impress/index.ts';
import type { ImpressCheck, ImpressEdit } from '../../preparers/impress/schema.ts';
import { pixelSize } from '../../preparers/pictureSize.ts';
import type { FileMap } from '../../preparers/types.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';

const DECK = 'Documents/talk.pptx';
const PHOTO = 'Pictures/harbour.png';
const SMALL = 'Pictures/harbour-small.jpg';

const edit = (e: unknown) => P.editSchema.parse(e) as ImpressEdit;
const check = (c: unknown) => P.checkSchema.parse(c) as ImpressCheck;
type PictureCheck = Extract<ImpressCheck, { kind: 'impress.picture' }>;

/** A deck of three slides, a 600 × 400 photo and a 300 × 200 JPEG copy of it made by the GIMP preparer. */
async function home(): Promise<FileMap> {
  const deck = await P.build(
    DECK,
    P.docSchema.parse({
      slides: [
        { layout: 'title', title: 'Harbour walk', body: ['Spring outing'] },
        { title: 'The route', body: ['Start at the slipway', 'Lunch at the lighthouse'] },
        { title: 'Photos', body: [] },
      ],
    }),
  );
  const photo = await gimpPreparer.build(PHOTO, {
    scene: 'landscape',
    width: 600,
    height: 400,
    seed: 3,
    turn: 0,
  });
  const withSmall = await gimpPreparer.apply({ ...deck, ...photo }, [
    { op: 'gimp.scale', path: PHOTO, to: SMALL, width: 300, height: 200 },
  ] as never);
  return withSmall;
}

describe('impress.insert_picture and impress.picture', () => {
  test('pixelSize reads PNG and JPEG headers and nothing else', async () => {
    const files = await home();
    assert.deepEqual(pixelSize(files[PHOTO]!), { width: 600, height: 400 });
    assert.deepEqual(pixelSize(files[SMALL]!), { width: 300, height: 200 });
    assert.equal(pixelSize(new TextEncoder().encode('<svg/>')), null);
  });

  test('a picture inserted on slide 3 is found there at its pixel size, not elsewhere or at another size', async () => {
    const initial = await home();
    const solved = await P.apply(initial, [
      edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: SMALL }),
    ]);
    const right = check({
      kind: 'impress.picture',
      file: DECK,
      slide: 3,
      width: 300,
      height: 200,
    }) as PictureCheck;
    assert.equal((await P.probe(initial, right)).pass, false);
    const after = await P.probe(solved, right);
    assert.equal(after.pass, true);
    assert.deepEqual(after.observed, { pictures: [[300, 200]] });
    assert.equal((await P.probe(solved, { ...right, slide: 2 })).pass, false);
    assert.equal((await P.probe(solved, { ...right, width: 600, height: 400 })).pass, false);
    // The full-size original inserted instead fails the size.
    const original = await P.apply(initial, [
      edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: PHOTO }),
    ]);
    assert.deepEqual((await P.probe(original, right)).observed, { pictures: [[600, 400]] });
    assert.equal((await P.probe(original, right)).pass, false);
    // The embedded bytes are the file's own.
    assert.equal(
      (await P.probe(solved, check({ kind: 'impress.image_present', file: DECK, slide: 3 }))).pass,
      true,
    );
  });

  test('a missing file, or one that is no picture, cannot be inserted', async () => {
    const initial = await home();
    await assert.rejects(
      P.apply(initial, [
        edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: 'Pictures/none.png' }),
      ]),
      /no file/,
    );
    await assert.rejects(
      P.apply({ ...initial, 'Pictures/fake.png': new TextEncoder().encode('not a png') }, [
        edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: 'Pictures/fake.png' }),
      ]),
      /neither a PNG nor a JPEG/,
    );
  });

  test('the invariants hold the other slides: a picture on the wrong slide fails them', async () => {
    const initial = await home();
    const solved = await P.apply(initial, [
      edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: SMALL }),
    ]);
    const invariants = await P.invariants(initial, solved, [DECK]);
    for (const inv of invariants) assert.equal((await P.probe(solved, inv)).pass, true);
    const wrong = await P.apply(initial, [
      edit({ op: 'impress.insert_picture', file: DECK, slide: 2, from: SMALL }),
    ]);
    const verdicts = await Promise.all(invariants.map(async (inv) => (await P.probe(wrong, inv)).pass));
    assert.ok(verdicts.includes(false));
  });
});

describe('the Python checker agrees on impress.picture', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-impress-picture-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('same verdicts and observed values on the initial, solved and wrong states', async () => {
    const checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
    const initial = await home();
    const states: [string, FileMap][] = [
      ['initial', initial],
      [
        'small',
        await P.apply(initial, [edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: SMALL })]),
      ],
      [
        'original',
        await P.apply(initial, [edit({ op: 'impress.insert_picture', file: DECK, slide: 3, from: PHOTO })]),
      ],
    ];
    const checks = [
      check({ kind: 'impress.picture', file: DECK, slide: 3, width: 300, height: 200 }),
      check({ kind: 'impress.picture', file: DECK, slide: 3, width: 600, height: 400 }),
      check({ kind: 'impress.picture', file: DECK, slide: 1, width: 300, height: 200 }),
      check({ kind: 'impress.picture', file: DECK, slide: 9, width: 300, height: 200 }),
    ];
    const jobs: { home: string; checks: unknown[] }[] = [];
    const expected: { pass: boolean; observed: unknown }[][] = [];
    for (const [label, files] of states) {
      const dir = path.join(work, label);
      await materializeHome(dir, files);
      jobs.push({ home: dir, checks });
      expected.push(await Promise.all(checks.map((c) => P.probe(files, c))));
    }
    const verdicts = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
    assert.deepEqual(
      verdicts.map((v) => v.map((x) => ({ pass: x.pass, observed: x.observed }))),
      expected.map((v) => v.map((x) => ({ pass: x.pass, observed: x.observed }))),
    );
    assert.deepEqual(
      expected.map((v) => v.map((x) => x.pass)),
      [
        [false, false, false, false],
        [true, false, false, false],
        [false, true, false, false],
      ],
    );
  });
});
