import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import JSZip from 'jszip';
import type { FileMap } from '../../preparers/types.ts';
import { writerPreparer as W } from '../../preparers/writer/index.ts';
import { shippedVerdicts } from '../support/checkerHome.ts';

const FILE = 'Documents/site-report.docx';
const ROOF = 'The slate roof was finished on Thursday, two days ahead of plan.';
const NEXT = 'The scaffold comes down on Monday.';

const doc = W.docSchema.parse({
  blocks: [
    { type: 'heading', level: 1, text: 'Site report' },
    { type: 'heading', level: 2, text: 'Roof' },
    { type: 'paragraph', runs: [{ text: ROOF }] },
    { type: 'heading', level: 2, text: 'Next week' },
    { type: 'paragraph', runs: [{ text: NEXT }] },
  ],
  pictures: [
    {
      path: 'Pictures/roof.jpg',
      image: { scene: 'landscape', width: 320, height: 240, seed: 7, quality: 85 },
    },
    {
      path: 'Pictures/scaffold.jpg',
      image: { scene: 'landscape', width: 300, height: 200, seed: 8, quality: 85 },
    },
    // The same size as the roof photo, another picture: a size match alone does not pass.
    {
      path: 'Pictures/roof-2.jpg',
      image: { scene: 'landscape', width: 320, height: 240, seed: 9, quality: 85 },
    },
  ],
});

const insert = (after: string, from: string, into?: boolean) =>
  W.editSchema.parse({ op: 'writer.insert_picture', file: FILE, after, from, ...(into ? { into } : {}) });

describe('writer picture insertion', () => {
  test('the photo under its paragraph passes, in it or after a blank line too; another photo, another place, none fail — and the shipped checker agrees', async () => {
    const initial = await W.build(FILE, doc);
    assert.ok(initial['Pictures/roof.jpg'] && initial['Pictures/scaffold.jpg'], 'the pictures are staged');
    const check = W.checkSchema.parse({
      kind: 'writer.picture',
      file: FILE,
      after: ROOF,
      image: 'Pictures/roof.jpg',
    });
    const oracle = await W.apply(initial, [insert(ROOF, 'Pictures/roof.jpg')]);
    // The image is embedded byte for byte, with its content type and relationship.
    const zip = await JSZip.loadAsync(oracle[FILE]!);
    const media = Object.keys(zip.files).filter((n) => n.startsWith('word/media/') && !zip.files[n]!.dir);
    assert.equal(media.length, 1);
    assert.deepEqual(
      Buffer.from(await zip.file(media[0]!)!.async('uint8array')),
      Buffer.from(initial['Pictures/roof.jpg']!),
    );
    assert.match(await zip.file('[Content_Types].xml')!.async('string'), /Extension="jpeg"/);
    const states: Record<string, FileMap> = {
      oracle,
      inParagraph: await W.apply(initial, [insert(ROOF, 'Pictures/roof.jpg', true)]),
      // A picture pasted on a line of its own after a blank line still sits with the paragraph.
      afterBlankLine: await W.apply(initial, [
        insert(ROOF, 'Pictures/roof.jpg'),
        W.editSchema.parse({ op: 'writer.insert_paragraph', file: FILE, after: ROOF, text: ' ' }),
      ]),
      otherPhoto: await W.apply(initial, [insert(ROOF, 'Pictures/scaffold.jpg')]),
      sameSizeOtherPhoto: await W.apply(initial, [insert(ROOF, 'Pictures/roof-2.jpg')]),
      nextSection: await W.apply(initial, [insert(NEXT, 'Pictures/roof.jpg')]),
      underHeading: await W.apply(initial, [insert('Next week', 'Pictures/roof.jpg')]),
      none: initial,
    };
    const want = [true, true, true, false, false, false, false, false];
    const ours = await Promise.all(Object.values(states).map((s) => W.probe(s, check)));
    assert.deepEqual(
      ours.map((r) => r.pass),
      want,
      JSON.stringify(ours.map((r) => r.observed)),
    );
    assert.deepEqual(ours[5]!.observed, { near: [], elsewhere: 1 });
    const verdicts = await shippedVerdicts(states, [check]);
    assert.deepEqual(
      verdicts.map((v) => v[0]),
      ours.map((r) => ({ pass: r.pass, observed: r.observed })),
      'the shipped checker agrees, verdict and observation',
    );
  });
});
