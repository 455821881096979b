import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { pixelsOf, readImage } from '../../preparers/gimp/decoded.ts';
import { gimpPreparer as P } from '../../preparers/gimp/index.ts';
import { jpegHeader } from '../../preparers/gimp/jpeg.ts';
import { decodePng, encodePng } from '../../preparers/gimp/png.ts';
import { blank, fillRect } from '../../preparers/gimp/raster.ts';
import { renderScene } from '../../preparers/gimp/scene.ts';
import { FEATURES, SCREENS } from '../../preparers/gimp/sceneKinds.ts';
import { textWidth } from '../../preparers/gimp/text.ts';
import { profileProblem } from '../../preparers/profiles/gate.ts';
import { preparers, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { runCheckerBatch } from '../support/checkerHome.ts';

const doc = (d: object) => P.docSchema.parse(d);
const edit = (e: object) => P.editSchema.parse(e);
const check = (c: object) => P.checkSchema.parse(c);
const probe = async (files: FileMap, c: object) => (await P.probe(files, check(c))).pass;

const SRC = 'Pictures/shop/mug.png';
const OUT = 'Pictures/shop/mug-out.png';

async function product(): Promise<FileMap> {
  return P.build(SRC, doc({ scene: 'product', width: 240, height: 160, seed: 5, accent: '#c0392b' }));
}

describe('gimp build', () => {
  test('the same spec gives the same bytes; another seed another picture', async () => {
    const a = await P.build('P/a.png', doc({ scene: 'landscape', width: 120, height: 80, seed: 3 }));
    const b = await P.build('P/a.png', doc({ scene: 'landscape', width: 120, height: 80, seed: 3 }));
    const c = await P.build('P/a.png', doc({ scene: 'landscape', width: 120, height: 80, seed: 4 }));
    assert.deepEqual(a['P/a.png'], b['P/a.png']);
    assert.notDeepEqual(a['P/a.png'], c['P/a.png']);
  });

  test('the target extension picks the format, and a JPEG gets the quality asked for', async () => {
    const j = await P.build('D/p.jpg', doc({ scene: 'scan', width: 100, height: 140, seed: 1, quality: 72 }));
    assert.deepEqual((await P.probe(j, check({ kind: 'gimp.image', path: 'D/p.jpg' }))).observed, {
      format: 'jpeg',
      width: 100,
      height: 140,
      alpha: false,
      gray: false,
      quality: 72,
      progressive: false,
    });
    await assert.rejects(P.build('D/p.gif', doc({ scene: 'scan', width: 100, height: 140, seed: 1 })));
  });

  test('a screenshot shows the window it is named for, in the same frame: title bar and sidebar alike', () => {
    const shots = SCREENS.map((screen) =>
      renderScene({ scene: 'screenshot', width: 320, height: 200, seed: 9, screen }),
    );
    const region = (i: number, x0: number, y0: number, x1: number, y1: number) => {
      const img = shots[i]!;
      const out: number[] = [];
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++)
          out.push(...img.data.subarray((y * 320 + x) * 4, (y * 320 + x) * 4 + 4));
      return out;
    };
    for (let i = 1; i < shots.length; i++) {
      // The title bar (7% of the height) and the sidebar (22% of the width) are the cards' own.
      assert.deepEqual(region(i, 0, 0, 320, 14), region(0, 0, 0, 320, 14), SCREENS[i]);
      assert.deepEqual(region(i, 0, 14, 70, 200), region(0, 0, 14, 70, 200), SCREENS[i]);
      for (let j = 0; j < i; j++)
        assert.notDeepEqual(
          region(i, 80, 20, 320, 200),
          region(j, 80, 20, 320, 200),
          `${SCREENS[i]} vs ${SCREENS[j]}`,
        );
    }
  });

  test('a landscape named for what stands in it shows it: each feature adds its own marks, left of the trees', () => {
    const draw = (feature?: (typeof FEATURES)[number] | 'none') =>
      renderScene({ scene: 'landscape', width: 300, height: 200, seed: 4, accent: '#1b4f72', feature });
    const bare = draw();
    assert.deepEqual(draw('none').data, bare.data);
    const changed = (img: ReturnType<typeof draw>) => {
      const cols = new Set<number>();
      for (let i = 0; i < img.data.length; i += 4)
        if (Math.abs(img.data[i]! - bare.data[i]!) + Math.abs(img.data[i + 2]! - bare.data[i + 2]!) > 24)
          cols.add((i / 4) % 300);
      return cols;
    };
    const marks = FEATURES.map((f) => draw(f));
    for (const [k, img] of marks.entries()) {
      const cols = changed(img);
      assert.ok(cols.size > 10, `${FEATURES[k]} draws something`);
      assert.ok(Math.max(...cols) < 150, `${FEATURES[k]} stays left of the trees`);
      for (let j = 0; j < k; j++)
        assert.notDeepEqual(img.data, marks[j]!.data, `${FEATURES[k]} vs ${FEATURES[j]}`);
    }
  });

  test('a picture saved turned has its sides swapped', async () => {
    const f = await P.build('S/page.png', doc({ scene: 'scan', width: 90, height: 130, seed: 2, turn: 90 }));
    assert.equal(await probe(f, { kind: 'gimp.image', path: 'S/page.png', width: 130, height: 90 }), true);
  });
});

