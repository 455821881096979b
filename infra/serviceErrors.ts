/**
 * Tells an outage of a backing service from any other error: connection refused or reset, a
 * Postgres shutdown / cannot-connect / serialization failure, an S3 5xx or timeout, Temporal
 * unavailable. Such an error says nothing about the work itself, so it is retried, with backoff.
 */
export type ServiceName = 'postgres' | 'minio' | 'temporal';
/** 'network' when a connection failed to an address no known service listens on. */
export type UnavailableService = ServiceName | 'network';

/** Which service listens where, so a bare "connect ECONNREFUSED 127.0.0.1:9310" names its service. */
export type ServicePorts = ReadonlyMap<number, ServiceName>;

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 08xxx connection, 40001/40P01 retry. */
const postgresCode = /^(57P0[123]|08...|40001|40P01|53300)$/;
const postgresMessages = [
  'Connection terminated',
  'terminating connection',
  'the database system is',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
];
const s3Codes = new Set([
  'InternalError',
  'ServiceUnavailable',
  'SlowDown',
  'RequestTimeout',
  'XMinioServerNotInitialized',
]);
/** gRPC UNAVAILABLE (14) and DEADLINE_EXCEEDED (4), as the Temporal clients report them. */
const grpcCodes = new Set([14, 4]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  port?: unknown;
  cause?: unknown;
  errors?: unknown;
  severity?: unknown;
  amzRequestid?: unknown;
  statusCode?: unknown;
}

function* chain(err: unknown, depth = 0): Generator<ErrorLike> {
  if (!err || typeof err !== 'object' || depth > 6) return;
  const e = err as ErrorLike;
  yield e;
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
  yield* chain(e.cause, depth + 1);
}

function portOf(e: ErrorLike): number | undefined {
  if (typeof e.port === 'number') return e.port;
  const m = /:(\d{2,5})\b/.exec(String(e.message ?? ''));
  return m ? Number(m[1]) : undefined;
}

/** The service an error says is unavailable, or undefined when the error is about something else. */
export function unavailableService(
  err: unknown,
  ports: ServicePorts = new Map(),
): UnavailableService | undefined {
  for (const e of chain(err)) {
    const code = e.code;
    const message = String(e.message ?? '');
    if (typeof code === 'string' && postgresCode.test(code) && e.severity !== undefined) return 'postgres';
    if (postgresMessages.some((m) => message.includes(m))) return 'postgres';
    if (typeof code === 'string' && s3Codes.has(code)) return 'minio';
    if (e.amzRequestid !== undefined && typeof e.statusCode === 'number' && e.statusCode >= 500)
      return 'minio';
    if (typeof code === 'number' && grpcCodes.has(code) && /UNAVAILABLE|DEADLINE|connect/i.test(message))
      return 'temporal';
    if (typeof code === 'string' && networkCodes.has(code)) {
      const port = portOf(e);
      return (port !== undefined ? ports.get(port) : undefined) ?? 'network';
    }
  }
  return undefined;
}

/** A one-line reason for an outage log or a task's failure detail. */
export function briefMessage(err: unknown): string {
  for (const e of chain(err)) {
    const m = String(e.message ?? '').trim();
    if (m) return m.split('\n')[0]!.slice(0, 200);
    if (typeof e.code === 'string') return e.code;
  }
  return String(err).slice(0, 200);
}
