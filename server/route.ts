import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../infra/config.ts';
import { type Access, authorize } from './auth.ts';
import { validationError } from './errors.ts';
import type { OpenApiRegistry } from './openapi.ts';

type Schema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteSpec<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
> {
  method: 'GET' | 'POST';
  /** fastify syntax: /api/rounds/:roundId */
  url: string;
  summary: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** Body media type for OpenAPI; application/json unless the route takes text (JSONL). */
  bodyType?: string;
  bodyLimit?: number;
  /** Success status and media type for OpenAPI; 200 application/json unless stated. */
  status?: number;
  responseType?: string;
  response?: Schema;
  handler(
    input: { params: Infer<P>; query: Infer<Q>; body: Infer<B> },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<unknown>;
}

function parse<S extends Schema | undefined>(schema: S | undefined, value: unknown, where: string): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(where, result.error);
  return result.data as Infer<S>;
}

/**
 * Registers a route whose auth runs before the body is read, whose inputs are checked with zod
 * (400 with the issues), and which appears in /openapi.json from the same schemas.
 */
export function addRoute<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
>(app: FastifyInstance, config: Config, registry: OpenApiRegistry, spec: RouteSpec<P, Q, B>): void {
  registry.add(spec);
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    onRequest: async (request) => authorize(config, spec.access, request),
    handler: async (request, reply) => {
      const input = {
        params: parse<P>(spec.params, request.params, 'path parameters'),
        query: parse<Q>(spec.query, request.query, 'query'),
        body: parse<B>(spec.body, request.body, 'body'),
      };
      const result = await spec.handler(input, request, reply);
      if (reply.sent) return reply;
      if (spec.status) reply.status(spec.status);
      return result;
    },
  });
}
