import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { DryRunResult } from '../../app/rounds/dryRun.ts';
import { forgeHome } from '../../infra/paths.ts';
import type { RubricStats } from '../../taskcore/verify/rubricProof.ts';
import { addToyApp, copyRepository, git, REGISTRATION_FILES, TOY_FOLDERS } from '../support/toyAppCopy.ts';

/**
 * "An application is one folder": a toy app, `notes` (a note is ~/Notes/<name>.txt, edited a line
 * at a time; tests/fixtures/notesApp/), is added to a copy of the repository exactly as
 * docs/adding-an-app.md says — its folders `preparers/notes/` and `skills/notes/`, its id in APPS and
 * one import and entry in preparers/registry.ts — and then type-checks, and its skill's tasks are
 * accepted by the real task core at every instruction level, with the export gate grading the
 * shipped checker against the probes. Nothing else in the copy changes.
 */
const SKILL = 'skills/notes/notes.lines.fix-and-add.yaml';
const DECLARED_WRONG = ['added-only', 'fix-appended', 'first-line-overwritten'];
const KINDS = ['notes.has_line', 'notes.line_count', 'notes.lines_kept'];

const run = promisify(execFile);

interface TryOutput {
  namespace: string | null;
  result: DryRunResult;
  stats: Record<string, RubricStats | null>;
  kinds: { declared: string[]; checker: string[] };
}

describe('a toy application added as one folder plus its registration', () => {
  let copy: { dir: string; remove(): void };
  let tried: TryOutput;

  /** The skill file's tasks through the in-process runner of `forge skills try`, inside the copy. */
  async function tryInCopy(tasks: number): Promise<TryOutput> {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'tests/support/toyAppTry.ts', SKILL, String(tasks), '7'],
      {
        cwd: copy.dir,
        // The stack's credentials live under this checkout's home; FORGE_NAMESPACE (the test runner's) is inherited.
        env: { ...process.env, FORGE_HOME: forgeHome() },
        maxBuffer: 64 << 20,
        timeout: 300_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as TryOutput;
    // The run must land in the test runner's namespace, never in the user's.
    assert.equal(out.namespace, process.env.FORGE_NAMESPACE ?? null);
    return out;
  }

  /** Paths `git status` reports changed in the copy since its baseline. */
  function changedPaths(): string[] {
    return git(copy.dir, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
  }

  before(() => {
    copy = copyRepository();
    addToyApp(copy.dir);
  });
  after(() => copy?.remove());

  test('only the two folders and the two registration lines change', () => {
    const changed = changedPaths();
    const outside = changed.filter(
      (p) => !TOY_FOLDERS.some((f) => p.startsWith(f)) && !REGISTRATION_FILES.includes(p),
    );
    assert.deepEqual(outside, []);
    assert.ok(changed.includes('preparers/notes/index.ts') && changed.includes('preparers/notes/checker.py'));
    const numstat = git(copy.dir, 'diff', '--numstat')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(numstat.map(([added, removed, file]) => [file, Number(added), Number(removed)]).sort(), [
      ['preparers/registry.ts', 2, 0],
      ['preparers/types.ts', 1, 0],
    ]);
  });

  test("the app's folder type-checks against the real contract, with notes one of APPS", async () => {
    // The app's own files and what they import (the whole-project check is `make test`'s).
    const config = path.join(copy.dir, 'tsconfig.toy.json');
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: ['preparers/notes'] }));
    try {
      await run(path.join(copy.dir, 'node_modules/.bin/tsc'), ['--noEmit', '-p', config], {
        cwd: copy.dir,
        timeout: 300_000,
      });
    } catch (err) {
      assert.fail(`tsc: ${(err as { stdout?: string }).stdout ?? err}`);
    }
  });

  test("the skill's tasks are accepted at every level, by the real task core offline", async () => {
    tried = await tryInCopy(3);
    const { result, stats } = tried;
    assert.equal(result.skillId, 'notes.lines.fix-and-add');
    for (const t of result.tasks)
      assert.equal(t.outcome, 'accepted', `${t.level}: ${t.reason} at ${t.node}: ${t.detail}`);
    assert.deepEqual(result.tasks.map((t) => t.level).sort(), ['explicit', 'goal', 'natural']);
    for (const t of result.tasks) {
      assert.match(t.instruction ?? '', /~\/Notes\/[a-z]+\.txt/);
      // The rubric proof: the untouched state fails, every declared wrong solution fails, delete-target too.
      const wrong = new Map(t.wrong.map((w) => [w.name, w]));
      assert.equal(wrong.get('no-op')?.killed, true, 'the initial state fails the rubric');
      for (const name of [...DECLARED_WRONG, 'delete-target'])
        assert.equal(wrong.get(name)?.killed, true, `${t.level}: wrong solution ${name} must fail`);
      // The invariants the app derives catch the line overwritten next to the right one.
      assert.ok(wrong.get('first-line-overwritten')!.failing.includes('notes.lines_kept'));
      // The adversary's near misses all fail, the app's own (the neighbouring line) by an invariant.
      assert.equal(t.mutants?.survivors.length, 0);
      assert.ok((t.mutants?.discriminating ?? 0) >= 1, JSON.stringify(t.mutants));
      // The export gate graded the shipped form: initial, oracle and every wrong solution at least.
      const s = stats[t.taskId];
      assert.ok((s?.exportStates ?? 0) >= 2 + DECLARED_WRONG.length, JSON.stringify(s));
      assert.ok((s?.invariantChecks ?? 0) >= 1);
    }
  });

  test('the shipped checker knows every check kind the app declares', () => {
    const { declared, checker } = tried.kinds;
    for (const kind of KINDS) assert.ok(declared.includes(kind), `${kind} declared`);
    assert.deepEqual(
      declared.filter((k) => !checker.includes(k)),
      [],
    );
  });

  test('running the task core changed nothing outside the app', () => {
    const outside = changedPaths().filter(
      (p) =>
        !TOY_FOLDERS.some((f) => p.startsWith(f)) &&
        !REGISTRATION_FILES.includes(p) &&
        p !== 'tsconfig.toy.json',
    );
    assert.deepEqual(outside, []);
  });

  test('a checker part that grades unlike the probe is caught by the export gate', async () => {
    // A more lenient line count in the Python part only: the probes still agree with the rubric,
    // so only the gate's comparison of the shipped checker with the probes can reject the task.
    const part = path.join(copy.dir, 'preparers/notes/checker.py');
    const text = readFileSync(part, 'utf8');
    const lenient = text.replace("return len(lines) == c['count']", "return len(lines) >= c['count']");
    assert.notEqual(lenient, text);
    writeFileSync(part, lenient);
    try {
      const { result } = await tryInCopy(1);
      const [t] = result.tasks;
      assert.equal(t?.outcome, 'rejected');
      assert.equal(t?.reason, 'export_mismatch', `${t?.reason} at ${t?.node}: ${t?.detail}`);
      assert.match(t?.detail ?? '', /notes\.line_count/);
    } finally {
      writeFileSync(part, text);
    }
  });
});
