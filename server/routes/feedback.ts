import { z } from 'zod';
import type { RouteContext } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { roundParams } from '../schemas.ts';

export const jsonlTypes = [
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'text/plain',
];

export function feedbackRoutes({ deps, add }: RouteContext): void {
  add({
    method: 'POST',
    url: '/api/rounds/:roundId/feedback',
    summary: 'Upload student results for a round as JSONL (one result per line); idempotent per task and run',
    tag: 'feedback',
    access: 'write',
    params: roundParams,
    body: z.string().trim().min(1, 'the JSONL body is empty'),
    bodyType: 'application/x-ndjson',
    // About 100k result lines; larger files go through `forge feedback ingest` in parts.
    bodyLimit: 32 * 1024 * 1024,
    handler: async ({ params, body }) => {
      await requireRound(deps.database.db, params.roundId);
      return deps.actions.ingestFeedback(params.roundId, body);
    },
  });
}
