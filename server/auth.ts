import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../infra/config.ts';
import { ApiError } from './errors.ts';

export type Access = 'read' | 'write';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * Mutating routes always need `Authorization: Bearer <FORGE_API_TOKEN>`; read routes only when
 * FORGE_API_PROTECT_READS is on. With no token configured, protected routes are refused (503)
 * rather than left open.
 */
export function authorize(config: Config, access: Access, request: FastifyRequest): void {
  if (access === 'read' && !config.FORGE_API_PROTECT_READS) return;
  const token = config.FORGE_API_TOKEN;
  if (!token) {
    throw new ApiError(
      503,
      'auth_not_configured',
      'FORGE_API_TOKEN is not set: set it on the server to enable this route',
    );
  }
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match)
    throw new ApiError(401, 'unauthorized', 'missing Authorization: Bearer <FORGE_API_TOKEN> header');
  // Comparing digests keeps the comparison constant-time whatever the lengths.
  if (!timingSafeEqual(digest(match[1]), digest(token))) {
    throw new ApiError(401, 'unauthorized', 'the bearer token does not match FORGE_API_TOKEN');
  }
}
