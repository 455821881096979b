import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { asc, eq, inArray } from 'drizzle-orm';
import { APIError } from 'openai';
import { z } from 'zod';
import { llmCache, llmCalls } from '../../infra/db/schema.ts';
import { createLlmClient, type LlmClient, type LlmClientDeps } from '../../llm/client.ts';
import { COMPLETION_CAP, COMPLETION_FLOOR, maxCompletionTokens } from '../../llm/completionBudget.ts';
import type { LlmEndpoint } from '../../llm/endpoints.ts';
import { createLedgerQueue } from '../../llm/ledgerQueue.ts';
import { OfflineHintRegistry } from '../../llm/offline/hints.ts';
import { startOfflineModel } from '../../llm/offline/server.ts';
import { openLlm } from '../../llm/openLlm.ts';
import { loadPriceTable, PriceError } from '../../llm/prices.ts';
import type { LlmProvider } from '../../llm/providers/provider.ts';
import { type LlmNodeRequest, structuredOutput } from '../../llm/types.ts';
import { reply, type ScriptedLlm, startScriptedLlm } from '../support/scriptedLlm.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

const scenario = z.strictObject({ title: z.string().min(3), rows: z.int().min(1).max(50) });
const out = structuredOutput('scenario', scenario);
const good = { title: 'Quarterly sales', rows: 12 };
// gpt-4.1-mini at the scripted server's default usage (1000 prompt of which 200 cached, 500 completion).
const usdPerCall = (800 * 0.4 + 200 * 0.1 + 500 * 1.6) / 1e6;
const run = randomUUID(); // keeps this run's requests out of earlier runs' cache entries
const prices = loadPriceTable({});

