import { z } from 'zod';
import { rejectReasons, roundComparison, roundTotals } from '../../infra/db/queries/costs.ts';
import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { ApiError } from '../errors.ts';
import { type RoundEvent, RoundEventHub, TooManyStreamsError } from '../roundEvents.ts';
import { limitQuery, planRoundQuery, roundParams, startRoundRequest } from '../schemas.ts';

const finished = new Set(['completed', 'completed_with_failures', 'cancelled', 'budget_exhausted', 'failed']);

export function roundRoutes({ deps, add }: RouteContext): void {
  const { db } = deps.database;
  const events = new RoundEventHub(
    async (roundId) => {
      const round = await requireRound(db, roundId);
      const totals = await roundTotals(db, roundId);
      const progress: RoundEvent = {
        event: 'progress',
        data: { status: round.status, progress: round.progress, totals },
      };
      const ended = finished.has(round.status);
      return { events: ended ? [progress, { event: 'end', data: {} }] : [progress], ended };
    },
    deps.eventIntervalMs ?? 2000,
    deps.config.FORGE_API_MAX_EVENT_STREAMS,
  );

  add({
    method: 'GET',
    url: '/api/rounds',
    summary: 'Recent rounds with their totals (spend, accepted, cost per accepted task, pass rate)',
    tag: 'rounds',
    access: 'read',
    query: limitQuery,
    handler: async ({ query }) => ({ rounds: await roundComparison(db, query.limit) }),
  });

  add({
    method: 'GET',
    url: '/api/rounds/plan',
    summary: 'Preview a round: skills, tasks per skill and the cost estimate, without spending anything',
    tag: 'rounds',
    access: 'read',
    query: planRoundQuery,
    handler: async ({ query }) => deps.actions.planRound(query),
  });

  add({
    method: 'POST',
    url: '/api/rounds',
    summary: 'Start a generation round',
    tag: 'rounds',
    access: 'write',
    body: startRoundRequest,
    status: 202,
    handler: async ({ body }) => {
      if (body.roundId) {
        const existing = await requireRound(db, body.roundId).catch(() => undefined);
        if (existing)
          throw new ApiError(409, 'conflict', `round ${body.roundId} already exists (${existing.status})`);
      }
      return deps.actions.startRound(body);
    },
  });

  add({
    method: 'GET',
    url: '/api/rounds/:roundId',
    summary: 'A round: settings, live progress, totals and rejections by reason',
    tag: 'rounds',
    access: 'read',
    params: roundParams,
    handler: async ({ params }) => {
      const round = await requireRound(db, params.roundId);
      const [totals, reasons] = await Promise.all([
        roundTotals(db, params.roundId),
        rejectReasons(db, params.roundId),
      ]);
      return { round, totals, rejectReasons: reasons };
    },
  });

  add({
    method: 'POST',
    url: '/api/rounds/:roundId/cancel',
    summary: 'Cancel a running round: running tasks end as cancelled',
    tag: 'rounds',
    access: 'write',
    params: roundParams,
    status: 202,
    handler: async ({ params }) => {
      const round = await requireRound(db, params.roundId);
      if (finished.has(round.status)) {
        throw new ApiError(409, 'conflict', `round ${params.roundId} has already ended (${round.status})`);
      }
      return deps.actions.cancelRound(params.roundId);
    },
  });

  add({
    method: 'POST',
    url: '/api/rounds/:roundId/retry-failed',
    summary:
      'Re-run the failed and never-started tasks of a round that ended completed_with_failures, with their own seeds',
    tag: 'rounds',
    access: 'write',
    params: roundParams,
    status: 202,
    handler: async ({ params }) => {
      await requireRound(db, params.roundId);
      return deps.actions.retryFailed(params.roundId);
    },
  });

  add({
    method: 'GET',
    url: '/api/rounds/:roundId/events',
    summary: 'Server-sent events: a `progress` event with the round totals every 2 s until the round ends',
    tag: 'rounds',
    access: 'read',
    params: roundParams,
    responseType: 'text/event-stream',
    response: z.string(),
    handler: async ({ params }, request, reply) => {
      await requireRound(db, params.roundId);
      let unsubscribe: () => void;
      try {
        unsubscribe = events.subscribe(params.roundId, (e) => {
          out.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
          if (e.event === 'end') {
            out.end();
            unsubscribe?.();
          }
        });
      } catch (err) {
        if (err instanceof TooManyStreamsError) throw new ApiError(503, 'too_many_streams', err.message);
        throw err;
      }
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      request.raw.on('close', () => unsubscribe());
      return undefined;
    },
  });
}
