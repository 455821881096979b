import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  assertPriced,
  loadPriceTable,
  PriceError,
  parsePriceTable,
  priceAt,
  priceCall,
} from '../../llm/prices.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'forge-prices-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('price table', () => {
  const table = loadPriceTable({});

  test('the shipped table prices the real models it names, and offline at zero', () => {
    for (const model of [
      'gpt-4.1-mini',
      'gpt-4.1',
      'gpt-4o-mini',
      'gpt-5-mini',
      'claude-sonnet-4-5',
      'deepseek-chat',
    ]) {
      const p = priceAt(table, model, new Date('2025-11-15T00:00:00Z'));
      assert.ok(p.input > 0 && p.output > p.input && p.cachedInput < p.input, model);
    }
    const offline = priceCall(
      table,
      'offline',
      { promptTokens: 10_000, cachedTokens: 0, completionTokens: 5_000 },
      new Date(),
    );
    assert.equal(offline.usd, 0);
  });

  test('charges uncached input, cached input and output at their own rates', () => {
    // gpt-4.1-mini: $0.40 in, $0.10 cached, $1.60 out per million.
    const r = priceCall(
      table,
      'gpt-4.1-mini',
      { promptTokens: 1000, cachedTokens: 200, completionTokens: 500 },
      new Date('2025-06-01T00:00:00Z'),
    );
    assert.ok(Math.abs(r.usd - (800 * 0.4 + 200 * 0.1 + 500 * 1.6) / 1e6) < 1e-12);
    assert.equal(r.priceVersion, `${table.version}:gpt-4.1-mini@2025-04-14`);
  });

  test('picks the entry in effect on the call date', () => {
    const usage = { promptTokens: 1_000_000, cachedTokens: 0, completionTokens: 1_000_000 };
    const before = priceCall(table, 'deepseek-chat', usage, new Date('2025-09-28T23:59:59Z'));
    const afterCut = priceCall(table, 'deepseek-chat', usage, new Date('2025-09-29T00:00:00Z'));
    assert.ok(Math.abs(before.usd - (0.27 + 1.1)) < 1e-9);
    assert.ok(Math.abs(afterCut.usd - (0.28 + 0.42)) < 1e-9);
    assert.notEqual(before.priceVersion, afterCut.priceVersion);
    assert.throws(
      () => priceAt(table, 'deepseek-chat', new Date('2024-01-01T00:00:00Z')),
      /no price effective on 2024-01-01/,
    );
  });

  test('a dated snapshot name is priced as its model; an unknown model is refused by name', () => {
    assert.doesNotThrow(() => assertPriced(table, 'gpt-4.1-mini-2025-04-14'));
    assert.throws(
      () => assertPriced(table, 'my-private-model'),
      (e: Error) =>
        e instanceof PriceError && /my-private-model/.test(e.message) && /FORGE_PRICE_TABLE/.test(e.message),
    );
  });

  test('FORGE_PRICE_TABLE adds and replaces models and changes the version', () => {
    const file = path.join(dir, 'prices.yaml');
    writeFileSync(
      file,
      "version: 'acme-1'\nmodels:\n  my-private-model:\n    - { effective_date: '2025-01-01', input: 1, cached_input: 0.5, output: 2 }\n  gpt-4.1-mini:\n    - { effective_date: '2025-01-01', input: 0.2, cached_input: 0.05, output: 0.8 }\n",
    );
    const merged = loadPriceTable({ FORGE_PRICE_TABLE: file });
    assert.equal(merged.version, `${table.version}+acme-1`);
    const usage = { promptTokens: 1_000_000, cachedTokens: 0, completionTokens: 0 };
    assert.equal(priceCall(merged, 'my-private-model', usage, new Date('2025-06-01')).usd, 1);
    assert.equal(priceCall(merged, 'gpt-4.1-mini', usage, new Date('2025-06-01')).usd, 0.2);
    assert.equal(
      priceCall(merged, 'gpt-4.1', usage, new Date('2025-06-01')).usd,
      2,
      'untouched models keep their built-in price',
    );
  });

  test('a bad table is refused with the file and the path of the problem', () => {
    assert.throws(
      () =>
        parsePriceTable(
          "version: '1'\nmodels:\n  m:\n    - { effective_date: 'June', input: -1, cached_input: 0, output: 1 }\n",
          'bad.yaml',
        ),
      (e: Error) =>
        /bad\.yaml/.test(e.message) &&
        /models\.m\.0\.effective_date/.test(e.message) &&
        /models\.m\.0\.input/.test(e.message),
    );
    assert.throws(
      () => loadPriceTable({ FORGE_PRICE_TABLE: path.join(dir, 'missing.yaml') }),
      /cannot read price table/,
    );
  });
});
