import {
  costByApp,
  costByModel,
  costByNode,
  costOverTime,
  rejectReasons,
  roundComparison,
  roundTotals,
  skillCostPage,
} from '../../infra/db/queries/costs.ts';
import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { comparisonQuery, roundParams, skillPageQuery, timelineQuery } from '../schemas.ts';

export function costRoutes({ deps, add }: RouteContext): void {
  const { db } = deps.database;

  add({
    method: 'GET',
    url: '/api/costs/rounds',
    summary: 'Round-over-round: USD per accepted task, acceptance rate, student pass rate',
    tag: 'costs',
    access: 'read',
    query: comparisonQuery,
    handler: async ({ query }) => ({ rounds: await roundComparison(db, query.limit, query.upTo) }),
  });

  add({
    method: 'GET',
    url: '/api/rounds/:roundId/costs',
    summary: 'A round’s cost overview: totals, per node, per model, rejections by reason',
    tag: 'costs',
    access: 'read',
    params: roundParams,
    handler: async ({ params }) => {
      await requireRound(db, params.roundId);
      const [totals, byNode, byModel, reasons] = await Promise.all([
        roundTotals(db, params.roundId),
        costByNode(db, params.roundId),
        costByModel(db, params.roundId),
        rejectReasons(db, params.roundId),
      ]);
      return { totals, byNode, byModel, rejectReasons: reasons };
    },
  });

  add({
    method: 'GET',
    url: '/api/rounds/:roundId/costs/skills',
    summary:
      'A round’s costs per skill (tasks, acceptance rate, USD per accepted task, student pass rate): one sorted, filtered page',
    tag: 'costs',
    access: 'read',
    params: roundParams,
    query: skillPageQuery,
    handler: async ({ params, query }) => {
      await requireRound(db, params.roundId);
      const page = await skillCostPage(db, params.roundId, {
        sort: query.sort,
        order: query.order,
        filter: query.q || undefined,
        limit: query.limit,
        offset: query.offset,
      });
      return { ...page, limit: query.limit, offset: query.offset };
    },
  });

  const perRound = [
    ['apps', 'per application (a multi-app skill counts under each of its apps)', costByApp],
    ['nodes', 'per node: USD and tokens, per accepted task', costByNode],
    ['models', 'per provider and model: calls, tokens, cache hits, USD', costByModel],
  ] as const;
  for (const [name, what, query] of perRound) {
    add({
      method: 'GET',
      url: `/api/rounds/:roundId/costs/${name}`,
      summary: `A round’s costs ${what}`,
      tag: 'costs',
      access: 'read',
      params: roundParams,
      handler: async ({ params }) => {
        await requireRound(db, params.roundId);
        return { [name]: await query(db, params.roundId) };
      },
    });
  }

  add({
    method: 'GET',
    url: '/api/rounds/:roundId/costs/timeline',
    summary:
      'Spend, tokens and accepted tasks per time bucket with running totals (bucket chosen if omitted)',
    tag: 'costs',
    access: 'read',
    params: roundParams,
    query: timelineQuery,
    handler: async ({ params, query }) => {
      await requireRound(db, params.roundId);
      return costOverTime(db, params.roundId, query.bucketSeconds);
    },
  });
}
