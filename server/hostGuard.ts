import type { FastifyReply, FastifyRequest } from 'fastify';
import { bareHost } from '../infra/config.ts';

/**
 * Answers only requests addressed to a known host name. A page on another site can make a
 * browser send requests to 127.0.0.1 under its own name (DNS rebinding); the Host header then
 * carries that name, and the request is refused with 421 before any route runs.
 */
export function hostGuard(allowed: readonly string[]) {
  const names = new Set(allowed.map(bareHost));
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const host = request.headers.host;
    if (host !== undefined && names.has(bareHost(host))) return;
    await reply.status(421).send({
      error: {
        code: 'misdirected_request',
        message: `this server does not answer to host ${JSON.stringify(host ?? '')}: the names it accepts are ${[...names].join(', ')} (FORGE_API_ALLOWED_HOSTS adds more)`,
      },
    });
  };
}
