import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** An error the API answers with as `{error: {code, message, issues?}}` and the given HTTP status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
  }
}

export const notFound = (what: string): ApiError => new ApiError(404, 'not_found', `${what} not found`);

export function validationError(where: string, error: z.ZodError): ApiError {
  const summary = error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : where}: ${i.message}`)
    .join('; ');
  return new ApiError(400, 'invalid_request', `invalid ${where}: ${summary}`, error.issues);
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

/** Every failure, ours or fastify's (bad JSON, body too large), leaves as the same JSON shape. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError | Error, request, reply) => {
    const status = statusOf(err);
    if (err instanceof ApiError) {
      return reply.status(err.statusCode).send({
        error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) },
      });
    }
    if (status !== undefined && status < 500) {
      const code =
        typeof (err as { code?: unknown }).code === 'string'
          ? String((err as { code: string }).code)
          : 'bad_request';
      return reply.status(status).send({ error: { code, message: err.message } });
    }
    // The details stay in the log: an internal message can name hosts, paths or SQL.
    request.log.error({ err }, 'request failed');
    const code = status === 503 ? 'unavailable' : 'internal_error';
    return reply.status(status ?? 500).send({
      error: {
        code,
        message: `${status === 503 ? 'service unavailable' : 'internal error'}; the server log has the details under request id ${request.id}`,
        requestId: request.id,
      },
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: { code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` },
    }),
  );
}
