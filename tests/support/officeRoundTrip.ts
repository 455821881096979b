import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  closeOffice,
  convertToPdf,
  type OfficeFormat,
  roundTripOffice,
} from '../../preparers/office/index.ts';
import type { Preparer } from '../../preparers/types.ts';

/** Oracle edits with the checks they must turn from failing to passing. */
interface OfficeCase<Edit, Check> {
  edits: Edit[];
  checks: Check[];
}

/** What differs between the office apps whose files are checked in the real LibreOffice. */
export interface OfficeRoundTripSpec<Doc, Edit extends { op: string }, Check extends { kind: string }> {
  /** Name used in the suite title, e.g. `writer`. */
  app: string;
  preparer: Preparer<Doc, Edit, Check>;
  /** Home-relative path of the file under test. */
  file: string;
  format: OfficeFormat;
  scenario: { doc: Doc; cases: OfficeCase<Edit, Check>[] };
  /** The typical benchmark document, built lazily with the other variants. */
  typical: () => Doc;
}

interface Variant {
  label: string;
  bytes: Uint8Array;
}

/**
 * Registers a suite checking that every built and oracle-edited file opens in LibreOffice and
 * that every check gives the same verdict after a LibreOffice round trip.
 */
export function describeOfficeRoundTrip<Doc, Edit extends { op: string }, Check extends { kind: string }>(
  spec: OfficeRoundTripSpec<Doc, Edit, Check>,
): void {
  const { preparer, file: FILE, format } = spec;
  const { doc, cases } = spec.scenario;

  /** The initial file, the file after each case's oracle edits, and the typical benchmark file. */
  async function variants(): Promise<{ initial: Uint8Array; solved: Uint8Array[]; all: Variant[] }> {
    const initial = (await preparer.build(FILE, doc))[FILE];
    const solved: Uint8Array[] = [];
    for (const c of cases) solved.push((await preparer.apply({ [FILE]: initial }, c.edits))[FILE]);
    const typical = (await preparer.build(FILE, spec.typical()))[FILE];
    const all = [
      { label: 'initial', bytes: initial },
      ...solved.map((bytes, i) => ({ label: cases[i].edits.map((e) => e.op).join('+'), bytes })),
      { label: 'typical', bytes: typical },
    ];
    return { initial, solved, all };
  }

  describe(`${spec.app} files in the real LibreOffice`, () => {
    let made: Awaited<ReturnType<typeof variants>>;
    before(async () => {
      made = await variants();
    });
    after(async () => {
      await closeOffice();
    });

    test('every built and oracle-edited file opens and converts to PDF', async () => {
      const pdfs = await convertToPdf(made.all.map((v) => ({ name: v.label, bytes: v.bytes, format })));
      pdfs.forEach((pdf, i) => {
        assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-', made.all[i].label);
        assert.ok(pdf.length > 1000, `${made.all[i].label}: PDF of ${pdf.length} bytes`);
      });
    });

    test('after a LibreOffice round trip every check gives the same verdict', async () => {
      const files = [made.initial, ...made.solved];
      const saved = await roundTripOffice(files.map((bytes, i) => ({ name: `v${i}`, bytes, format })));
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
}
