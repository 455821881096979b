import { z } from 'zod';
import { errorBody } from './schemas.ts';

interface RegisteredRoute {
  method: string;
  url: string;
  summary: string;
  tag: string;
  access: 'read' | 'write';
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyType?: string;
  status?: number;
  responseType?: string;
  response?: z.ZodType;
}

type JsonSchema = Record<string, unknown>;

const inputSchema = (s: z.ZodType): JsonSchema =>
  z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

function parameters(schema: z.ZodType, where: 'path' | 'query'): JsonSchema[] {
  const json = inputSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Collects the routes as they are registered and renders an OpenAPI 3.1 document from their zod schemas. */
export class OpenApiRegistry {
  private readonly routes: RegisteredRoute[] = [];

  add(route: RegisteredRoute): void {
    this.routes.push(route);
  }

  document(options: { protectReads: boolean }): JsonSchema {
    const paths: Record<string, Record<string, JsonSchema>> = {};
    for (const r of this.routes) {
      const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const secured = r.access === 'write' || options.protectReads;
      const status = String(r.status ?? 200);
      const responseType = r.responseType ?? 'application/json';
      const responses: Record<string, unknown> = {
        [status]: {
          description: 'success',
          content: {
            [responseType]: r.response ? { schema: z.toJSONSchema(r.response, { io: 'output' }) } : {},
          },
        },
      };
      if (r.params || r.query || r.body)
        responses['400'] = errorResponse('invalid request (zod issues included)');
      if (r.params) responses['404'] = errorResponse('not found');
      if (secured) {
        responses['401'] = errorResponse('missing or wrong bearer token');
        responses['503'] = errorResponse('FORGE_API_TOKEN is not set on the server');
      }
      paths[path] ??= {};
      paths[path][r.method.toLowerCase()] = {
        summary: r.summary,
        tags: [r.tag],
        operationId: `${r.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        parameters: [
          ...(r.params ? parameters(r.params, 'path') : []),
          ...(r.query ? parameters(r.query, 'query') : []),
        ],
        ...(r.body
          ? {
              requestBody: {
                required: true,
                content: { [r.bodyType ?? 'application/json']: { schema: inputSchema(r.body) } },
              },
            }
          : {}),
        ...(secured ? { security: [{ bearer: [] }] } : {}),
        responses,
      };
    }
    return {
      openapi: '3.1.0',
      info: {
        title: 'cua-forge API',
        version: '1',
        description:
          'Rounds, tasks, costs, taxonomy, feedback and exports. Errors are {error: {code, message}}.',
      },
      paths,
      components: {
        schemas: { Error: z.toJSONSchema(errorBody) },
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'FORGE_API_TOKEN' } },
      },
    };
  }
}
