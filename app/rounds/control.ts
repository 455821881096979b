import { desc, eq, sql } from 'drizzle-orm';
import { roundSettingsSchema } from '../../activities/roundSettings.ts';
import type { RoundProgress } from '../../activities/types.ts';

export type { RoundProgress };

import { rounds } from '../../infra/db/schema.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import { cancelSignal, type generationRound, progressQuery, resumeSignal } from '../../workflows/round.ts';
import type { RoundDeps } from './deps.ts';
import { launchRoundWorkflow } from './launch.ts';

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

/**
 * Re-runs exactly the slots of a finished round that failed or never started, with their own seeds
 * (a task's seed derives from the round's seed, skill and index), in a new run of the same round
 * workflow. Accepted, rejected and cancelled slots are left as they are; cached LLM answers mean
 * nothing already paid for is paid again.
 */
export async function retryFailedRound(deps: RoundDeps, roundId: string): Promise<{ slots: number }> {
  const round = await getRound(deps, roundId);
  if (!round.finishedAt)
    throw new RoundRequestError(`round ${roundId} is still ${round.status}; wait for it to end`, 'conflict');
  const p = round.progress as Partial<RoundProgress>;
  const slots = (p.failed ?? 0) + (p.notStarted ?? 0);
  if (round.status !== 'completed_with_failures' || slots === 0)
    throw new RoundRequestError(
      `round ${roundId} is ${round.status}: it has no failed tasks to retry`,
      'conflict',
    );
  const settings = roundSettingsSchema.parse(round.settings);
  await deps.database.db
    .update(rounds)
    .set({
      status: 'running',
      finishedAt: null,
      // The error-rate window starts afresh, so the failures being retried do not pause it at once.
      progress: sql`${rounds.progress} || jsonb_build_object('resumedAt', ${new Date().toISOString()}::text)`,
    })
    .where(eq(rounds.id, roundId));
  await launchRoundWorkflow(deps, { roundId, workflowId: round.workflowId, settings }, { onlyFailed: true });
  return { slots };
}
