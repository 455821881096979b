/**
 * The VS Code round trip. VS Code itself cannot be installed here (preparers/vscode/README.md), so
 * the states are written the way VS Code and a person write them: jsonc-parser's `format`/`modify` +
 * `applyEdits` (what VS Code's settings editor and JSON formatter run) with tab and four-space
 * indentation, a comment a person adds, a trailing comma VS Code tolerates, another key order. For
 * every feasible VS Code skill of the library, the oracle's state so rewritten must pass every
 * check (declared and "nothing else changed") in the TypeScript probes and in the shipped Python
 * checker alike, with the same observed values; a broken file must fail in both; and the tests a
 * workspace carries really run (python3 -m unittest, a count of tests above zero).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { applyEdits as applyTextEdits, format, modify } from 'jsonc-parser';
import { CheckerRunner } from '../../preparers/checker/runner.ts';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { parseJsonc } from '../../preparers/vscode/jsonc.ts';
import { isSettingsFile, USER_KEYBINDINGS } from '../../preparers/vscode/paths.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { offlineTask } from '../support/offlineTasks.ts';

const runner = new CheckerRunner();
const work = mkdtempSync(join(tmpdir(), 'forge-vscode-'));
after(async () => {
  await runner.close();
  rmSync(work, { recursive: true, force: true });
});

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const str = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const isJsonc = (p: string) => isSettingsFile(p) || p === USER_KEYBINDINGS;

/** VS Code's "Format Document" on a JSONC file with the editor set to tabs (comments kept). */
function formattedWithTabs(text: string): string {
  return applyTextEdits(text, format(text, undefined, { insertSpaces: false, tabSize: 4, eol: '\n' }));
}

/** A person's note after the opening bracket and a trailing comma before the closing one. */
function handEdited(text: string): string {
  const noted = text.replace(/^(\s*(?:\/\/[^\n]*\n)*\s*[[{])/, '$1\n    // reviewed by hand');
  return noted.replace(/(["\d\]}el])(\s*)([\]}])\s*$/, '$1,$2$3\n');
}

/** Every top-level settings key removed and put back in reverse order, as jsonc-parser's modify does it. */
function reordered(text: string): string {
  const value = parseJsonc(text, {});
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text;
  const keys = Object.keys(value);
  let out = text;
  const opts = { formattingOptions: { insertSpaces: true, tabSize: 4, eol: '\n' } };
  for (const k of keys) out = applyTextEdits(out, modify(out, [k], undefined, opts));
  for (const k of [...keys].reverse())
    out = applyTextEdits(out, modify(out, [k], (value as Record<string, unknown>)[k], opts));
  return out;
}

function rewrite(files: FileMap, how: (text: string) => string): FileMap {
  return Object.fromEntries(
    Object.entries(files).map(([p, b]) => [p, isJsonc(p) && str(b).trim() !== '' ? utf8(how(str(b))) : b]),
  );
}

let seq = 0;
async function grade(files: FileMap, checks: { kind: string }[]) {
  const home = join(work, `home-${seq++}`);
  await materializeHome(home, files);
  const ours = await Promise.all(checks.map((c) => probeCheck(files, c)));
  const python = (await runner.run({ home, checks })) as { pass: boolean; observed: unknown }[];
  const disagree = checks.flatMap((c, i) =>
    ours[i]!.pass === python[i]!.pass && jsonEqual(ours[i]!.observed, python[i]!.observed)
      ? []
      : [`${c.kind}: probe ${JSON.stringify(ours[i])} / checker ${JSON.stringify(python[i])}`],
  );
  return { ours, python, disagree };
}

const library = loadSkillLibrary();
const specs = [...library.values()]
  .map((l) => l.spec)
  .filter((s) => s.apps.length === 1 && s.apps[0] === 'vscode' && s.expected !== 'infeasible');

describe('VS Code states written as VS Code writes them', () => {
  test('the library has VS Code skills to play', () =>
    assert.ok(specs.length >= 10, `${specs.length} skills`));

  for (const spec of specs)
    test(`${spec.id}: the oracle, reformatted, commented and reordered, passes in the probes and the checker alike`, {
      timeout: 240_000,
    }, async () => {
      const task = await offlineTask(spec);
      const checks = [...task.checks, ...task.invariants];
      const jsonc = Object.keys(task.solved).filter(isJsonc);
      assert.ok(jsonc.length > 0, 'the task has a settings or keybindings file');
      const initial = await grade(task.initial, checks);
      assert.deepEqual(initial.disagree, [], 'the initial state is graded alike');
      assert.ok(
        initial.ours.some((r) => !r.pass),
        'the initial state fails',
      );
      for (const [name, how] of [
        ['as built', (t: string) => t],
        ['formatted with tabs', formattedWithTabs],
        ['edited by hand', handEdited],
        ['keys reordered', reordered],
      ] as const) {
        const files = rewrite(task.solved, how);
        if (name === 'edited by hand') {
          assert.ok(
            jsonc.some((p) => /reviewed by hand/.test(str(files[p]!))),
            'the note was added',
          );
          assert.ok(
            jsonc.some((p) => /,\s*[\]}]\s*$/.test(str(files[p]!))),
            'a trailing comma was left',
          );
        }
        if (name === 'formatted with tabs')
          assert.ok(
            jsonc.some((p) => /\n\t"/.test(str(files[p]!))),
            'the file is indented with tabs',
          );
        const { ours, disagree } = await grade(files, checks);
        assert.deepEqual(disagree, [], `${name}: probes and checker agree`);
        const failing = checks.flatMap((c, i) =>
          ours[i]!.pass ? [] : [`${c.kind} ${JSON.stringify(ours[i]!.observed)}`],
        );
        assert.deepEqual(failing, [], `${name}: every check passes`);
      }
      for (const w of task.wrong) {
        const { ours, disagree } = await grade(w.files, checks);
        assert.deepEqual(disagree, [], `wrong ${w.name}: probes and checker agree`);
        assert.ok(
          ours.some((r) => !r.pass),
          `wrong ${w.name} fails`,
        );
      }
    });

  test('a settings file with a syntax error fails in both, with the same reason', async () => {
    const spec = specs.find((s) => s.id === 'vscode.settings.editor-setting')!;
    const task = await offlineTask(spec);
    const path = Object.keys(task.solved).find((p) => p.endsWith('User/settings.json'))!;
    const broken = { ...task.solved, [path]: utf8(str(task.solved[path]!).replace(/,\n/, '\n')) };
    const { ours, disagree } = await grade(broken, task.checks);
    assert.deepEqual(disagree, []);
    assert.equal(ours[0]!.pass, false);
    assert.match(JSON.stringify(ours[0]!.observed), /not valid JSON with comments/);
  });

  test("a workspace's tests really run, in the probe and in the checker", async () => {
    const spec = specs.find((s) => s.id === 'vscode.code.fix-failing-test')!;
    const task = await offlineTask(spec);
    const check = task.checks.find((c) => c.kind === 'vscode.tests_pass')!;
    const solved = await grade(task.solved, [check]);
    assert.deepEqual(solved.disagree, []);
    assert.equal(solved.ours[0]!.pass, true);
    assert.ok((solved.python[0]!.observed as { ran: number }).ran >= 2, 'the suite ran its tests');
    const initial = await grade(task.initial, [check]);
    assert.deepEqual(initial.disagree, []);
    assert.equal(initial.python[0]!.pass, false);
  });
});
