import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { applyOs } from '../../preparers/os/apply.ts';
import { preparers, probeCheck } from '../../preparers/registry.ts';
import { regexPool, regexTest, setRegexBudget } from '../../preparers/sandbox/regex.ts';
import { withSandboxScope } from '../../preparers/sandbox/workerPool.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Issue 31, item 2: ten backtracking regex checks in one task used to freeze the calling thread
 * (~88 s, heartbeats missed). They now run in a pool of workers: this thread keeps its timers, an
 * unrelated task's check answers while they run, and each of them fails with its budget.
 */
const BUDGET = { timeoutMs: 1000, heapMb: 64 };
setRegexBudget(BUDGET);
after(() => regexPool.close());

/** Ten different patterns, so each one is really run (a scope does not rerun a pattern that broke its budget). */
const RUNAWAY = Array.from({ length: 10 }, (_, i) => `^(a+)+${'b'.repeat(i)}$`);
const matches = (pattern: string) => ({
  kind: 'os.content_matches',
  path: 'notes/x.txt',
  pattern,
  flags: '',
});

describe('untrusted regexes run in a worker pool', () => {
  test('a burst of quick regexes runs on the kept workers alone, no extra one starts', async () => {
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, regexPool.workers);
    }, 1);
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => regexTest(`^line ${i % 7}\\b`, 'm', `x\nline ${i % 5} of 5\n`)),
      );
      assert.deepEqual(
        answers,
        Array.from({ length: 300 }, (_, i) => i % 7 === i % 5),
      );
    } finally {
      clearInterval(watch);
    }
    assert.ok(peak <= regexPool.shape.size, `${peak} workers for quick jobs (size ${regexPool.shape.size})`);
  });

  test('ten runaway checks fail with their budget while heartbeats tick and another task finishes', async () => {
    const files = await preparers.os.build('notes', {
      entries: [{ path: 'notes/x.txt', content: `${'a'.repeat(40)}!` }],
    });
    let last = performance.now();
    let maxGap = 0;
    let ticks = 0;
    const heartbeat = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 20);
    let badSettled = 0;
    let otherMs = 0;
    let peakWorkers = 0;
    const watch = setInterval(() => {
      peakWorkers = Math.max(peakWorkers, regexPool.workers);
    }, 10);
    try {
      // As activities/prepare probes a task's checks: all at once, in the task's scope.
      const bad = withSandboxScope(() =>
        Promise.all(
          RUNAWAY.map((p) =>
            probeCheck(files, matches(p)).finally(() => {
              badSettled++;
            }),
          ),
        ),
      );
      // Another task arrives once the runaway ones hold every worker.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const asked = performance.now();
      const other = await withSandboxScope(() => probeCheck(files, matches('^a+!$')));
      otherMs = performance.now() - asked;
      assert.deepEqual(other, { pass: true, observed: { content: `${'a'.repeat(40)}!` } });
      assert.equal(badSettled, 0, 'the other task answered while every runaway check was still running');

      const results = await bad;
      for (const [i, r] of results.entries()) {
        assert.equal(r.pass, false);
        const error = (r.observed as { error: string }).error;
        const source = RUNAWAY[i]!.replace(/[$()+^]/g, '\\$&');
        assert.match(
          error,
          new RegExp(
            `^regular expression /${source}/ exceeded its budget \\(1000 ms, 64 MB heap\\) twice and was stopped$`,
          ),
        );
      }
      // The same pattern again in the same task is not given another two budgets.
      const again = await withSandboxScope(async () => {
        await probeCheck(files, matches(RUNAWAY[0]!));
        return probeCheck(files, matches(RUNAWAY[0]!));
      });
      assert.match(
        (again.observed as { error: string }).error,
        /exceeded its budget \(1000 ms, 64 MB heap\) earlier in this task and was not run again/,
      );
    } finally {
      clearInterval(heartbeat);
      clearInterval(watch);
    }
    const { size, extra } = regexPool.shape;
    assert.ok(peakWorkers <= size + extra, `${peakWorkers} workers at most (size ${size} + ${extra} extra)`);
    assert.ok(ticks > 50, `${ticks} heartbeats`);
    console.log(
      `heartbeat: ${ticks} ticks, largest gap ${maxGap.toFixed(0)} ms; the other task's check took ${otherMs.toFixed(0)} ms; peak workers ${peakWorkers}`,
    );
    // The point of the pool: the event loop never waits on a regex. A regex run on this thread would
    // stall it for two budgets (2000 ms); the bound leaves room for a busy 2-core test machine.
    assert.ok(maxGap < 500, `largest heartbeat gap ${maxGap.toFixed(0)} ms`);
  });

  test('an oracle edit with a runaway regex fails its edit with the reason', async () => {
    const files = await preparers.os.build('notes', {
      entries: [{ path: 'notes/x.txt', content: `${'a'.repeat(40)}!` }],
    });
    await assert.rejects(
      applyOs(files, [
        {
          op: 'os.replace_in_file',
          path: 'notes/x.txt',
          find: '^(a|aa)+$',
          replace: 'z',
          regex: true,
          all: false,
        },
      ]),
      /edit 0 \(os\.replace_in_file\): regular expression \/\^\(a\|aa\)\+\$\/m exceeded its budget \(1000 ms, 64 MB heap\)/,
    );
    const ok = await applyOs(files, [
      {
        op: 'os.replace_in_file',
        path: 'notes/x.txt',
        find: 'a+!',
        replace: 'done',
        regex: true,
        all: false,
      },
    ]);
    assert.equal(Buffer.from(ok['notes/x.txt']!).toString('utf8'), 'done');
  });

  test('through the task core: a spec with ten backtracking checks is rejected while another task is prepared', async () => {
    const exemplar = loadSkillLibrary().get('os.files.backup-copy')!.spec;
    // The model's spec: the exemplar plus ten checks whose patterns backtrack on any line of text.
    const hostile: SkillSpec = structuredClone({ ...exemplar, id: `${exemplar.id}-regexes` });
    const first = hostile.rubric.checks.length;
    for (let i = 0; i < 10; i++)
      hostile.rubric.checks.push({
        kind: 'os.content_matches',
        path: '{{derived.dest}}',
        pattern: `^(.|.)*${'Z'.repeat(i + 1)}$`,
        flags: 's',
      });
    hostile.rubric.items.push({
      text: 'The copy reads as expected.',
      weight: 1,
      checks: Array.from({ length: 10 }, (_, i) => first + i),
    } as (typeof hostile.rubric.items)[number]);
    const llm = offlineCaller;
    const author = async (spec: SkillSpec, seed: number) => {
      const a = await authorTask(spec, seed, llm, { level: 'natural' });
      assert.ok(a.ok, JSON.stringify(a));
      return a.context;
    };
    const [hostileCtx, plainCtx] = await Promise.all([author(hostile, 11), author(exemplar, 12)]);

    let last = performance.now();
    let maxGap = 0;
    const heartbeat = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 20);
    let hostileDone = false;
    try {
      const rejected = prepareInMemory(hostile, 'expansion', hostileCtx).finally(() => {
        hostileDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const plain = await prepareInMemory(exemplar, 'file', plainCtx);
      assert.equal(plain.ok, true, JSON.stringify(plain.ok ? '' : plain));
      assert.equal(hostileDone, false, 'the unrelated task was prepared while the runaway one still ran');
      const r = await rejected;
      assert.equal(r.ok, false);
      if (!r.ok) {
        console.log(`rejected: ${r.reason} at ${r.node}: ${r.detail.slice(0, 300)}`);
        assert.match(
          r.detail,
          /regular expression \/\^\(\.\|\.\)\*Z+\$\/s exceeded its budget \(1000 ms, 64 MB heap\)/,
        );
      }
    } finally {
      clearInterval(heartbeat);
    }
    console.log(`task core: largest heartbeat gap ${maxGap.toFixed(0)} ms`);
    assert.ok(maxGap < 500, `largest heartbeat gap ${maxGap.toFixed(0)} ms`);
  });
});
