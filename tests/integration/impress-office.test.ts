import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { impressPreparer as preparer } from '../../preparers/impress/index.ts';
import { impressScenario, sampleImpressDoc } from '../../preparers/impress/sample.ts';
import { closeOffice, convertToPdf, roundTripOffice } from '../../preparers/office/index.ts';

const FILE = 'Documents/deck.pptx';
const { doc, cases } = impressScenario(FILE);

interface Variant {
  label: string;
  bytes: Uint8Array;
}

/** The initial file, the file after each case's oracle edits, and the typical benchmark file. */
async function variants(): Promise<{ initial: Uint8Array; solved: Uint8Array[]; all: Variant[] }> {
  const initial = (await preparer.build(FILE, doc))[FILE];
  const solved: Uint8Array[] = [];
  for (const c of cases) solved.push((await preparer.apply({ [FILE]: initial }, c.edits))[FILE]);
  const typical = (await preparer.build(FILE, sampleImpressDoc(12)))[FILE];
  const all = [
    { label: 'initial', bytes: initial },
    ...solved.map((bytes, i) => ({ label: cases[i].edits.map((e) => e.op).join('+'), bytes })),
    { label: 'typical', bytes: typical },
  ];
  return { initial, solved, all };
}

describe('impress files in the real LibreOffice', () => {
  let made: Awaited<ReturnType<typeof variants>>;
  before(async () => {
    made = await variants();
  });
  after(async () => {
    await closeOffice();
  });

  test('every built and oracle-edited file opens and converts to PDF', async () => {
    const pdfs = await convertToPdf(made.all.map((v) => ({ name: v.label, bytes: v.bytes, format: 'pptx' })));
    pdfs.forEach((pdf, i) => {
      assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-', made.all[i].label);
      assert.ok(pdf.length > 1000, `${made.all[i].label}: PDF of ${pdf.length} bytes`);
    });
  });

  test('after a LibreOffice round trip every check gives the same verdict', async () => {
    const files = [made.initial, ...made.solved];
    const saved = await roundTripOffice(files.map((bytes, i) => ({ name: `v${i}`, bytes, format: 'pptx' })));
    const differences: string[] = [];
    for (const [i, c] of cases.entries()) {
      for (const check of c.checks) {
        for (const [label, ours, theirs] of [
          ['initial', files[0], saved[0]],
          ['solved', files[i + 1], saved[i + 1]],
        ] as const) {
          const a = await preparer.probe({ [FILE]: ours }, check);
          const b = await preparer.probe({ [FILE]: theirs }, check);
          if (a.pass !== b.pass) {
            differences.push(
              `${label} ${JSON.stringify(check)}: ours ${a.pass}, LibreOffice ${b.pass} (${JSON.stringify(b.observed)})`,
            );
          }
          if (label === 'solved')
            assert.equal(b.pass, true, `${check.kind} fails on the LibreOffice-saved solution`);
        }
      }
    }
    assert.deepEqual(differences, []);
  });
});
