import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '../../infra/paths.ts';

const publicDir = path.join(repoRoot, 'server', 'public');
const files: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/format.js': { file: 'format.js', type: 'text/javascript; charset=utf-8' },
};

/** The dashboard: three static files; it holds no data, so it is served without auth. */
export function dashboardRoutes(app: FastifyInstance): void {
  for (const [url, { file, type }] of Object.entries(files)) {
    app.get(url, async (_request, reply) => {
      const body = await readFile(path.join(publicDir, file));
      return reply.header('content-type', type).header('cache-control', 'no-cache').send(body);
    });
  }
}
