import { APIConnectionError, APIError } from 'openai';

/** Header lookup over the fetch Headers the openai client exposes, or a plain record. */
export type HeaderSource = Headers | Record<string, string | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as
 * seconds or an HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(headers: HeaderSource, nowMs: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: retry n (1-based) waits base·2^(n-1), capped, scaled by [0.5, 1). */
export function backoffMs(retry: number, random: () => number, baseMs = 500, capMs = 30_000): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exp * (0.5 + 0.5 * random()));
}

export interface CallFailure {
  kind: 'rate_limited' | 'retryable' | 'fatal';
  status: number | undefined;
  /** Names the status and the provider's own message, for the ledger and the task's reject detail. */
  message: string;
  requestId: string | undefined;
  retryAfterMs: number | undefined;
}

/** 429 → rate limited; 408/409/5xx and connection failures → retried; other statuses are final. */
export function classifyError(error: unknown, nowMs: number): CallFailure {
  if (error instanceof APIError && !(error instanceof APIConnectionError) && error.status !== undefined) {
    const status = error.status;
    const kind =
      status === 429
        ? 'rate_limited'
        : status === 408 || status === 409 || status >= 500
          ? 'retryable'
          : 'fatal';
    return {
      kind,
      status,
      message: `HTTP ${status}: ${providerMessage(error)}`,
      requestId: error.requestID ?? undefined,
      retryAfterMs: parseRetryAfter(error.headers, nowMs),
    };
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return {
      kind: 'retryable',
      status: undefined,
      message: `${error.message}${cause}`,
      requestId: undefined,
      retryAfterMs: undefined,
    };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'fatal', status: undefined, message, requestId: undefined, retryAfterMs: undefined };
}

function providerMessage(error: APIError): string {
  const body = error.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message;
  // The client's own message already folds in the status; strip it so it is not said twice.
  return error.message.replace(/^\d{3}\s*/, '') || '(no message from provider)';
}
