import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { taskSpendSql } from '../infra/db/queries/spend.ts';
import { taskNodeRuns, tasks } from '../infra/db/schema.ts';
import type { NodeRun } from '../taskcore/nodeRun.ts';
import type { StepResult, TaskOutcome, TaskRef } from './types.ts';

export type { NodeRun };

/** Node runs are keyed by (task, node): a retried stage overwrites its own rows, never duplicates. */
export async function recordNodeRuns(database: Database, taskId: string, runs: NodeRun[]): Promise<void> {
  if (runs.length === 0) return;
  await database.db
    .insert(taskNodeRuns)
    .values(runs.map((r) => ({ taskId, ...r, durationMs: Math.round(r.durationMs) })))
    .onConflictDoUpdate({
      target: [taskNodeRuns.taskId, taskNodeRuns.nodeId],
      set: {
        status: sql`excluded.status`,
        durationMs: sql`excluded.duration_ms`,
        outputKey: sql`excluded.output_key`,
        detail: sql`excluded.detail`,
      },
    });
}

/**
 * Ends a running task with its outcome and rolls its LLM cost up from the ledger. Only a running
 * task changes, so a late cancel never overwrites an accepted package, and vice versa.
 */
export async function finishTaskRecord(
  database: Database,
  taskId: string,
  outcome: TaskOutcome,
  why: { reason?: string; node?: string; detail?: string } = {},
  extra: Partial<typeof tasks.$inferInsert> = {},
): Promise<boolean> {
  const rows = await database.db
    .update(tasks)
    .set({
      status: outcome,
      rejectReason: outcome === 'accepted' ? null : (why.reason ?? null),
      rejectNode: outcome === 'accepted' ? null : (why.node ?? null),
      rejectDetail: outcome === 'accepted' ? null : (why.detail?.slice(0, 4000) ?? null),
      finishedAt: new Date(),
      costUsd: taskSpendSql(taskId).usd,
      tokens: taskSpendSql(taskId).tokens,
      ...extra,
    })
    .where(and(eq(tasks.id, taskId), eq(tasks.status, 'running')))
    .returning({ id: tasks.id });
  return rows.length > 0;
}

/**
 * Rejects a task: its node runs first (idempotent upserts), then the outcome with any columns the
 * rejecting activity still holds (`extra`), which only a running task takes — so a stage retried
 * after a crash between the two writes ends the same way, once.
 */
export async function rejectTask(
  database: Database,
  task: TaskRef,
  why: { reason: string; node: string; detail: string; kind: string; durationMs?: number },
  runs: NodeRun[] = [],
  extra: Partial<typeof tasks.$inferInsert> = {},
): Promise<StepResult> {
  await recordNodeRuns(database, task.taskId, [
    ...runs,
    {
      nodeId: why.node,
      kind: why.kind,
      status: 'rejected',
      durationMs: why.durationMs ?? 0,
      detail: `${why.reason}: ${why.detail}`.slice(0, 2000),
    },
  ]);
  await finishTaskRecord(database, task.taskId, 'rejected', why, extra);
  return { ok: false, reason: why.reason, node: why.node, detail: why.detail };
}