describe('gimp codecs', () => {
  test('a picture decoded again gives its own pixels, unchanged by what an earlier reader did to its copy', () => {
    const bytes = encodePng(blank(3, 2, [10, 20, 30, 255]));
    const first = pixelsOf(bytes);
    first.data.fill(0);
    const again = readImage(Uint8Array.from(bytes));
    assert.deepEqual([...again.data.subarray(0, 4)], [10, 20, 30, 255]);
    assert.notEqual(again.data, pixelsOf(bytes).data);
  });
  test('PNG round trip keeps RGBA, and a grey raster is stored as grey', () => {
    const img = blank(5, 3, [10, 200, 30, 128]);
    const back = decodePng(encodePng(img));
    assert.deepEqual([...back.data], [...img.data]);
    const grey = decodePng(encodePng({ ...blank(4, 4, [77, 77, 77, 255]), gray: true }));
    assert.equal(grey.gray, true);
    assert.equal(grey.data[0], 77);
  });

  test('the JPEG quality estimate reads back the quality libjpeg scaled for', async () => {
    for (const q of [30, 60, 85, 95]) {
      const f = await P.build('a.jpg', doc({ scene: 'logo', width: 64, height: 32, seed: 1, quality: q }));
      assert.equal(jpegHeader(f['a.jpg']!).quality, q);
    }
  });
});

