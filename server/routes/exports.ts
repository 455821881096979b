import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { exportRequest } from '../schemas.ts';

export function exportRoutes({ deps, add }: RouteContext): void {
  add({
    method: 'POST',
    url: '/api/exports',
    summary: 'Start exporting a round’s task pack (OSWorld layout or JSONL)',
    tag: 'exports',
    access: 'write',
    body: exportRequest,
    status: 202,
    handler: async ({ body }) => {
      await requireRound(deps.database.db, body.roundId);
      return deps.actions.startExport(body);
    },
  });
}
