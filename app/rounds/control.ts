import { desc, eq } from 'drizzle-orm';
import type { RoundProgress } from '../../activities/types.ts';

export type { RoundProgress };

import { rounds } from '../../infra/db/schema.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import { cancelSignal, type generationRound, progressQuery, resumeSignal } from '../../workflows/round.ts';
import type { RoundDeps } from './start.ts';

export async function getRound(deps: Pick<RoundDeps, 'database'>, roundId: string) {
  const row = (await deps.database.db.select().from(rounds).where(eq(rounds.id, roundId)))[0];
  if (!row) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
  return row;
}

export async function listRounds(deps: Pick<RoundDeps, 'database'>, limit = 50) {
  return deps.database.db.select().from(rounds).orderBy(desc(rounds.createdAt)).limit(limit);
}

/** Cancels cleanly: the round stops starting tasks, cancels its skill workflows, marks what ran as cancelled. */
export async function cancelRound(deps: RoundDeps, roundId: string): Promise<void> {
  const round = await getRound(deps, roundId);
  if (round.finishedAt)
    throw new RoundRequestError(`round ${roundId} already ended (${round.status})`, 'conflict');
  await deps.database.db.update(rounds).set({ status: 'cancelled' }).where(eq(rounds.id, roundId));
  await deps.temporal.workflow.getHandle(round.workflowId).signal(cancelSignal);
}

/** Continues a round paused for its error rate. */
export async function resumeRound(deps: RoundDeps, roundId: string): Promise<void> {
  const round = await getRound(deps, roundId);
  if (round.status !== 'paused_error_rate')
    throw new RoundRequestError(`round ${roundId} is ${round.status}, not paused_error_rate`, 'conflict');
  await deps.temporal.workflow.getHandle(round.workflowId).signal(resumeSignal);
}

/** Live progress from the round workflow's query, falling back to the mirrored row. */
export async function roundProgress(deps: RoundDeps, roundId: string): Promise<RoundProgress | null> {
  const round = await getRound(deps, roundId);
  if (!round.finishedAt) {
    try {
      const p = await deps.temporal.workflow.getHandle(round.workflowId).query(progressQuery);
      if (p) return p;
    } catch {
      // The workflow may be between runs (continue-as-new) or already closed: the row is the truth.
    }
  }
  const row = round.progress as Partial<RoundProgress>;
  return row.status ? (row as RoundProgress) : null;
}

export async function waitForRound(deps: RoundDeps, roundId: string): Promise<RoundProgress> {
  const round = await getRound(deps, roundId);
  return deps.temporal.workflow.getHandle<typeof generationRound>(round.workflowId).result();
}
