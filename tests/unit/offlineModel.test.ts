import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { OfflineHintRegistry, offlineHintHeader } from '../../llm/offline/hints.ts';
import { type OfflineModel, offlineCall, startOfflineModel } from '../../llm/offline/server.ts';
import { structuredOutput } from '../../llm/types.ts';

const answerSchema = z.strictObject({
  file_name: z.string().regex(/^[a-z0-9_]{3,40}$/),
  columns: z.array(z.string()).min(2).max(5),
  instruction: z.string().min(10),
});
const out = structuredOutput('scenario', answerSchema);

type Ask = (
  seed: number,
  content: string,
  hintId?: string,
) => Promise<{ data: ChatCompletion; requestId: string | null }>;

// The same behaviour over both transports: HTTP on loopback (other processes), and `offlineCall`
// (the worker's own client calls its offline model directly).
for (const transport of ['http', 'in process'] as const)
  describe(`offline model server (${transport})`, () => {
    let model: OfflineModel;
    let client: OpenAI;
    let ask: Ask;
    const hints = new OfflineHintRegistry();
    const request = (seed: number, content: string) => ({
      model: 'offline',
      seed,
      messages: [
        { role: 'system' as const, content: 'You write spreadsheet tasks.' },
        { role: 'user' as const, content },
      ],
      response_format: {
        type: 'json_schema' as const,
        json_schema: { name: out.schemaName, schema: out.jsonSchema, strict: true },
      },
    });
    before(async () => {
      model = await startOfflineModel({ hints });
      client = new OpenAI({ baseURL: model.baseURL, apiKey: 'offline', maxRetries: 0 });
      const direct = offlineCall(hints);
      ask =
        transport === 'http'
          ? async (seed, content, hintId) => {
              const { data, response } = await client.chat.completions
                .create(request(seed, content), {
                  headers: hintId ? { [offlineHintHeader]: hintId } : undefined,
                })
                .withResponse();
              return { data, requestId: response.headers.get('x-request-id') };
            }
          : async (seed, content, hintId) => {
              const { completion, requestId } = direct(request(seed, content), hintId);
              return { data: completion, requestId };
            };
    });
    after(() => model.close());

    test('answers with a schema-valid JSON object, labelled offline, with a request id', async () => {
      const { data, requestId } = await ask(1, 'Invent a sales table.');
      assert.equal(data.model, 'offline');
      assert.equal(data.system_fingerprint, 'forge-offline');
      assert.equal(data.choices[0].finish_reason, 'stop');
      assert.match(requestId ?? '', /^req_offline_/);
      assert.ok(answerSchema.safeParse(JSON.parse(data.choices[0].message.content ?? '')).success);
    });

    test('usage is counted with a real tokenizer on the real prompt and answer', async () => {
      const short = (await ask(1, 'Hi.')).data;
      const long = (await ask(1, 'Invent a table. '.repeat(200))).data;
      assert.ok(short.usage && long.usage);
      assert.ok(short.usage.prompt_tokens > 10 && short.usage.completion_tokens > 5);
      assert.ok(
        long.usage.prompt_tokens >= short.usage.prompt_tokens + 600,
        'a 200× longer prompt costs hundreds more tokens',
      );
      assert.equal(short.usage.total_tokens, short.usage.prompt_tokens + short.usage.completion_tokens);
    });

    test('the other transport gives the same answer to the same request', async () => {
      const [a, b] = await Promise.all([
        ask(9, 'Invent a payroll table.'),
        transport === 'http'
          ? offlineCall(hints)(request(9, 'Invent a payroll table.')).completion
          : client.chat.completions.create(request(9, 'Invent a payroll table.')),
      ]);
      assert.equal(a.data.choices[0].message.content, b.choices[0].message.content);
      assert.deepEqual(a.data.usage, b.usage);
    });

    test('deterministic for a seed and prompt; another seed or prompt gives another answer', async () => {
      const a = (await ask(5, 'Invent a table.')).data.choices[0].message.content;
      const b = (await ask(5, 'Invent a table.')).data.choices[0].message.content;
      const c = (await ask(6, 'Invent a table.')).data.choices[0].message.content;
      const d = (await ask(5, 'Invent another table.')).data.choices[0].message.content;
      assert.equal(a, b);
      assert.notEqual(a, c);
      assert.notEqual(a, d);
    });

    test('a registered hint steers fields; a {value} hint is returned as is', async () => {
      const id = hints.register({
        fields: { file_name: ['payroll_2024'], 'columns.*': ['Name', 'Hours', 'Rate'] },
      });
      const v = answerSchema.parse(JSON.parse((await ask(3, 'x', id)).data.choices[0].message.content ?? ''));
      assert.equal(v.file_name, 'payroll_2024');
      assert.ok(v.columns.every((c) => ['Name', 'Hours', 'Rate'].includes(c)));
      hints.release(id);
      const whole = { file_name: 'fixed', columns: ['A', 'B'], instruction: 'Sum column B into B10.' };
      const id2 = hints.register({ value: whole });
      assert.deepEqual(JSON.parse((await ask(3, 'x', id2)).data.choices[0].message.content ?? ''), whole);
      hints.release(id2);
      assert.equal(hints.size, 0);
      assert.throws(() => hints.register({ fields: { a: [] } }), /offline hint/);
    });

    // Only HTTP has routes and request bodies to reject; in process the client's own request is passed.
    if (transport === 'http')
      test('lists its one model and rejects malformed requests with a 400', async () => {
        const models = await client.models.list();
        assert.deepEqual(
          models.data.map((m) => m.id),
          ['offline'],
        );
        await assert.rejects(
          client.chat.completions.create({ model: 'offline', messages: [] }),
          (e: Error & { status?: number }) => e.status === 400 && /messages/.test(e.message),
        );
      });
  });
