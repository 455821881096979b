import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import type { RouteContext } from './context.ts';
import type { ServerDeps } from './deps.ts';
import { installErrorHandlers } from './errors.ts';
import { hostGuard } from './hostGuard.ts';
import { OpenApiRegistry } from './openapi.ts';
import { addRoute } from './route.ts';
import { contentRoutes } from './routes/content.ts';
import { costRoutes } from './routes/costs.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { exportRoutes } from './routes/exports.ts';
import { feedbackRoutes, jsonlTypes } from './routes/feedback.ts';
import { roundRoutes } from './routes/rounds.ts';
import { taskRoutes } from './routes/tasks.ts';
import { taxonomyRoutes } from './routes/taxonomy.ts';

export type { ServerActions, ServerDeps } from './deps.ts';

/** The HTTP API and the dashboard in one fastify instance; call `listen` on it (or `inject` in tests). */
export function createServer(deps: ServerDeps, options: { logger?: boolean } = {}): FastifyInstance {
  const { config } = deps;
  const app = Fastify({
    logger: options.logger ? { level: config.FORGE_LOG_LEVEL } : false,
    // Event streams stay open; closing the server must not wait for them.
    forceCloseConnections: true,
    // Our own ids: a client-chosen one would let it forge log lines.
    requestIdHeader: false,
    genReqId: () => randomUUID(),
  });
  installErrorHandlers(app);
  app.addHook('onRequest', hostGuard(config.apiAllowedHosts));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.register(helmet, {
    // Plain HTTP on loopback or behind a proxy: no HSTS, no upgrade of the dashboard's own requests.
    hsts: false,
    contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
  });
  app.register(rateLimit, { max: config.FORGE_API_RATE_LIMIT, timeWindow: 60_000 });
  app.addContentTypeParser(jsonlTypes, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // Routes go in after the plugins, so rate limiting and headers apply to every one of them.
  app.register(async (scoped) => {
    const registry = new OpenApiRegistry();
    const context: RouteContext = { deps, add: (spec) => addRoute(scoped, config, registry, spec) };
    roundRoutes(context);
    contentRoutes(context);
    costRoutes(context);
    taskRoutes(context);
    taxonomyRoutes(context);
    feedbackRoutes(context);
    exportRoutes(context);

    context.add({
      method: 'GET',
      url: '/api/health',
      summary: 'Liveness: the database answers',
      tag: 'meta',
      access: 'read',
      handler: async () => {
        await deps.database.db.execute(sql`SELECT 1`);
        return { ok: true };
      },
    });
    scoped.get('/openapi.json', async () =>
      registry.document({ protectReads: config.FORGE_API_PROTECT_READS }),
    );
    dashboardRoutes(scoped);
  });
  return app;
}