describe('gimp edits and checks', () => {
  test('a horizontal mirror matches the flipped original and not the unflipped or upside-down one', async () => {
    const initial = await product();
    const solved = await P.apply(initial, [
      edit({ op: 'gimp.flip', path: SRC, to: OUT, axis: 'horizontal' }),
    ]);
    assert.equal(
      await probe(solved, { kind: 'gimp.matches', path: OUT, reference: SRC, flip: 'horizontal' }),
      true,
    );
    assert.equal(await probe(solved, { kind: 'gimp.matches', path: OUT, reference: SRC }), false);
    assert.equal(
      await probe(solved, { kind: 'gimp.matches', path: OUT, reference: SRC, flip: 'vertical' }),
      false,
    );
    assert.deepEqual(solved[SRC], initial[SRC]);
  });

  test('rotations compose: four quarter turns give the picture back, and a quarter turn swaps the sides', async () => {
    const initial = await product();
    let files = await P.apply(initial, [edit({ op: 'gimp.rotate', path: SRC, to: OUT, degrees: 90 })]);
    assert.equal(await probe(files, { kind: 'gimp.image', path: OUT, width: 160, height: 240 }), true);
    assert.equal(await probe(files, { kind: 'gimp.matches', path: OUT, reference: SRC, rotate: 90 }), true);
    assert.equal(await probe(files, { kind: 'gimp.matches', path: OUT, reference: SRC, rotate: 270 }), false);
    for (let i = 0; i < 3; i++)
      files = await P.apply(files, [edit({ op: 'gimp.rotate', path: OUT, degrees: 90 })]);
    assert.equal(
      await probe(files, { kind: 'gimp.matches', path: OUT, reference: SRC, tolerance: 0, worst: 0 }),
      true,
    );
  });

  test('a crop matches the cropped part of the original; a scaled copy matches the whole', async () => {
    const initial = await product();
    const box = { x: 40, y: 20, width: 120, height: 100 };
    const cropped = await P.apply(initial, [edit({ op: 'gimp.crop', path: SRC, to: OUT, ...box })]);
    assert.equal(await probe(cropped, { kind: 'gimp.matches', path: OUT, reference: SRC, crop: box }), true);
    assert.equal(await probe(cropped, { kind: 'gimp.matches', path: OUT, reference: SRC }), false);
    const scaled = await P.apply(initial, [
      edit({ op: 'gimp.scale', path: SRC, to: OUT, width: 120, height: 80 }),
    ]);
    assert.equal(await probe(scaled, { kind: 'gimp.matches', path: OUT, reference: SRC }), true);
  });

  test('colour measures move the way the edit does, relative to the reference', async () => {
    const initial = await P.build(SRC, doc({ scene: 'landscape', width: 160, height: 100, seed: 9 }));
    const dark = await P.apply(initial, [
      edit({ op: 'gimp.brightness_contrast', path: SRC, to: OUT, brightness: -0.3 }),
    ]);
    const down = {
      kind: 'gimp.measure',
      path: OUT,
      measure: 'brightness',
      reference: SRC,
      change: 'decrease',
      by: 10,
    };
    assert.equal(await probe(dark, down), true);
    assert.equal(await probe(dark, { ...down, change: 'increase', by: 0 }), false);
    assert.equal(
      await probe(dark, { kind: 'gimp.matches', path: OUT, reference: SRC, normalize: true }),
      true,
    );
  });

  test('normalised matching takes any amount of any light tool as the same photo, and no other picture', async () => {
    const initial = await P.build(
      SRC,
      doc({ scene: 'landscape', width: 160, height: 100, seed: 9, accent: '#1c2833' }),
    );
    const same = { kind: 'gimp.matches', path: OUT, reference: SRC, normalize: true, worst: 128 };
    const src = decodePng(initial[SRC]!);
    /** A tone curve applied to every colour channel: what Levels, Curves or Exposure write. */
    const curved = (f: (v: number) => number): FileMap => {
      const data = new Uint8Array(src.data.length);
      src.data.forEach((v, k) => {
        data[k] = k % 4 === 3 ? v : Math.max(0, Math.min(255, Math.round(f(v))));
      });
      return { ...initial, [OUT]: encodePng({ width: src.width, height: src.height, data }) };
    };
    for (const brightness of [0.15, 0.35, 0.6]) {
      const lighter = await P.apply(initial, [
        edit({ op: 'gimp.brightness_contrast', path: SRC, to: OUT, brightness }),
      ]);
      assert.equal(await probe(lighter, same), true, `Brightness-Contrast +${brightness}`);
    }
    const both = await P.apply(initial, [
      edit({ op: 'gimp.brightness_contrast', path: SRC, to: OUT, brightness: 0.3, contrast: 0.2 }),
    ]);
    assert.equal(await probe(both, same), true, 'brightness with some contrast');
    assert.equal(
      await probe(
        curved((v) => 255 * (v / 255) ** 0.6),
        same,
      ),
      true,
      'Curves (gamma 0.6)',
    );
    assert.equal(
      await probe(
        curved((v) => (v * 255) / 160),
        same,
      ),
      true,
      'Levels, white point 160',
    );
    const exposure = (v: number) => 255 * Math.min(1, 2 * (v / 255) ** 2.2) ** (1 / 2.2);
    assert.equal(await probe(curved(exposure), same), true, 'Exposure +1 stop');
    // The picture turned round, or another picture altogether, is not the photo made lighter.
    const mirrored = await P.apply(initial, [
      edit({ op: 'gimp.flip', path: SRC, to: OUT, axis: 'horizontal' }),
    ]);
    assert.equal(await probe(mirrored, same), false, 'mirrored');
    const product = await P.build(OUT, doc({ scene: 'product', width: 160, height: 100, seed: 9 }));
    assert.equal(await probe({ ...initial, ...product }, same), false, 'another picture');
    assert.equal(
      await probe(
        curved((v) => 255 - v),
        same,
      ),
      false,
      'the negative',
    );
  });

  test('a grey copy measures no saturation, a vivid one more than the original', async () => {
    const initial = await P.build(SRC, doc({ scene: 'landscape', width: 160, height: 100, seed: 9 }));
    const grey = await P.apply(initial, [edit({ op: 'gimp.grayscale', path: SRC, to: OUT, mode: false })]);
    assert.equal(await probe(grey, { kind: 'gimp.measure', path: OUT, measure: 'saturation', max: 1 }), true);
    assert.equal(await probe(grey, { kind: 'gimp.image', path: OUT, gray: false }), true);
    const vivid = await P.apply(initial, [edit({ op: 'gimp.saturation', path: SRC, to: OUT, amount: 0.5 })]);
    const up = {
      kind: 'gimp.measure',
      path: OUT,
      measure: 'saturation',
      reference: SRC,
      change: 'increase',
      by: 10,
    };
    assert.equal(await probe(vivid, up), true);
    assert.equal(await probe(grey, up), false);
  });

  test('clearing the background adds alpha and leaves the mark opaque; a JPEG export loses it', async () => {
    const initial = await product();
    const cleared = await P.apply(initial, [
      edit({ op: 'gimp.clear_color', path: SRC, to: OUT, color: '#ffffff' }),
    ]);
    assert.equal(await probe(cleared, { kind: 'gimp.image', path: OUT, alpha: true }), true);
    assert.equal(
      await probe(cleared, { kind: 'gimp.measure', path: OUT, measure: 'transparent', min: 0.5 }),
      true,
    );
    assert.equal(
      await probe(cleared, {
        kind: 'gimp.region',
        path: OUT,
        x: 100,
        y: 90,
        width: 10,
        height: 10,
        color: '#c0392b',
      }),
      true,
    );
    const flat = await P.apply(initial, [
      edit({ op: 'gimp.clear_color', path: SRC, to: OUT, color: '#ffffff', format: 'jpeg' }),
    ]);
    assert.equal(await probe(flat, { kind: 'gimp.image', path: OUT, format: 'png' }), false);
    // Pixel checks read PNG only, in the probe as in the VM's checker.
    await assert.rejects(
      P.probe(flat, check({ kind: 'gimp.measure', path: OUT, measure: 'transparent' })),
      /PNG only/,
    );
  });

  test('every mutant of a mirror is a different state the rubric fails', async () => {
    const initial = await product();
    const oracle = [edit({ op: 'gimp.flip', path: SRC, to: OUT, axis: 'horizontal' })];
    const solved = await P.apply(initial, oracle);
    const rubric = [
      check({ kind: 'gimp.image', path: OUT, format: 'png', width: 240, height: 160 }),
      check({ kind: 'gimp.matches', path: OUT, reference: SRC, flip: 'horizontal' }),
      ...(await P.invariants(initial, solved, [SRC])),
      // The home's folders, held for every task (a second export shows there).
      ...(await preparers.os.invariants(initial, solved, [])),
    ];
    const mutants = await P.mutants!(oracle, initial);
    assert.deepEqual(
      mutants.map((m) => m.name).sort(),
      [
        'exported again as Pictures/shop/mug-out (1).png',
        'flipped vertically instead',
        'saved over the original instead of exporting',
      ].sort(),
    );
    for (const m of mutants) {
      const state = await P.apply(initial, [...m.edits, ...(m.also ?? [])]);
      const verdicts = await Promise.all(rubric.map((c) => probeCheck(state, c)));
      assert.ok(
        verdicts.some((v) => !v.pass),
        `mutant ${m.name} survives`,
      );
    }
  });

  test('a JPEG export asked of a PNG has a "written as PNG" mutant, and a scale a swapped one', async () => {
    const names = (
      await P.mutants!([edit({ op: 'gimp.scale', path: SRC, to: 'x.jpg', width: 100, height: 50 })], {})
    ).map((m) => m.name);
    assert.ok(names.includes('width and height swapped'));
    assert.ok(names.includes('written as PNG under the new name'));
  });
});

