import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APIConnectionError, APIError } from 'openai';
import { backoffMs, classifyError, parseRetryAfter } from '../../llm/retryPolicy.ts';

const now = Date.parse('2025-06-01T12:00:00Z');

describe('Retry-After parsing', () => {
  test('seconds, fractional seconds and an HTTP date', () => {
    assert.equal(parseRetryAfter({ 'Retry-After': '7' }, now), 7000);
    assert.equal(parseRetryAfter({ 'retry-after': '0.25' }, now), 250);
    assert.equal(
      parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' }), now),
      30_000,
    );
  });

  test('retry-after-ms wins over retry-after', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now), 1500);
  });

  test('a past date waits zero; garbage and absence give undefined', () => {
    assert.equal(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }, now), 0);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({}, now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

describe('backoff', () => {
  test('grows exponentially, is capped, and jitter stays within [half, full]', () => {
    assert.equal(
      backoffMs(1, () => 0.999999, 500, 30_000),
      500,
    );
    assert.equal(
      backoffMs(1, () => 0, 500, 30_000),
      250,
    );
    assert.equal(
      backoffMs(4, () => 0.999999, 500, 30_000),
      4000,
    );
    assert.equal(
      backoffMs(20, () => 0.999999, 500, 30_000),
      30_000,
    );
    for (let r = 1; r < 10; r++) {
      const v = backoffMs(r, Math.random, 100, 5000);
      const exp = Math.min(5000, 100 * 2 ** (r - 1));
      assert.ok(v >= exp / 2 && v <= exp, `retry ${r}: ${v}`);
    }
  });
});

describe('error classification', () => {
  const err = (status: number, headers: Record<string, string> = {}) =>
    APIError.generate(
      status,
      { error: { message: `provider says ${status}` } },
      undefined,
      new Headers({ 'x-request-id': 'req_1', ...headers }),
    );

  test('429 is rate limited and carries Retry-After', () => {
    const f = classifyError(err(429, { 'retry-after': '3' }), now);
    assert.equal(f.kind, 'rate_limited');
    assert.equal(f.retryAfterMs, 3000);
  });

  test('5xx, 408 and connection failures are retried', () => {
    for (const s of [500, 502, 503, 408])
      assert.equal(classifyError(err(s), now).kind, 'retryable', String(s));
    assert.equal(
      classifyError(new APIConnectionError({ message: 'Connection error.' }), now).kind,
      'retryable',
    );
  });

  test('400/401/403/404 are final and name the status and the provider message', () => {
    for (const s of [400, 401, 403, 404]) {
      const f = classifyError(err(s), now);
      assert.equal(f.kind, 'fatal');
      assert.equal(f.status, s);
      assert.equal(f.message, `HTTP ${s}: provider says ${s}`);
      assert.equal(f.requestId, 'req_1');
    }
  });
});
