import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { rightsResaved } from '../../activities/office.ts';
import { closeOffice, roundTripOffice } from '../../preparers/office/index.ts';
import type { FileMap } from '../../preparers/types.ts';
import { writerPreparer as W } from '../../preparers/writer/index.ts';
import type { MaterializedTask } from '../../skills/run/materialize.ts';
import { comparisonsOffGold } from '../../taskcore/verify/offGold.ts';
import { correctAlternatives } from '../../taskcore/verify/rubricProof.ts';

const FILE = 'Documents/minutes.docx';

/** A task whose oracle retypes a title in capitals and whose rights show it in capitals instead. */
const task = {
  edits: [{ op: 'writer.replace_text', file: FILE, find: 'Opening session', replace: 'OPENING SESSION' }],
  right: [
    {
      name: 'capitals-as-font-effect',
      edits: [{ op: 'writer.set_run_format', file: FILE, paragraph: 'Opening session', caps: true }],
    },
    {
      name: 'heading-style-in-capitals',
      edits: [{ op: 'writer.set_style_format', file: FILE, style: 'Heading2', caps: true }],
    },
  ],
  free: [],
  genericRightOff: [],
} as unknown as MaterializedTask;

const checks = [
  W.checkSchema.parse({
    kind: 'writer.text_present',
    file: FILE,
    text: 'OPENING SESSION',
    count: 1,
    shown: true,
  }),
  W.checkSchema.parse({
    kind: 'writer.heading',
    file: FILE,
    paragraph: 'OPENING SESSION',
    level: 2,
    shown: true,
  }),
];

async function states(): Promise<{ initial: FileMap; solved: FileMap; savedSolved: FileMap }> {
  const initial = await W.build(
    FILE,
    W.docSchema.parse({
      blocks: [
        { type: 'heading', level: 2, text: 'Opening session' },
        { type: 'paragraph', runs: [{ text: 'The chair welcomed everyone and noted two apologies.' }] },
      ],
    }),
  );
  const solved = await W.apply(
    initial,
    task.edits.map((e) => W.editSchema.parse(e)),
  );
  const [saved] = await roundTripOffice([{ name: 'oracle', bytes: solved[FILE]!, format: 'docx' }]);
  return { initial, solved, savedSolved: { ...solved, [FILE]: saved! } };
}

describe('correct alternatives in the agent’s world: saved through LibreOffice, then checked', () => {
  after(() => closeOffice());

  test('each right whose document differs from the oracle’s is saved by LibreOffice and still passes', async () => {
    const { initial, solved, savedSolved } = await states();
    const out = await rightsResaved(task, { initial, solved }, savedSolved, checks);
    assert.deepEqual([...out.problems, ...out.unsaved], []);
    assert.deepEqual(
      out.states.map((s) => s.name),
      ['capitals-as-font-effect', 'heading-style-in-capitals'],
    );
    for (const s of out.states) {
      assert.ok(
        s.probes.every((p) => p.pass),
        s.name,
      );
      // The document checked is LibreOffice's own save, not the bytes the edit wrote.
      const ours = (await correctAlternatives(task, { initial, solved })).find((r) => r.name === s.name)!
        .files![FILE]!;
      assert.notDeepEqual(Buffer.from(s.files[FILE]!), Buffer.from(ours), s.name);
    }
  });

  test('on LibreOffice’s saves, OSWorld’s gold comparison is named where a right reads differently, and only there', async () => {
    const { initial, solved, savedSolved } = await states();
    const rights = await correctAlternatives(task, { initial, solved });
    // The oracle's words set in bold: what compare_docx_files reads is the same.
    const bolded = await W.apply(solved, [
      W.editSchema.parse({
        op: 'writer.set_run_format',
        file: FILE,
        paragraph: 'OPENING SESSION',
        bold: true,
      }),
    ]);
    const saved = await roundTripOffice([
      ...rights.map((r) => ({ name: r.name, bytes: r.files![FILE]!, format: 'docx' as const })),
      { name: 'bolded', bytes: bolded[FILE]!, format: 'docx' },
    ]);
    const resaved = [...rights.map((r) => r.name), 'bolded'].map((name, i) => ({
      name,
      files: { ...savedSolved, [FILE]: saved[i]! },
    }));
    const compared = [{ kind: 'writer.text_absent', file: FILE, text: 'Opening session' }];
    // The capitals shown by a font effect are typed in lower case: python-docx reads "Opening session".
    assert.deepEqual(await comparisonsOffGold(compared, savedSolved, resaved), [
      { file: FILE, func: 'compare_docx_files', right: 'capitals-as-font-effect' },
    ]);
    assert.deepEqual(await comparisonsOffGold(compared, savedSolved, resaved.slice(2)), []);
  });

  test('a check that holds on our bytes but not on LibreOffice’s save rejects the right, named', async () => {
    const { initial, solved, savedSolved } = await states();
    const ours = (await correctAlternatives(task, { initial, solved }))[0]!.files![FILE]!;
    // Whole-file equality with the bytes our edit wrote: true before the save, never after it.
    const brittle = [
      ...checks,
      { kind: 'os.content_equals', path: FILE, base64: Buffer.from(ours).toString('base64') },
    ];
    const out = await rightsResaved(task, { initial, solved }, savedSolved, brittle);
    assert.equal(out.problems.length, 2, out.problems.join('\n'));
    assert.match(
      out.problems[0]!,
      /correct alternative "capitals-as-font-effect" as LibreOffice saved it fails os\.content_equals/,
    );
    assert.deepEqual(out.states, []);
  });
});
