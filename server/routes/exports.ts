import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { exportParams, exportRequest } from '../schemas.ts';

export function exportRoutes({ deps, add }: RouteContext): void {
  add({
    method: 'POST',
    url: '/api/exports',
    summary:
      'Start exporting a round’s task pack (OSWorld layout, JSONL, or a bundle per task) under out/exports/<exportId>; answers at once',
    tag: 'exports',
    access: 'write',
    body: exportRequest,
    status: 202,
    handler: async ({ body }) => {
      await requireRound(deps.database.db, body.roundId);
      return deps.actions.startExport(body);
    },
  });

  add({
    method: 'GET',
    url: '/api/exports/:exportId',
    summary: 'An export: running, completed (with its report: selected, exported, excluded) or failed',
    tag: 'exports',
    access: 'read',
    params: exportParams,
    handler: async ({ params }) => deps.actions.getExport(params.exportId),
  });
}
