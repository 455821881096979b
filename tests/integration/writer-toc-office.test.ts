import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import JSZip from 'jszip';
import { ResidentOffice, residentOptions } from '../../preparers/office/index.ts';
import { probeCheck } from '../../preparers/registry.ts';
import { openDocx } from '../../preparers/writer/document.ts';
import { tocInfo } from '../../preparers/writer/toc.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * writer.structure.toc done in the real application: LibreOffice inserts its own table of contents
 * (Insert ▸ Table of Contents and Index, built from the outline) into the task's initial document
 * and saves it as docx; the task's rubric must pass on that state. LibreOffice lists a paragraph
 * only when its style has an outline level, so this proves the generated heading styles carry one.
 */
const office = new ResidentOffice(residentOptions({ processes: 1 }));
after(() => office.close());

async function tocTask() {
  const spec = loadSkillLibrary().get('writer.structure.toc')!.spec;
  const a = await authorTask(spec, 3, offlineCaller, {
    level: 'explicit',
    roundId: 'toc-office',
    taskIndex: 0,
  });
  assert.ok(a.ok, 'the offline author writes the task');
  const p = await prepareInMemory(spec, 'file', a.context);
  assert.ok(p.ok, p.ok ? '' : `${p.reason}: ${p.detail}`);
  const toc = p.checks.find((c) => c.kind === 'writer.toc') as
    | { kind: string; file: string; entries: string[]; before: string }
    | undefined;
  assert.ok(toc, 'the rubric has a writer.toc check');
  return { p, toc };
}

/** The document with every w:outlineLvl removed from its styles (as the builder once wrote it). */
async function withoutOutlineLevels(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const styles = await zip.file('word/styles.xml')!.async('string');
  assert.match(styles, /<w:outlineLvl w:val="1"\/>/, 'Heading 2 carries outline level 1');
  zip.file('word/styles.xml', styles.replace(/<w:outlineLvl w:val="\d"\/>/g, ''));
  return zip.generateAsync({ type: 'uint8array' });
}

test('a table of contents LibreOffice inserts lists the headings and passes the task rubric', async () => {
  const { p, toc } = await tocTask();
  const initial = p.initial[toc.file]!;
  const insert = [{ op: 'writer.insert_toc', before: toc.before, levels: 3 }];
  const [made, bare] = await Promise.all([
    office.convert('toc', initial, 'docx', 'same', insert),
    withoutOutlineLevels(initial).then((b) => office.convert('no-levels', b, 'docx', 'same', insert)),
  ]);

  // LibreOffice's own index holds every heading, in document order.
  const entries = tocInfo((await openDocx({ [toc.file]: made }, toc.file)).body).entries;
  assert.deepEqual(entries, toc.entries);
  // The whole rubric (the toc, the order, the invariants) holds on the state the real app made.
  const files = { ...p.initial, [toc.file]: made };
  for (const check of p.checks) {
    const v = await probeCheck(files, check);
    assert.equal(
      v.pass,
      true,
      `${check.kind} on LibreOffice's table of contents: ${JSON.stringify(v.observed)}`,
    );
  }

  // Control: without outline levels LibreOffice's index comes out empty and the check fails.
  const bareFiles = { ...p.initial, [toc.file]: bare };
  assert.deepEqual(tocInfo((await openDocx(bareFiles, toc.file)).body).entries, []);
  assert.equal((await probeCheck(bareFiles, toc)).pass, false);
});

test('an unknown LibreOffice operation is answered as an error for that file', async () => {
  const { p, toc } = await tocTask();
  await assert.rejects(
    office.convert('bad', p.initial[toc.file]!, 'docx', 'same', [{ op: 'writer.no_such_op' }]),
    /unknown operation 'writer.no_such_op'/,
  );
  await assert.rejects(
    office.convert('missing', p.initial[toc.file]!, 'docx', 'same', [
      { op: 'writer.insert_toc', before: 'no paragraph reads this', levels: 3 },
    ]),
    /no paragraph reads/,
  );
});
