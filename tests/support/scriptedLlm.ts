import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible chat-completions server on loopback for fault tests: each request
 * takes the next reply from a queue, and every request is recorded.
 */
export interface ScriptedUsage {
  prompt: number;
  cached: number;
  completion: number;
  reasoning: number;
}

export type ScriptedReply =
  /** A completed answer with this exact content and finish reason. */
  | {
      kind: 'answer';
      content: string | null;
      finishReason: 'stop' | 'length' | 'content_filter';
      usage?: Partial<ScriptedUsage>;
    }
  /** An HTTP error with an OpenAI-shaped error body. */
  | { kind: 'status'; status: number; message: string; headers?: Record<string, string> }
  /** The connection is dropped without a response. */
  | { kind: 'disconnect' };

export const reply = {
  valid: (value: unknown, usage?: Partial<ScriptedUsage>): ScriptedReply => ({
    kind: 'answer',
    content: JSON.stringify(value),
    finishReason: 'stop',
    usage,
  }),
  /** Well-formed JSON that the node's schema rejects. */
  schemaViolation: (value: unknown): ScriptedReply => ({
    kind: 'answer',
    content: JSON.stringify(value),
    finishReason: 'stop',
  }),
  invalidJson: (text = '{"title": "Quarterly report", "rows": [1, 2,'): ScriptedReply => ({
    kind: 'answer',
    content: text,
    finishReason: 'stop',
  }),
  empty: (): ScriptedReply => ({ kind: 'answer', content: '', finishReason: 'stop' }),
  truncated: (text = '{"title": "Quarterly rep'): ScriptedReply => ({
    kind: 'answer',
    content: text,
    finishReason: 'length',
  }),
  contentFilter: (): ScriptedReply => ({ kind: 'answer', content: null, finishReason: 'content_filter' }),
  rateLimited: (
    retryAfter: string | undefined = '0',
    extraHeaders: Record<string, string> = {},
  ): ScriptedReply => ({
    kind: 'status',
    status: 429,
    message: 'Rate limit reached for requests',
    headers: { ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }), ...extraHeaders },
  }),
  serverError: (status = 500): ScriptedReply => ({
    kind: 'status',
    status,
    message: 'The server had an error while processing your request.',
  }),
  unauthorized: (): ScriptedReply => ({
    kind: 'status',
    status: 401,
    message: 'Incorrect API key provided: sk-test***.',
  }),
  badRequest: (message = "Invalid schema for response_format 'x'"): ScriptedReply => ({
    kind: 'status',
    status: 400,
    message,
  }),
  disconnect: (): ScriptedReply => ({ kind: 'disconnect' }),
};

export interface RecordedRequest {
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    seed?: number;
    max_completion_tokens?: number;
    messages?: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  };
}

export interface ScriptedLlm {
  baseURL: string;
  /** Requests received so far, in order. */
  requests: RecordedRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Replies not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

const defaultUsage: ScriptedUsage = { prompt: 1000, cached: 200, completion: 500, reasoning: 100 };

export async function startScriptedLlm(
  options: {
    replies?: ScriptedReply[];
    model?: string;
    /** Answers a request once the script is used up (default: a 500 saying so). */
    fallback?: (body: RecordedRequest['body']) => ScriptedReply;
  } = {},
): Promise<ScriptedLlm> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const requestId = `req_scripted_${requests.length + 1}`;
    let body: RecordedRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    } catch {
      // recorded as an empty body; the reply is still scripted
    }
    requests.push({ headers: req.headers, body });
    const next = queue.shift() ??
      options.fallback?.(body) ?? {
        kind: 'status',
        status: 500,
        message: 'scripted server: no reply left in the script',
      };
    if (next.kind === 'disconnect') {
      req.socket.destroy();
      return;
    }
    if (next.kind === 'status') {
      const text = JSON.stringify({
        error: { message: next.message, type: 'scripted', param: null, code: null },
      });
      res.writeHead(next.status, {
        'content-type': 'application/json',
        'x-request-id': requestId,
        ...(next.headers ?? {}),
      });
      res.end(text);
      return;
    }
    const u = { ...defaultUsage, ...(next.usage ?? {}) };
    const text = JSON.stringify({
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: options.model ?? body.model ?? 'scripted',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: next.content, refusal: null },
          finish_reason: next.finishReason,
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: u.prompt,
        completion_tokens: u.completion,
        total_tokens: u.prompt + u.completion,
        prompt_tokens_details: { cached_tokens: u.cached },
        completion_tokens_details: { reasoning_tokens: u.reasoning },
      },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
