import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { applyEdits, probeCheck } from '../../preparers/registry.ts';
import { MAY_OPEN } from '../../preparers/thunderbird/invariants.ts';
import { parseMessage } from '../../preparers/thunderbird/mime.ts';
import { Profile } from '../../preparers/thunderbird/profile.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';
import { proveLocally } from '../support/localProof.ts';

/**
 * Per app, a property: the oracle's right edit plus any random edit outside the declared edit
 * region (a cell, paragraph, slide, message or file the task does not name) fails the rubric,
 * through the app's derived "nothing else changed" check.
 */
const library = loadSkillLibrary();

async function solvedTask(skillId: string) {
  const spec = library.get(skillId)?.spec;
  assert.ok(spec, `skill ${skillId} exists`);
  const proof = await proveLocally(spec, 5);
  assert.ok(proof.ok, `${skillId}: ${proof.ok ? '' : proof.detail}`);
  return { proof, solved: proof.task.solved };
}

async function rubricFails(files: FileMap, checks: { kind: string }[]): Promise<boolean> {
  for (const c of checks) if (!(await probeCheck(files, c)).pass) return true;
  return false;
}

const runs = { numRuns: 12 };

describe('random edits outside the edit region fail the rubric', () => {
  test('calc: any other cell changed', async () => {
    const { proof, solved } = await solvedTask('calc.formulas.sum-column');
    assert.ok(proof.ok);
    const inv = proof.checks.find((c) => c.kind === 'calc.unchanged') as unknown as {
      file: string;
      sheet: string;
      cells: Record<string, { v: unknown }>;
    };
    const kept = Object.keys(inv.cells);
    assert.ok(kept.length > 10);
    await fc.assert(
      fc.asyncProperty(fc.nat(kept.length - 1), fc.integer({ min: 1, max: 10_000 }), async (i, n) => {
        const cell = kept[i]!;
        const value =
          typeof inv.cells[cell]!.v === 'number' ? (inv.cells[cell]!.v as number) + n : `edited ${n}`;
        const files = await applyEdits(solved, [
          { op: 'calc.set_value', file: inv.file, sheet: inv.sheet, cell, value } as { op: string },
        ]);
        return rubricFails(files, proof.checks);
      }),
      runs,
    );
  });

  test('writer: any other paragraph realigned, reworded or deleted', async () => {
    const { proof, solved } = await solvedTask('writer.formatting.alignment');
    assert.ok(proof.ok);
    const inv = proof.checks.find((c) => c.kind === 'writer.unchanged') as unknown as {
      file: string;
      paragraphs: { text: string; align: string }[];
    };
    const kept = inv.paragraphs.filter((p) => p.text.length > 12);
    assert.ok(kept.length > 0);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(kept.length - 1),
        fc.constantFrom('align', 'reword', 'delete'),
        async (i, how) => {
          const p = kept[i]!;
          const edit =
            how === 'align'
              ? {
                  op: 'writer.set_alignment',
                  file: inv.file,
                  paragraph: p.text,
                  alignment: p.align === 'right' ? 'left' : 'right',
                }
              : how === 'reword'
                ? {
                    op: 'writer.replace_text',
                    file: inv.file,
                    find: p.text.slice(0, 12),
                    replace: 'Edited text ',
                  }
                : { op: 'writer.delete_paragraph', file: inv.file, paragraph: p.text };
          return rubricFails(await applyEdits(solved, [edit]), proof.checks);
        },
      ),
      runs,
    );
  });

  test('impress: any other slide retitled, rewritten, restyled or deleted', async () => {
    const { proof, solved } = await solvedTask('impress.titles.change-title');
    assert.ok(proof.ok);
    const inv = proof.checks.find((c) => c.kind === 'impress.unchanged') as unknown as {
      file: string;
      slides: { slide: number; title?: string }[];
    };
    const kept = inv.slides.filter((s) => s.title !== undefined && s.title !== '');
    assert.ok(kept.length > 1);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(kept.length - 1),
        fc.constantFrom('title', 'body', 'delete', 'font'),
        async (i, how) => {
          const s = kept[i]!;
          const edit =
            how === 'title'
              ? { op: 'impress.set_title', file: inv.file, slide: s.slide, text: `${s.title} (draft)` }
              : how === 'body'
                ? { op: 'impress.set_body', file: inv.file, slide: s.slide, bullets: ['A new point'] }
                : how === 'font'
                  ? {
                      op: 'impress.set_font',
                      file: inv.file,
                      slide: s.slide,
                      target: 'title',
                      italic: true,
                      color: '00AA00',
                    }
                  : { op: 'impress.delete_slide', file: inv.file, slide: s.slide };
          let files: FileMap;
          try {
            files = await applyEdits(solved, [edit]);
          } catch {
            return true; // a slide without a body placeholder cannot take bullets: nothing to test
          }
          return rubricFails(files, proof.checks);
        },
      ),
      runs,
    );
  });

  test('thunderbird: any other message marked unread, starred, tagged, moved or deleted', async () => {
    const { proof, solved } = await solvedTask('thunderbird.messages.flag-message');
    assert.ok(proof.ok);
    const inv = proof.checks.find((c) => c.kind === 'thunderbird.unchanged') as unknown as {
      messages: { id: string; folder: string; read: boolean; flagged: boolean }[];
    };
    const profile = new Profile(solved);
    const subjectOf = new Map<string, string>();
    for (const folder of profile.folders())
      for (const m of profile.messages(folder)) {
        const parsed = parseMessage(m.raw);
        subjectOf.set(parsed.messageId, parsed.subject);
      }
    const kept = inv.messages.filter((m) => subjectOf.has(m.id));
    assert.ok(kept.length > 2);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(kept.length - 1),
        fc.constantFrom('read', 'flag', 'tag', 'move', 'delete'),
        async (i, how) => {
          const m = kept[i]!;
          const sel = { folder: m.folder, subject: subjectOf.get(m.id)! };
          const edit =
            how === 'read'
              ? // Unread → read is what opening a message does (see the next test); read → unread is not.
                {
                  op: 'thunderbird.set_flag',
                  ...sel,
                  read: false,
                  ...(m.read ? {} : { flagged: !m.flagged }),
                }
              : how === 'flag'
                ? { op: 'thunderbird.set_flag', ...sel, flagged: !m.flagged }
                : how === 'tag'
                  ? { op: 'thunderbird.set_flag', ...sel, addTag: 'Later' }
                  : how === 'move'
                    ? { op: 'thunderbird.move_message', ...sel, to: 'Elsewhere' }
                    : { op: 'thunderbird.delete_message', ...sel };
          return rubricFails(await applyEdits(solved, [edit]), proof.checks);
        },
      ),
      runs,
    );
  });

  test('thunderbird: opening a message or three (unread → read) is not collateral, unless read state is the task', async () => {
    const opened = async (skillId: string, count = 1, mayOpen?: number) => {
      const { proof, solved } = await solvedTask(skillId);
      const inv = proof.checks.find((c) => c.kind === 'thunderbird.unchanged') as unknown as {
        messages: { folder: string; read: boolean }[];
      };
      const profile = new Profile(solved);
      const unread = inv.messages
        .filter((m) => !m.read)
        .flatMap((m) =>
          profile
            .messages(m.folder)
            .filter((x) => parseMessage(x.raw).messageId === (m as unknown as { id: string }).id)
            .map((x) => ({ folder: m.folder, subject: parseMessage(x.raw).subject })),
        );
      assert.ok(unread.length >= count, `${skillId} leaves ${count} messages unread`);
      const files = await applyEdits(
        solved,
        unread
          .slice(0, count)
          .map((m) => ({ op: 'thunderbird.set_flag', ...m, read: true }) as { op: string }),
      );
      // A lower allowance stands for a folder with more unread mail than an agent opens.
      const checks = proof.checks.map((c) =>
        c.kind === 'thunderbird.unchanged' && mayOpen !== undefined ? { ...c, readOnOpen: mayOpen } : c,
      );
      const check = checks.find((c) => c.kind === 'thunderbird.unchanged')!;
      // The portable checker the VM runs must agree.
      const work = await mkdtemp(path.join(tmpdir(), 'forge-opened-'));
      try {
        await materializeHome(path.join(work, 'home'), files);
        await writeFile(path.join(work, 'forge_check.py'), checkerSource().text);
        const verdicts = await runCheckerBatch(
          path.join(work, 'forge_check.py'),
          path.join(work, 'jobs.json'),
          [{ home: path.join(work, 'home'), checks: [check] }],
        );
        assert.equal(
          verdicts[0]![0]!.pass,
          (await probeCheck(files, check)).pass,
          `${skillId}: Python and TS agree`,
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
      return rubricFails(files, checks);
    };
    assert.ok(MAY_OPEN >= 1);
    assert.equal(
      await opened('thunderbird.messages.flag-message', 2, 1),
      true,
      'flagging: more messages read than the allowance is a bulk change',
    );
    assert.equal(
      await opened('thunderbird.messages.flag-message'),
      false,
      'flagging: reading another message is fine',
    );
    assert.equal(
      await opened('thunderbird.messages.mark-read-sender'),
      true,
      'marking read: another message read is wrong',
    );
  });

  test('os: any other file rewritten, re-moded or deleted', async () => {
    const { proof, solved } = await solvedTask('os.files.delete-matching');
    assert.ok(proof.ok);
    const inv = proof.checks.find((c) => c.kind === 'os.unchanged') as unknown as {
      entries: Record<string, { type: string; mode: string }>;
    };
    const files = Object.entries(inv.entries).filter(([, e]) => e.type === 'file');
    assert.ok(files.length > 1);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(files.length - 1),
        fc.constantFrom('write', 'chmod', 'delete'),
        async (i, how) => {
          const [path, entry] = files[i]!;
          const edit =
            how === 'write'
              ? { op: 'os.write_file', path, content: 'overwritten\n' }
              : how === 'chmod'
                ? { op: 'os.chmod', path, mode: entry.mode === '0600' ? '0644' : '0600' }
                : { op: 'os.delete', path };
          return rubricFails(await applyEdits(solved, [edit]), proof.checks);
        },
      ),
      runs,
    );
  });
});