describe('gimp text', () => {
  const PHOTO = 'Pictures/trip/lake.png';
  const DATED = 'Pictures/trip/lake-dated.png';
  const W = 480;
  const H = 320;
  const ORANGE = '#ff8a1c';
  const DATE = '14.07.2026';
  const photo = () => P.build(PHOTO, doc({ scene: 'landscape', width: W, height: H, seed: 11 }));
  const put = (initial: FileMap, e: object) =>
    P.apply(initial, [
      edit({ op: 'gimp.text', path: PHOTO, to: DATED, text: DATE, size: 24, color: ORANGE, ...e }),
    ]);
  // The oracle's place: bottom-right, 20 px in; the check's box is the right half of the bottom 30 %.
  const x = W - 20 - textWidth(DATE, 24);
  const y = H - 20 - 24;
  const lettering = {
    kind: 'gimp.text',
    path: DATED,
    reference: PHOTO,
    x: W / 2,
    y: H - 96,
    width: W / 2,
    height: 96,
    color: ORANGE,
    inkHeight: { min: 12, max: 24 },
    inkWidth: { min: 84 },
  };

  test('the lettering passes in its corner and reads as lettering: tall as the size, broken into strokes', async () => {
    const dated = await put(await photo(), { x, y });
    const got = await P.probe(dated, check(lettering));
    assert.equal(got.pass, true, JSON.stringify(got.observed));
    const o = got.observed as { height: number; width: number; strokes: number; fill: number };
    // Digits are 0.72 of the font size, ten of them about six tenths of it each.
    assert.ok(Math.abs(o.height - 17) <= 1, `height ${o.height}`);
    assert.ok(o.width > 130 && o.width < 160, `width ${o.width}`);
    assert.ok(o.strokes >= 6 && o.fill < 0.5, JSON.stringify(o));
  });

  test('the other corner, nothing, black, a smaller size, a solid label or a part of the date all fail', async () => {
    const initial = await photo();
    const states: Record<string, FileMap> = {
      'other corner': await put(initial, { x: 20, y }),
      'top right': await put(initial, { x, y: 20 }),
      'left black': await put(initial, { x, y, color: '#000000' }),
      'at 0.6 of the size': await put(initial, { x, y, size: 14 }),
      'the year only': await put(initial, { x: x + 100, y, text: '2026' }),
      'nothing drawn': await P.apply(initial, [edit({ op: 'gimp.export', path: PHOTO, to: DATED })]),
    };
    // An orange label where the date goes: new marks of the colour, but one run a row, filling their box.
    const img = decodePng(initial[PHOTO]!);
    states['a solid label'] = {
      ...initial,
      [DATED]: encodePng(fillRect(img, x, y + 5, 150, 18, [255, 138, 28, 255])),
    };
    for (const [name, files] of Object.entries(states))
      assert.equal((await P.probe(files, check(lettering))).pass, false, name);
  });

  test('the Python checker reads the same lettering figures as the probe, passing or not', async () => {
    const initial = await photo();
    const img = decodePng(initial[PHOTO]!);
    const states: FileMap[] = [
      await put(initial, { x, y }),
      await put(initial, { x: 20, y }),
      await put(initial, { x, y, size: 14 }),
      { ...initial, [DATED]: encodePng(fillRect(img, x, y + 5, 150, 18, [255, 138, 28, 255])) },
      await P.apply(initial, [edit({ op: 'gimp.export', path: PHOTO, to: DATED })]),
    ];
    const checks = [check(lettering), check({ ...lettering, x: 0, strokes: 1, fill: 1 })];
    const work = mkdtempSync(path.join(tmpdir(), 'gimp-text-py-'));
    const jobs = states.map((files, i) => {
      const home = path.join(work, `s${i}`);
      for (const [rel, bytes] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
        writeFileSync(path.join(home, rel), bytes);
      }
      return { home, checks };
    });
    const checker = path.join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
    const py = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
    for (const [i, files] of states.entries())
      for (const [j, c] of checks.entries()) {
        const ts = await P.probe(files, c);
        assert.equal(py[i]![j]!.pass, ts.pass, `state ${i} check ${j}`);
        assert.deepEqual(py[i]![j]!.observed, ts.observed, `state ${i} check ${j}`);
      }
    assert.deepEqual(
      states.map((_, i) => py[i]![0]!.pass),
      [true, false, false, false, false],
    );
  });

  test("a text edit's own near misses: GIMP's default black, the same line on the other side", async () => {
    const initial = await photo();
    const oracle = [
      edit({ op: 'gimp.text', path: PHOTO, to: DATED, text: DATE, x, y, size: 24, color: ORANGE }),
    ];
    const mutants = await P.mutants!(oracle, initial);
    assert.deepEqual(mutants.map((m) => m.name).sort(), [
      'exported again as Pictures/trip/lake-dated (1).png',
      'saved over the original instead of exporting',
      'text left in the default black',
      'text on the other side',
    ]);
    const across = mutants.find((m) => m.name === 'text on the other side')!.edits[0] as { x: number };
    assert.equal(across.x, 20);
    // The lettering check fails each one that changes the export (the second export is the
    // home's folder listing's to catch, as the first test of this suite shows).
    for (const m of mutants.filter((x) => x.also === undefined)) {
      const state = await P.apply(initial, m.edits);
      // (saved over the original: no export to read, which the probe reports as a failure)
      assert.equal((await probeCheck(state, check(lettering))).pass, false, m.name);
    }
  });

  test('text is limited to what the oracle can draw and Script-Fu can carry', () => {
    const accepted = (text: string) =>
      P.editSchema.safeParse({ op: 'gimp.text', path: 'a.png', text, x: 0, y: 0, size: 20, color: '#000000' })
        .success;
    for (const text of ['DRAFT', '14.07.2026', "O'HARA & SONS (COPY) #2"])
      assert.equal(accepted(text), true, text);
    for (const text of ['draft', 'say "hi"', 'a\\b', 'LINE\nTWO', ''])
      assert.equal(accepted(text), false, text);
  });
});

