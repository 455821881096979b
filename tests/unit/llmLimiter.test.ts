import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdaptiveLimiter, type Slot } from '../../llm/adaptiveLimiter.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('AdaptiveLimiter (AIMD)', () => {
  test('admits up to the limit and queues the rest in FIFO order', async () => {
    const l = new AdaptiveLimiter({ min: 1, max: 2 });
    const a = await l.acquire();
    const b = await l.acquire();
    const order: string[] = [];
    const c = l.acquire().then((s) => {
      order.push('c');
      return s;
    });
    const d = l.acquire().then((s) => {
      order.push('d');
      return s;
    });
    await tick();
    assert.equal(l.inFlight, 2);
    assert.equal(l.waiting, 2);
    a.release('other');
    await tick();
    assert.deepEqual(order, ['c']);
    b.release('other');
    await tick();
    assert.deepEqual(order, ['c', 'd']);
    (await c).release('other');
    (await d).release('other');
    assert.equal(l.inFlight, 0);
  });

  test('halves on a 429, never below min, and a burst from one window halves once', async () => {
    const l = new AdaptiveLimiter({ min: 3, max: 16 });
    assert.equal(l.limit, 16);
    const burst: Slot[] = [];
    for (let i = 0; i < 8; i++) burst.push(await l.acquire());
    for (const s of burst) s.release('rate_limited');
    assert.equal(l.limit, 8, 'eight 429s from calls in flight together count once');
    (await l.acquire()).release('rate_limited');
    assert.equal(l.limit, 4);
    (await l.acquire()).release('rate_limited');
    assert.equal(l.limit, 3, 'floored at min');
    (await l.acquire()).release('rate_limited');
    assert.equal(l.limit, 3);
  });

  test('grows by one after a run of successes as long as the limit, up to max', async () => {
    const l = new AdaptiveLimiter({ min: 1, max: 5, initial: 2 });
    (await l.acquire()).release('success');
    assert.equal(l.limit, 2);
    (await l.acquire()).release('success');
    assert.equal(l.limit, 3);
    for (let i = 0; i < 3; i++) (await l.acquire()).release('success');
    assert.equal(l.limit, 4);
    for (let i = 0; i < 40; i++) (await l.acquire()).release('success');
    assert.equal(l.limit, 5, 'capped at max');
  });

  test('a 429 resets the success run; other failures neither grow nor shrink', async () => {
    const l = new AdaptiveLimiter({ min: 1, max: 10, initial: 4 });
    for (let i = 0; i < 3; i++) (await l.acquire()).release('success');
    (await l.acquire()).release('rate_limited');
    assert.equal(l.limit, 2);
    (await l.acquire()).release('success');
    (await l.acquire()).release('other');
    assert.equal(l.limit, 2);
    (await l.acquire()).release('success');
    assert.equal(l.limit, 3);
  });

  test('a lower limit holds back waiters until enough slots are released; growth admits them', async () => {
    const l = new AdaptiveLimiter({ min: 1, max: 4 });
    const held = [await l.acquire(), await l.acquire(), await l.acquire(), await l.acquire()];
    let admitted = 0;
    const waiters = [l.acquire(), l.acquire()].map((p) =>
      p.then((s) => {
        admitted++;
        return s;
      }),
    );
    held[0].release('rate_limited'); // limit 4 → 2, in flight 3
    await tick();
    assert.equal(l.limit, 2);
    assert.equal(admitted, 0);
    held[1].release('other'); // in flight 2 = limit
    await tick();
    assert.equal(admitted, 0);
    held[2].release('other'); // in flight 1 → one waiter admitted
    await tick();
    assert.equal(admitted, 1);
    held[3].release('success');
    await tick();
    assert.equal(admitted, 2);
    for (const w of waiters) (await w).release('other');
  });

  test('releasing a slot twice counts once', async () => {
    const l = new AdaptiveLimiter({ min: 1, max: 2 });
    const s = await l.acquire();
    s.release('other');
    s.release('other');
    assert.equal(l.inFlight, 0);
  });

  test('rejects nonsense bounds', () => {
    assert.throws(() => new AdaptiveLimiter({ min: 0, max: 2 }), /min/);
    assert.throws(() => new AdaptiveLimiter({ min: 3, max: 2 }), /max/);
  });
});
