import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { ExpansionSummary } from '../activities/expansion.ts';
import { expansionRuns, rounds, studentResults } from '../infra/db/schema.ts';
import { taskQueues } from '../infra/temporal/queues.ts';
import { type ExpansionWorkflowInput, taxonomyExpansion } from '../workflows/taxonomyExpansion.ts';
import type { RoundDeps } from './rounds/start.ts';

export function expansionWorkflowId(runId: string): string {
  return `expansion-${runId}`;
}

export function newExpansionRunId(): string {
  return `x${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}`;
}

/** Records an expansion run from a round's feedback and starts its workflow (`expansion-<runId>`). */
export async function startExpansion(
  deps: RoundDeps,
  opts: { fromRoundId: string; runId?: string; maxTargets?: number; concurrency?: number },
): Promise<{ runId: string; workflowId: string }> {
  const { db } = deps.database;
  const round = (await db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, opts.fromRoundId)))[0];
  if (!round) throw new Error(`round ${opts.fromRoundId} does not exist`);
  const results =
    (
      await db.select({ n: count() }).from(studentResults).where(eq(studentResults.roundId, opts.fromRoundId))
    )[0]?.n ?? 0;
  if (results === 0)
    throw new Error(
      `round ${opts.fromRoundId} has no student feedback: forge feedback ingest FILE --round ${opts.fromRoundId} first`,
    );
  const runId = opts.runId ?? newExpansionRunId();
  const workflowId = expansionWorkflowId(runId);
  await db
    .insert(expansionRuns)
    .values({ id: runId, fromRoundId: opts.fromRoundId, status: 'running', workflowId });
  const queues = taskQueues(deps.config);
  const args: ExpansionWorkflowInput = {
    runId,
    queues,
    maxTargets: opts.maxTargets ?? 8,
    concurrency: opts.concurrency ?? 3,
    // The gate's dry runs go through the stages as production rounds do.
    stages: deps.config.FORGE_TASK_STAGES,
  };
  await deps.temporal.workflow.start(taxonomyExpansion, {
    workflowId,
    taskQueue: queues.prepare,
    args: [args],
  });
  return { runId, workflowId };
}

export async function waitForExpansion(deps: RoundDeps, runId: string): Promise<ExpansionSummary> {
  return deps.temporal.workflow.getHandle<typeof taxonomyExpansion>(expansionWorkflowId(runId)).result();
}