describe('gimp schema and profile', () => {
  test('paths must be safe image paths, and spec text never reaches a path unchecked', () => {
    assert.equal(
      P.editSchema.safeParse({ op: 'gimp.flip', path: '../x.png', axis: 'horizontal' }).success,
      false,
    );
    assert.equal(
      P.editSchema.safeParse({ op: 'gimp.flip', path: 'a/x.tiff', axis: 'horizontal' }).success,
      false,
    );
    assert.equal(
      P.checkSchema.safeParse({
        kind: 'gimp.measure',
        path: 'a.png',
        measure: 'brightness',
        change: 'increase',
      }).success,
      false,
    );
  });

  test("GIMP's configuration stays closed: no gimprc, plug-in or script may be written", () => {
    for (const p of [
      '.config/GIMP/2.10/gimprc',
      '.config/GIMP/2.10/plug-ins/x.py',
      '.config/GIMP/2.10/scripts/x.scm',
    ])
      assert.match(profileProblem(p, { type: 'file' }) ?? '', /GIMP/);
  });

  test('the byte pin maps to exact_match on the file hash, and every pixel kind stays with the checker', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gimp-map-'));
    writeFileSync(path.join(dir, 'a.png'), 'abc');
    const sha = createHash('sha256').update('abc').digest('hex');
    const m = P.osworld['gimp.unchanged']!({ kind: 'gimp.unchanged', path: 'a.png', sha256: sha });
    assert.ok(m.ok && m.shape === 'call');
    const command = (m.call.result as unknown as { command: string[] }).command;
    // The harness reads stdout whatever the exit status (a missing file: sha256sum fails, nothing printed).
    const run = (file: string) =>
      spawnSync(command[0]!, [...command.slice(1, -1), path.join(dir, file)], { encoding: 'utf8' }).stdout;
    assert.equal(
      run('a.png'),
      (m.call.expected as unknown as { rules: { expected: string } }).rules.expected,
    );
    assert.equal(run('missing.png'), '');
    for (const kind of ['gimp.image', 'gimp.matches', 'gimp.measure', 'gimp.region', 'gimp.text'])
      assert.equal(P.osworld[kind]!({ kind, path: 'a.png' }).ok, false);
  });
});
