import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BoundedWorker, BudgetExceededError } from '../../preparers/sandbox/boundedWorker.ts';

const handler = new URL('../support/stallOnceHandler.mjs', import.meta.url);
const sandbox = new BoundedWorker(handler, { timeoutMs: 300, heapMb: 32 });
const dir = await mkdtemp(path.join(tmpdir(), 'forge-bounded-'));
after(async () => {
  sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

test('a job stalled once past its budget is run again on a fresh worker and answers', async () => {
  const answer = await sandbox.run(
    { marker: path.join(dir, 'once'), stallMs: 1_000, answer: 42 },
    'job once',
  );
  assert.equal(answer, 42);
  assert.equal(sandbox.timeouts, 1);
});

test('a job over budget on both runs is stopped with the reason', async () => {
  // The marker is a directory path that cannot be created, so every run stalls.
  const marker = path.join(dir, 'missing', 'never');
  await assert.rejects(
    sandbox.run({ marker, stallMs: 1_000, answer: 1 }, 'job always'),
    (err: Error) =>
      err instanceof BudgetExceededError &&
      /job always exceeded its budget \(300 ms, 32 MB heap\) twice/.test(err.message),
  );
});

test('run: queued jobs answer in order without blocking this thread; a runaway one fails alone', async () => {
  const queued = new BoundedWorker(handler, { timeoutMs: 300, heapMb: 32 });
  try {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const runaway = path.join(dir, 'missing', 'forever');
    const jobs = [
      queued.run({ marker: path.join(dir, 'a'), stallMs: 0, answer: 1 }, 'job a'),
      queued.run({ marker: runaway, stallMs: 1_000, answer: 2 }, 'job runaway'),
      queued.run({ marker: path.join(dir, 'b'), stallMs: 0, answer: 3 }, 'job b'),
    ];
    const settled = await Promise.allSettled(jobs);
    clearInterval(ticker);
    assert.deepEqual(
      settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).name)),
      [1, 'BudgetExceededError', 3],
    );
    assert.equal(queued.timeouts, 1, 'the runaway job had its second chance, the others none');
    // The runaway job held the worker for two budgets (≥ 600 ms); this thread kept running timers.
    assert.ok(ticks >= 20, `${ticks} timer ticks while the jobs ran`);
  } finally {
    queued.close();
  }
});
