import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { base, en, Faker } from '@faker-js/faker';
import type { ChatCompletion } from 'openai/resources/chat/completions';
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

/** One request to the offline model, whatever carried it (HTTP on loopback or a call in process). */
interface OfflineExchange {
  method: string;
  pathname: string;
  hintId: string | undefined;
  /** The body as text; undefined when it was larger than the model accepts. */
  body: string | undefined;
}

interface OfflineReply {
  status: number;
  body: unknown;
  requestId: string;
}

const errorReply = (status: number, message: string, requestId: string): OfflineReply => ({
  status,
  body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
  requestId,
});

/** The offline model's answer to one request: the same for both transports. */
function respond(x: OfflineExchange, hints?: OfflineHintRegistry): OfflineReply {
  const requestId = `req_offline_${randomUUID().replaceAll('-', '')}`;
  if (x.method === 'GET' && x.pathname === '/v1/models') {
    return {
      status: 200,
      body: {
        object: 'list',
        data: [{ id: offlineModelName, object: 'model', created: 0, owned_by: 'cua-forge' }],
      },
      requestId,
    };
  }
  if (x.method !== 'POST' || x.pathname !== '/v1/chat/completions')
    return errorReply(404, `offline model: no route ${x.method} ${x.pathname}`, requestId);
  if (x.body === undefined)
    return errorReply(413, `request body larger than ${maxBodyBytes} bytes`, requestId);
  let json: unknown;
  try {
    json = JSON.parse(x.body);
  } catch {
    return errorReply(400, 'request body is not JSON', requestId);
  }
  const parsed = requestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    return errorReply(400, `invalid chat completion request: ${issues}`, requestId);
  }
  const hint = x.hintId ? hints?.get(x.hintId) : undefined;
  return { status: 200, body: completionFor(parsed.data, hint), requestId };
}

/** The chat completion (body) the offline model answers a valid request with. */
function completionFor(request: ChatRequest, hint: OfflineHint | undefined) {
  const content = answerFor(request, hint);
  const promptTokens = countPromptTokens(
    request.messages.map((m) => ({ role: m.role, content: textOf(m.content) })),
  );
  const completionTokens = countCompletionTokens(content);
  return {
    id: `chatcmpl-offline-${randomUUID().replaceAll('-', '')}`,
    object: 'chat.completion' as const,
    created: Math.floor(Date.now() / 1000),
    model: offlineModelName,
    system_fingerprint: 'forge-offline',
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content, refusal: null },
        finish_reason: 'stop' as const,
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
  };
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

function send(res: http.ServerResponse, reply: OfflineReply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': reply.requestId,
  });
  res.end(text);
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  hints?: OfflineHintRegistry,
): Promise<void> {
  const hintId = req.headers[offlineHintHeader];
  const reply = respond(
    {
      method: req.method ?? 'GET',
      pathname: new URL(req.url ?? '/', 'http://offline').pathname,
      hintId: typeof hintId === 'string' ? hintId : undefined,
      body: req.method === 'POST' ? await readBody(req) : '',
    },
    hints,
  );
  send(res, reply);
}

/** A request as this process's LLM client builds it: the chat completion parameters it sends. */
export type OfflineRequest = ChatRequest;

/** What the offline model answers a request of this process with, as a provider would. */
export interface OfflineAnswer {
  completion: ChatCompletion;
  requestId: string;
}

/**
 * The offline model called directly by the LLM client of this same process: the same answer and
 * usage as over HTTP, without the HTTP client, the socket or a JSON round trip of the request
 * (those showed as ~8 ms of worker CPU per task in a profiled round). The client's own limiter,
 * ledger, validation and repair still run; the request is the client's own, so it is not parsed.
 */
export function offlineCall(
  hints?: OfflineHintRegistry,
): (request: OfflineRequest, hintId?: string) => OfflineAnswer {
  return (request, hintId) => ({
    completion: completionFor(request, hintId ? hints?.get(hintId) : undefined) as ChatCompletion,
    requestId: `req_offline_${randomUUID().replaceAll('-', '')}`,
  });
}

export async function startOfflineModel(options: OfflineModelOptions = {}): Promise<OfflineModel> {
  const server = http.createServer((req, res) => {
    handle(req, res, options.hints).catch((e: unknown) => {
      if (!res.headersSent)
        send(res, errorReply(500, `offline model failed: ${(e as Error).message}`, 'req_offline_error'));
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
