import { contentReport } from '../../app/contentReport.ts';
import { difficultyReport } from '../../app/difficultyReport.ts';
import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { roundParams } from '../schemas.ts';

export function contentRoutes({ deps, add }: RouteContext): void {
  add({
    method: 'GET',
    url: '/api/rounds/:roundId/content',
    summary:
      'What agents read in a round’s accepted tasks: placeholder share, instruction levels, cell addresses by level, instruction length, distinct paragraphs',
    tag: 'rounds',
    access: 'read',
    params: roundParams,
    handler: async ({ params }) => {
      await requireRound(deps.database.db, params.roundId);
      return contentReport(deps.database, deps.store, params.roundId);
    },
  });

  add({
    method: 'GET',
    url: '/api/rounds/:roundId/difficulty',
    summary:
      'How hard a round’s accepted tasks are: depth histogram (distinct features per task), discovery share at goal level, long-horizon share, checkpoints (rubric items) per task',
    tag: 'rounds',
    access: 'read',
    params: roundParams,
    handler: async ({ params }) => {
      await requireRound(deps.database.db, params.roundId);
      return difficultyReport(deps.database.db, params.roundId);
    },
  });
}