describe('LLM client against a scripted provider and real Postgres', () => {
  let svc: TestServices;
  let scripted: ScriptedLlm;
  let client: LlmClient;
  const sleeps: number[] = [];
  const taskIds: string[] = [];
  let endpoint: LlmEndpoint;
  const deps = (): LlmClientDeps => ({
    config: {
      ...svc.config,
      FORGE_LLM_MAX_ATTEMPTS: 4,
      FORGE_LLM_MAX_RETRY_SECONDS: 60,
      FORGE_LLM_MIN_CONCURRENCY: 1,
      FORGE_LLM_MAX_CONCURRENCY: 8,
    },
    database: svc.database,
    endpoints: { default: endpoint, judge: endpoint },
    prices,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });

  before(async () => {
    svc = await testServices();
    scripted = await startScriptedLlm();
    endpoint = {
      baseURL: scripted.baseURL,
      apiKey: 'sk-test',
      model: 'gpt-4.1-mini',
      provider: 'scripted',
      offline: false,
    };
    client = createLlmClient(deps());
  });
  after(async () => {
    const hashes = await svc.database.db
      .selectDistinct({ h: llmCalls.requestHash })
      .from(llmCalls)
      .where(inArray(llmCalls.taskId, taskIds));
    if (hashes.length > 0)
      await svc.database.db.delete(llmCache).where(
        inArray(
          llmCache.requestHash,
          hashes.map((r) => r.h),
        ),
      );
    await svc.database.db.delete(llmCalls).where(inArray(llmCalls.taskId, taskIds));
    await scripted.close();
    await closeTestServices();
  });

  const request = (label: string, taskId = randomUUID()): LlmNodeRequest<z.infer<typeof scenario>> => {
    taskIds.push(taskId);
    return {
      roundId: `test-${run}`,
      skillId: 'calc.test',
      taskId,
      nodeId: 'scenario',
      tier: 'default',
      messages: [
        { role: 'system', content: 'You invent spreadsheet scenarios.' },
        { role: 'user', content: `${label} ${run}` },
      ],
      seed: 7,
      ...out,
    };
  };
  const rows = (taskId: string | undefined) =>
    svc.database.db
      .select()
      .from(llmCalls)
      .where(eq(llmCalls.taskId, taskId as string))
      .orderBy(asc(llmCalls.attempt));

  test('a valid answer: one ledger row with tokens, USD and the request id; the request is strict structured output', async () => {
    const req = request('valid');
    const before = scripted.requests.length;
    scripted.enqueue(reply.valid(good));
    const r = await client.callLlmNode(req);
    assert.ok(r.ok);
    assert.deepEqual(r.value, good);
    assert.equal(r.cacheHit, false);
    const [row, ...rest] = await rows(req.taskId);
    assert.equal(rest.length, 0);
    assert.equal(row.outcome, 'ok');
    assert.equal(row.attempt, 1);
    assert.equal(row.promptTokens, 1000);
    assert.equal(row.cachedTokens, 200);
    assert.equal(row.completionTokens, 500);
    assert.equal(row.reasoningTokens, 100);
    assert.ok(Math.abs(row.usd - usdPerCall) < 1e-12);
    assert.ok(Math.abs(r.usage.usd - usdPerCall) < 1e-12);
    assert.equal(row.requestId, `req_scripted_${before + 1}`);
    assert.equal(row.cacheHit, false);
    assert.equal(row.provider, 'scripted');
    assert.equal(row.roundId, `test-${run}`);
    const sent = scripted.requests[before].body;
    assert.equal(sent.model, 'gpt-4.1-mini');
    assert.equal(sent.seed, 7);
    assert.equal(sent.response_format?.type, 'json_schema');
    assert.equal(sent.response_format?.json_schema?.strict, true);
    assert.equal(sent.response_format?.json_schema?.name, 'scenario');
    assert.equal(sent.max_completion_tokens, maxCompletionTokens(out.jsonSchema));
  });

  test("every call carries max_completion_tokens sized from its node's output schema", async () => {
    const long = structuredOutput(
      'report',
      z.strictObject({ paragraphs: z.array(z.string().max(1500)).max(12), title: z.string().max(80) }),
    );
    const base = request('completion-limit');
    const before = scripted.requests.length;
    scripted.enqueue(reply.valid(good), reply.valid({ paragraphs: ['A short note.'], title: 'Notes' }));
    assert.ok((await client.callLlmNode(base)).ok);
    assert.ok(
      (await client.callLlmNode({ ...request('completion-limit-long'), nodeId: 'report', ...long })).ok,
    );
    const [small, large] = scripted.requests.slice(before).map((r) => r.body.max_completion_tokens);
    assert.equal(small, COMPLETION_FLOOR, 'a title and a count need no more than the floor');
    assert.ok(large !== undefined && large > COMPLETION_FLOOR + (12 * 1500) / 2, `large budget ${large}`);
    assert.ok(large <= COMPLETION_CAP);
  });

  test('the identical request again is a cache hit at $0 with no provider call, in another task too', async () => {
    const first = request('cached');
    scripted.enqueue(reply.valid(good));
    assert.ok((await client.callLlmNode(first)).ok);
    const count = scripted.requests.length;
    const again = await client.callLlmNode(first); // the same task retried
    const other = await client.callLlmNode(request('cached')); // another task, same request
    assert.equal(scripted.requests.length, count, 'no provider call');
    for (const r of [again, other]) {
      assert.ok(r.ok);
      assert.equal(r.cacheHit, true);
      assert.deepEqual(r.value, good);
      assert.equal(r.usage.usd, 0);
    }
    const firstRows = await rows(first.taskId);
    assert.deepEqual(
      firstRows.map((x) => [x.attempt, x.cacheHit, x.usd > 0]),
      [
        [1, false, true],
        [2, true, false],
      ],
    );
    assert.equal(firstRows[1].promptTokens, 0);
  });

  test('invalid JSON is repaired by one call that quotes the error', async () => {
    const req = request('repair-json');
    const before = scripted.requests.length;
    scripted.enqueue(reply.invalidJson(), reply.valid(good));
    const r = await client.callLlmNode(req);
    assert.ok(r.ok);
    assert.deepEqual(r.value, good);
    const ledger = await rows(req.taskId);
    assert.deepEqual(
      ledger.map((x) => x.outcome),
      ['invalid_output', 'ok'],
    );
    assert.match(ledger[0].error ?? '', /not valid JSON/);
    assert.ok(Math.abs(r.usage.usd - 2 * usdPerCall) < 1e-12, 'both calls are paid for');
    const repair = scripted.requests[before + 1].body.messages ?? [];
    assert.equal(repair.length, 4);
    assert.equal(repair[2].role, 'assistant');
    assert.match(repair[2].content, /Quarterly rep|Quarterly report/);
    assert.equal(repair[3].role, 'user');
    assert.match(repair[3].content, /not valid JSON/);
    // The repaired answer is cached under the original request.
    const hit = await client.callLlmNode(request('repair-json'));
    assert.ok(hit.ok && hit.cacheHit);
  });

  test('a schema violation twice is rejected as llm_invalid_output and nothing is cached', async () => {
    const req = request('violation');
    scripted.enqueue(
      reply.schemaViolation({ title: 'x', rows: 500 }),
      reply.schemaViolation({ title: 'Report', rows: 0 }),
    );
    const r = await client.callLlmNode(req);
    assert.ok(!r.ok);
    assert.equal(r.reason, 'llm_invalid_output');
    assert.match(r.detail, /still invalid after one repair/);
    assert.match(r.detail, /rows/);
    const ledger = await rows(req.taskId);
    assert.deepEqual(
      ledger.map((x) => x.outcome),
      ['invalid_output', 'invalid_output'],
    );
    assert.match(scripted.requests.at(-1)?.body.messages?.at(-1)?.content ?? '', /schema violation: .*title/);
    const count = scripted.requests.length;
    scripted.enqueue(reply.valid(good));
    const retry = await client.callLlmNode(request('violation'));
    assert.ok(retry.ok && !retry.cacheHit);
    assert.equal(scripted.requests.length, count + 1, 'a rejected answer was not cached');
  });

  for (const [name, make, outcome, pattern] of [
    ['empty content', reply.empty, 'invalid_output', /empty answer/],
    ['a truncated answer', reply.truncated, 'truncated', /finish_reason length after 500/],
    ['a content-filtered answer', reply.contentFilter, 'filtered', /content_filter/],
  ] as const) {
    test(`${name} is a failed answer, not repaired`, async () => {
      const req = request(name);
      const count = scripted.requests.length;
      scripted.enqueue(make());
      const r = await client.callLlmNode(req);
      assert.ok(!r.ok);
      assert.equal(r.reason, 'llm_invalid_output');
      assert.match(r.detail, pattern);
      assert.equal(scripted.requests.length, count + 1);
      const ledger = await rows(req.taskId);
      assert.deepEqual(
        ledger.map((x) => x.outcome),
        [outcome],
      );
      assert.ok(ledger[0].usd > 0, 'a failed answer is still paid for');
    });
  }

  test('429 with Retry-After, a 500 and a dropped connection are retried; waits honour Retry-After', async () => {
    const req = request('retry');
    sleeps.length = 0;
    const limitBefore = client.limiterFor('default').limit;
    scripted.enqueue(reply.rateLimited('2'), reply.serverError(503), reply.disconnect(), reply.valid(good));
    const r = await client.callLlmNode(req);
    assert.ok(r.ok);
    const ledger = await rows(req.taskId);
    assert.deepEqual(
      ledger.map((x) => [x.attempt, x.outcome]),
      [
        [1, 'http_error'],
        [2, 'http_error'],
        [3, 'http_error'],
        [4, 'ok'],
      ],
    );
    assert.match(ledger[0].error ?? '', /^HTTP 429: Rate limit reached/);
    assert.match(ledger[1].error ?? '', /^HTTP 503/);
    assert.deepEqual(
      ledger.map((x) => x.usd > 0),
      [false, false, false, true],
    );
    assert.deepEqual(
      sleeps,
      [2000, 750, 1500],
      'Retry-After 2s, then backoff 1s and 2s, each scaled by the jitter (0.75)',
    );
    assert.ok(client.limiterFor('default').limit < limitBefore, 'the 429 lowered the concurrency limit');
  });

  test('retry-after-ms is honoured', async () => {
    sleeps.length = 0;
    scripted.enqueue(reply.rateLimited(undefined, { 'retry-after-ms': '1234' }), reply.valid(good));
    assert.ok((await client.callLlmNode(request('retry-ms'))).ok);
    assert.deepEqual(sleeps, [1234]);
  });

  test('401 is reported with the status and the provider message, not retried', async () => {
    const req = request('unauthorized');
    const count = scripted.requests.length;
    scripted.enqueue(reply.unauthorized());
    const r = await client.callLlmNode(req);
    assert.ok(!r.ok);
    assert.equal(r.reason, 'llm_error');
    assert.match(r.detail, /HTTP 401: Incorrect API key provided/);
    assert.equal(scripted.requests.length, count + 1);
    assert.deepEqual(
      (await rows(req.taskId)).map((x) => x.outcome),
      ['http_error'],
    );
  });

  test('persistent 500s stop at FORGE_LLM_MAX_ATTEMPTS; a retried activity continues the attempt numbers', async () => {
    const req = request('down');
    scripted.enqueue(...Array.from({ length: 4 }, () => reply.serverError()));
    const r = await client.callLlmNode(req);
    assert.ok(!r.ok);
    assert.equal(r.reason, 'llm_error');
    assert.match(r.detail, /gave up after 4 attempts/);
    assert.equal(r.attempts, 4);
    scripted.enqueue(reply.valid(good));
    const again = await client.callLlmNode(req);
    assert.ok(again.ok);
    assert.deepEqual(
      (await rows(req.taskId)).map((x) => x.attempt),
      [1, 2, 3, 4, 5],
    );
  });

  test('a Retry-After beyond the retry time budget gives up at once', async () => {
    const req = request('budget');
    scripted.enqueue(reply.rateLimited('3600'));
    const r = await client.callLlmNode(req);
    assert.ok(!r.ok);
    assert.match(r.detail, /retry time budget of 60s exhausted/);
    assert.equal((await rows(req.taskId)).length, 1);
  });

  test('ledger statements of concurrent calls go together: idempotent rows, one cache entry per hash, reads in order', async () => {
    const ledger = createLedgerQueue(svc.database);
    const taskId = randomUUID();
    taskIds.push(taskId);
    const [h1, h2] = [`h-${randomUUID()}`, `h-${randomUUID()}`];
    const row = (attempt: number, requestHash: string) => ({
      taskId,
      nodeId: 'n',
      attempt,
      provider: 'p',
      model: 'm',
      requestHash,
      priceVersion: 'v',
      latencyMs: 1,
      outcome: 'ok',
    });
    const answer = (value: unknown, requestId: string | null) => ({
      value,
      content: JSON.stringify(value),
      requestId,
    });
    // Statements sent to Postgres while the ledger works (counted at the pool, the real server answers).
    let statements = 0;
    const query = svc.database.pool.query.bind(svc.database.pool);
    svc.database.pool.query = ((...args: Parameters<typeof query>) => {
      statements++;
      return query(...args);
    }) as typeof query;
    try {
      await Promise.all([
        ledger.record(row(1, h1)),
        ledger.record(row(1, h1)), // the same row twice: written once
        ledger.record(row(2, h1), { requestHash: h1, model: 'm', answer: answer(1, null) }),
        ledger.record(row(1, h2), { requestHash: h2, model: 'm', answer: answer('a', 'r') }),
        ledger.record(row(3, h1), { requestHash: h1, model: 'm', answer: answer(2, null) }),
      ]);
      const [a, b, c] = await Promise.all([
        ledger.attemptAndCache({ taskId, nodeId: 'n', requestHash: h1 }),
        ledger.attemptAndCache({ taskId, nodeId: 'n', requestHash: h2 }),
        ledger.attemptAndCache({ taskId, nodeId: 'other', requestHash: h1 }),
      ]);
      assert.equal(statements, 2, 'five writes in one statement, three reads in another');
      assert.equal((await rows(taskId)).length, 4);
      assert.equal(a.next, 4);
      assert.deepEqual(a.cached, answer(2, null), 'the later answer of a hash is the one kept');
      assert.equal(b.next, 2);
      assert.deepEqual(b.cached, answer('a', 'r'));
      assert.equal(c.next, 1, 'attempts count per node; the cache is shared by request');
      assert.deepEqual(c.cached, answer(2, null));
    } finally {
      svc.database.pool.query = query;
    }
  });

  test('another provider plugs in through providerFor: the client still caches, ledgers and retries its calls', async () => {
    const sent: { model: string; signal: boolean }[] = [];
    let failures = 1;
    const other: LlmProvider = {
      async complete(params, { signal }) {
        sent.push({ model: params.model, signal: signal !== undefined });
        if (failures-- > 0)
          throw APIError.generate(503, { error: { message: 'overloaded' } }, 'overloaded', new Headers());
        return {
          requestId: 'req_other_1',
          completion: {
            id: 'cmpl_other',
            object: 'chat.completion',
            created: 0,
            model: params.model,
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                logprobs: null,
                message: { role: 'assistant', content: JSON.stringify(good), refusal: null },
              },
            ],
            usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
          },
        };
      },
    };
    const c = createLlmClient({ ...deps(), providerFor: (e) => (e === endpoint ? other : undefined) });
    const before = scripted.requests.length;
    const req = request('another provider');
    const r = await c.callLlmNode(req);
    assert.ok(r.ok);
    assert.deepEqual(r.value, good);
    assert.equal(scripted.requests.length, before, 'the OpenAI-compatible endpoint was not called');
    assert.deepEqual(
      sent.map((s) => s.model),
      ['gpt-4.1-mini', 'gpt-4.1-mini'],
    );
    const ledger = await rows(req.taskId);
    assert.deepEqual(
      ledger.map((row) => row.outcome),
      ['http_error', 'ok'],
    );
    assert.equal(ledger[1]!.requestId, 'req_other_1');
    assert.equal(ledger[1]!.promptTokens, 1000);
    // The same request again is the client's cache hit: the provider is not called.
    const again = await c.callLlmNode({ ...req });
    assert.ok(again.ok && again.cacheHit);
    assert.equal(sent.length, 2);
  });

  test('a model without a price is refused at startup', () => {
    assert.throws(
      () =>
        createLlmClient({
          ...deps(),
          endpoints: { default: endpoint, judge: { ...endpoint, model: 'mystery-model' } },
        }),
      (e: Error) => e instanceof PriceError && /mystery-model/.test(e.message),
    );
  });

  test('the offline model end to end: hint honoured, real token counts, $0, labelled offline', async () => {
    const hints = new OfflineHintRegistry();
    const offline = await startOfflineModel({ hints });
    try {
      const off: LlmEndpoint = {
        baseURL: offline.baseURL,
        apiKey: 'offline',
        model: 'offline',
        provider: 'offline',
        offline: true,
      };
      const c = createLlmClient({ ...deps(), endpoints: { default: off, judge: off }, hints });
      const req = { ...request('offline'), offlineHint: { fields: { title: ['Donations by month'] } } };
      const r = await c.callLlmNode(req);
      assert.ok(r.ok);
      assert.equal(r.value.title, 'Donations by month');
      assert.equal(hints.size, 0, 'the hint is released after the call');
      const [row] = await rows(req.taskId);
      assert.equal(row.provider, 'offline');
      assert.equal(row.model, 'offline');
      assert.equal(row.usd, 0);
      assert.ok(row.promptTokens > 10 && row.completionTokens > 5);
      assert.match(row.requestId ?? '', /^req_offline_/);
      assert.match(row.priceVersion, /:offline@/);
    } finally {
      await offline.close();
    }
  });

  test('openLlm with no API key serves the offline model in-process and closes it', async () => {
    const llm = await openLlm({
      config: { ...svc.config, llmApiKey: undefined, FORGE_OFFLINE_MODEL_PORT: 0 },
      database: svc.database,
    });
    try {
      assert.ok(llm.offline);
      const r = await llm.client.callLlmNode({
        ...request('openLlm'),
        tier: 'judge',
        offlineHint: { value: good },
      });
      assert.ok(r.ok);
      assert.deepEqual(r.value, good);
      assert.equal(r.provider, 'offline');
    } finally {
      await llm.close();
    }
    await assert.rejects(fetch(`${llm.offline.baseURL}/models`));
  });
});
