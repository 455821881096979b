import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { base, en, Faker } from '@faker-js/faker';
import { z } from 'zod';
import { type OfflineHint, type OfflineHintRegistry, offlineHintHeader } from './hints.ts';
import { createRng, seedFrom } from './prng.ts';
import { fillSchema, type JsonSchema } from './schemaFill.ts';
import { countCompletionTokens, countPromptTokens } from './tokens.ts';

/**
 * The built-in offline model: a deterministic, seeded stand-in for an LLM behind the same
 * OpenAI-compatible HTTP interface, so the real client code path runs. It is labelled `offline`
 * everywhere and priced at $0; it is a development and test tool, not an LLM.
 */
export const offlineModelName = 'offline';

const contentPart = z.object({ type: z.string(), text: z.string().optional() });
const requestSchema = z.object({
  model: z.string().min(1),
  messages: z
    .array(
      z.object({
        role: z.string().min(1),
        content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
      }),
    )
    .min(1),
  seed: z.number().int().optional(),
  response_format: z
    .union([
      z.object({
        type: z.literal('json_schema'),
        json_schema: z.object({ name: z.string(), schema: z.record(z.string(), z.unknown()).optional() }),
      }),
      z.object({ type: z.enum(['json_object', 'text']) }),
    ])
    .optional(),
});
type ChatRequest = z.infer<typeof requestSchema>;

export interface OfflineModel {
  /** OpenAI-style base URL, ending in /v1. */
  baseURL: string;
  port: number;
  close(): Promise<void>;
}

export interface OfflineModelOptions {
  /** Where the LLM client registers per-request hints (same process). */
  hints?: OfflineHintRegistry;
  /** 0 = an ephemeral port (FORGE_OFFLINE_MODEL_PORT). */
  port?: number;
}

const maxBodyBytes = 8 * 1024 * 1024;

function textOf(content: ChatRequest['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((p) => p.text ?? '').join('');
}

/** The answer text for a request: deterministic for (seed, messages, schema, hint). */
export function answerFor(request: ChatRequest, hint: OfflineHint | undefined): string {
  const messages = request.messages.map((m) => ({ role: m.role, content: textOf(m.content) }));
  const seed = seedFrom(`${request.seed ?? 0}\n${JSON.stringify(messages.map((m) => [m.role, m.content]))}`);
  const rng = createRng(seed);
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  if (hint && 'value' in hint)
    return typeof hint.value === 'string' && request.response_format?.type !== 'json_schema'
      ? hint.value
      : JSON.stringify(hint.value);
  const format = request.response_format;
  if (format?.type === 'json_schema') {
    const schema: JsonSchema = format.json_schema.schema ?? { type: 'object', properties: {} };
    return JSON.stringify(
      fillSchema(schema, { rng, faker, fields: hint && 'fields' in hint ? hint.fields : undefined }),
    );
  }
  const text = () =>
    `${faker.word.words({ count: { min: 5, max: 12 } }).replace(/^./, (c) => c.toUpperCase())}.`;
  if (format?.type === 'json_object') return JSON.stringify({ answer: text() });
  return Array.from({ length: rng.int(1, 3) }, text).join(' ');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, requestId: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': requestId,
  });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, message: string, requestId: string): void {
  sendJson(
    res,
    status,
    { error: { message, type: 'invalid_request_error', param: null, code: null } },
    requestId,
  );
}

async function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  hints?: OfflineHintRegistry,
): Promise<void> {
  const requestId = `req_offline_${randomUUID().replaceAll('-', '')}`;
  const url = new URL(req.url ?? '/', 'http://offline');
  if (req.method === 'GET' && url.pathname === '/v1/models') {
    sendJson(
      res,
      200,
      {
        object: 'list',
        data: [{ id: offlineModelName, object: 'model', created: 0, owned_by: 'cua-forge' }],
      },
      requestId,
    );
    return;
  }
  if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
    sendError(res, 404, `offline model: no route ${req.method} ${url.pathname}`, requestId);
    return;
  }
  const raw = await readBody(req);
  if (raw === undefined) {
    sendError(res, 413, `request body larger than ${maxBodyBytes} bytes`, requestId);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    sendError(res, 400, 'request body is not JSON', requestId);
    return;
  }
  const parsed = requestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    sendError(res, 400, `invalid chat completion request: ${issues}`, requestId);
    return;
  }
  const hintId = req.headers[offlineHintHeader];
  const hint = typeof hintId === 'string' ? hints?.get(hintId) : undefined;
  const request = parsed.data;
  const content = answerFor(request, hint);
  const promptTokens = countPromptTokens(
    request.messages.map((m) => ({ role: m.role, content: textOf(m.content) })),
  );
  const completionTokens = countCompletionTokens(content);
  sendJson(
    res,
    200,
    {
      id: `chatcmpl-offline-${randomUUID().replaceAll('-', '')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: offlineModelName,
      system_fingerprint: 'forge-offline',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    },
    requestId,
  );
}

export async function startOfflineModel(options: OfflineModelOptions = {}): Promise<OfflineModel> {
  const server = http.createServer((req, res) => {
    handle(req, res, options.hints).catch((e: unknown) => {
      if (!res.headersSent)
        sendError(res, 500, `offline model failed: ${(e as Error).message}`, 'req_offline_error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
