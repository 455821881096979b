import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { roundSpend } from '../infra/db/queries/spend.ts';
import { roundSkills, rounds, tasks } from '../infra/db/schema.ts';
import { levelFor } from '../skills/levels.ts';
import { deriveSeed } from '../skills/random.ts';
import type { ActivityDeps } from './deps.ts';
import { fixedRoundReader, readGateState } from './gateRead.ts';
import { taskIdFor } from './taskIdentity.ts';
import { finishTaskRecord } from './taskRecords.ts';
import type {
  BeginTaskInput,
  Gate,
  RoundPlanEntry,
  RoundProgress,
  RoundStatus,
  StopReason,
  TaskOutcome,
  TaskRef,
} from './types.ts';

/** Keeps keys the progress snapshot does not own (resumedAt) when it is rewritten. */
const mergeProgress = (p: RoundProgress) => sql`${rounds.progress} || ${JSON.stringify(p)}::jsonb`;

/** Names the service when outages dominate the failures that paused a round. */
export function pauseReasonOf(rows: { status: string; reason: string | null }[]): string {
  const bad = rows.filter((r) => r.status !== 'accepted');
  const outages = new Map<string, number>();
  for (const r of bad) {
    const m = /^service_unavailable:(.+)$/.exec(r.reason ?? '');
    if (m) outages.set(m[1]!, (outages.get(m[1]!) ?? 0) + 1);
  }
  const [service, n] = [...outages].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (service && n! * 2 >= bad.length) return `${service} unavailable: ${n} of ${bad.length} recent failures`;
  return `error rate: ${bad.length} of ${rows.length} recent tasks not accepted`;
}

/** Activities of the round itself: the budget / error-rate gate, the plan, progress and status. */
export function createRoundActivities(deps: ActivityDeps) {
  const { db } = deps.database;
  const fixedRound = fixedRoundReader(db);

  async function roundRow(roundId: string) {
    const row = (await db.select().from(rounds).where(eq(rounds.id, roundId)))[0];
    if (!row) throw new Error(`round ${roundId} does not exist`);
    return row;
  }

  /**
   * Decides atomically (one advisory lock per round) whether a task may start: not when the round
   * is cancelled or paused, not when recorded spend plus the reservation of every task in flight
   * would pass the budget, and not when the error rate of the last N finished tasks is too high.
   * Overshoot is thereby bounded by what tasks already in flight spend beyond their reservation.
   */
  async function beginTask(input: BeginTaskInput): Promise<Gate> {
    return (await beginTasks([input]))[0]!;
  }

  /**
   * The gate for several slots of one round in one transaction, answered in order: each admitted
   * slot counts as in flight for the budget test of the next, exactly as one gate per slot would.
   */
  async function beginTasks(inputs: BeginTaskInput[]): Promise<Gate[]> {
    const roundId = inputs[0]?.roundId;
    if (roundId === undefined) return [];
    if (inputs.some((i) => i.roundId !== roundId)) throw new Error('one gate transaction serves one round');
    const ids = inputs.map((i) => taskIdFor(i.roundId, i.skillId, i.taskIndex));
    const fixed = await fixedRound(roundId);
    const { settings } = fixed;
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`round:${roundId}`}))`);
      const skillIds = [...new Set(inputs.map((i) => i.skillId))];
      const state = await readGateState(tx, roundId, fixed, ids, skillIds);
      if (!state) throw new Error(`round ${roundId} does not exist`);
      const gates: (Gate | undefined)[] = inputs.map((input, i) => {
        const status = state.existing.get(ids[i]!);
        if (status === 'accepted' || status === 'rejected') return { status: 'done' };
        if (input.onlyFailed && status !== undefined && status !== 'failed') return { status: 'done' };
        return undefined;
      });
      const open = gates.flatMap((g, i) => (g ? [] : [i]));
      const answer = () => gates.map((g) => g ?? ({ status: 'done' } as const));
      const stopAll = (reason: StopReason) => {
        for (const i of open) gates[i] = { status: 'stop', reason };
        return answer();
      };
      if (open.length === 0) return answer();
      if (state.status === 'cancelled') return stopAll('cancelled');
      if (state.status === 'paused_error_rate') return stopAll('paused_error_rate');
      let admitted = open;
      if (fixed.budgetUsd !== null) {
        let running = state.inflight;
        admitted = [];
        for (const i of open) {
          if (state.spend + (running + 1) * settings.reservationUsd > fixed.budgetUsd) {
            gates[i] = { status: 'stop', reason: 'budget_exhausted' };
          } else {
            running++;
            admitted.push(i);
          }
        }
        if (admitted.length === 0) return answer();
      }
      const { recent } = state;
      if (recent.length >= settings.pauseWindow) {
        const bad = recent.filter((t) => t.status !== 'accepted').length;
        if (bad / recent.length > settings.pauseRejectRate) {
          const pauseReason = pauseReasonOf(recent);
          await tx
            .update(rounds)
            .set({
              status: 'paused_error_rate',
              progress: sql`${rounds.progress} || jsonb_build_object('pauseReason', ${pauseReason}::text)`,
            })
            .where(eq(rounds.id, roundId));
          for (const i of admitted) gates[i] = { status: 'stop', reason: 'paused_error_rate' };
          return answer();
        }
      }
      const { planned } = state;
      const startedAt = new Date();
      const rows = admitted.map((i) => {
        const input = inputs[i]!;
        const taskSeed = deriveSeed(fixed.seed, input.skillId, input.taskIndex);
        const level = levelFor(
          settings.levelMix,
          planned.get(input.skillId) ?? settings.tasksPerSkill,
          input.taskIndex,
          deriveSeed(fixed.seed, input.skillId),
        );
        gates[i] = { status: 'run', task: { ...input, taskId: ids[i]!, taskSeed, level } };
        return { id: ids[i]!, input, taskSeed, level };
      });
      // Column arrays, not a row of parameters per task: the query builder's work for a batch's
      // rows had been ~2 % of the worker's CPU. A slot run again starts over as running.
      const column = <T>(f: (r: (typeof rows)[number]) => T) => sql.param(rows.map(f));
      await tx.execute(sql`
        INSERT INTO tasks (id, round_id, skill_id, spec_version, task_index, seed, apps, instruction_level, status, started_at)
        SELECT u.id, ${roundId}, u.skill_id, u.spec_version, u.task_index, u.seed, '{}', u.level, 'running', ${startedAt}
        FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.input.skillId)}::text[],
          ${column((r) => r.input.specVersion)}::int[], ${column((r) => r.input.taskIndex)}::int[],
          ${column((r) => r.taskSeed)}::int[], ${column((r) => r.level)}::text[])
          AS u(id, skill_id, spec_version, task_index, seed, level)
        ON CONFLICT (id) DO UPDATE SET status = 'running', reject_reason = NULL, reject_node = NULL,
          reject_detail = NULL, started_at = excluded.started_at, finished_at = NULL`);
      return answer();
    });
  }

  /** Ends a task the pipeline did not end itself: failed (with its cause) or cancelled. */
  async function finishTask(
    task: TaskRef,
    outcome: TaskOutcome,
    detail?: string,
    cause?: { reason: string; node: string },
  ): Promise<void> {
    await finishTaskRecord(deps.database, task.taskId, outcome, {
      reason: outcome === 'failed' ? (cause?.reason ?? 'activity_failed') : outcome,
      node: cause?.node ?? 'workflow',
      detail: detail?.slice(0, 2000),
    });
  }

  async function loadRoundPlan(roundId: string, offset: number, limit: number): Promise<RoundPlanEntry[]> {
    return db
      .select({
        position: roundSkills.position,
        skillId: roundSkills.skillId,
        specVersion: roundSkills.specVersion,
        tasks: roundSkills.tasks,
      })
      .from(roundSkills)
      .where(and(eq(roundSkills.roundId, roundId), gte(roundSkills.position, offset)))
      .orderBy(asc(roundSkills.position))
      .limit(limit);
  }

  async function computeProgress(roundId: string, statusOverride?: RoundStatus): Promise<RoundProgress> {
    const round = await roundRow(roundId);
    const counts = await db.execute<{ status: string; reason: string | null; n: number }>(sql`
      SELECT status, nullif(reject_reason, '') AS reason, sum(tasks)::int AS n FROM task_status_rollup
      WHERE round_id = ${roundId} GROUP BY status, reject_reason`);
    const plan = await db.execute<{ skills: number; planned: number }>(sql`
      SELECT count(*)::int AS skills, coalesce(sum(tasks), 0)::int AS planned FROM round_skills WHERE round_id = ${roundId}`);
    const skillsDone = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (
        SELECT rs.skill_id FROM round_skills rs
        JOIN tasks t ON t.round_id = rs.round_id AND t.skill_id = rs.skill_id AND t.status IN ('accepted','rejected','failed')
        WHERE rs.round_id = ${roundId} GROUP BY rs.skill_id, rs.tasks HAVING count(*) >= rs.tasks) s`);
    const spendUsd = await roundSpend(db, roundId);
    const by: Record<string, number> = { accepted: 0, rejected: 0, failed: 0, cancelled: 0, running: 0 };
    const rejectedByReason: Record<string, number> = {};
    const failedByReason: Record<string, number> = {};
    for (const c of counts.rows) {
      by[c.status] = (by[c.status] ?? 0) + c.n;
      if (c.status === 'rejected' && c.reason)
        rejectedByReason[c.reason] = (rejectedByReason[c.reason] ?? 0) + c.n;
      if (c.status === 'failed')
        failedByReason[c.reason ?? 'activity_failed'] =
          (failedByReason[c.reason ?? 'activity_failed'] ?? 0) + c.n;
    }
    const done = by.accepted! + by.rejected! + by.failed!;
    const planned = plan.rows[0]?.planned ?? 0;
    const recorded = done + by.cancelled! + by.running!;
    const pauseReason = (round.progress as { pauseReason?: string }).pauseReason;
    const status = statusOverride ?? (round.status as RoundStatus);
    const elapsed = (Date.now() - round.createdAt.getTime()) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    return {
      status,
      skillsTotal: plan.rows[0]?.skills ?? 0,
      skillsDone: skillsDone.rows[0]?.n ?? 0,
      tasksPlanned: planned,
      tasksDone: done,
      accepted: by.accepted!,
      rejected: by.rejected!,
      failed: by.failed!,
      cancelled: by.cancelled!,
      running: by.running!,
      notStarted: Math.max(0, planned - recorded),
      rejectedByReason,
      failedByReason,
      ...(status === 'paused_error_rate' && pauseReason ? { pauseReason } : {}),
      spendUsd,
      budgetUsd: round.budgetUsd,
      tasksPerSecond: Math.round(rate * 100) / 100,
      etaSeconds: rate > 0 ? Math.round(Math.max(0, planned - done) / rate) : null,
      updatedAt: new Date().toISOString(),
    };
  }

  /** Progress from Postgres (the truth), mirrored into the round row for the API and the CLI. */
  async function refreshRoundProgress(roundId: string): Promise<RoundProgress> {
    const progress = await computeProgress(roundId);
    await db
      .update(rounds)
      .set({ progress: mergeProgress(progress) })
      .where(eq(rounds.id, roundId));
    return progress;
  }

  /** Skills of the plan with a slot that failed or never started: what `retry-failed` re-runs. */
  async function loadFailedPlan(roundId: string, offset: number, limit: number): Promise<RoundPlanEntry[]> {
    const r = await db.execute<RoundPlanEntry & Record<string, unknown>>(sql`
      SELECT rs.position, rs.skill_id AS "skillId", rs.spec_version AS "specVersion", rs.tasks
      FROM round_skills rs
      WHERE rs.round_id = ${roundId} AND rs.position >= ${offset}
        AND (SELECT count(*) FROM tasks t WHERE t.round_id = rs.round_id AND t.skill_id = rs.skill_id
               AND t.status IN ('accepted', 'rejected', 'cancelled')) < rs.tasks
      ORDER BY rs.position LIMIT ${limit}`);
    return r.rows;
  }

  async function setRoundStatus(roundId: string, status: RoundStatus): Promise<void> {
    const set: Record<string, unknown> = { status };
    if (status === 'running') {
      // The error-rate window restarts after a resume, so old failures do not pause it again at once.
      set.progress = sql`${rounds.progress} || jsonb_build_object('resumedAt', ${new Date().toISOString()}::text)`;
    }
    await db.update(rounds).set(set).where(eq(rounds.id, roundId));
  }

  async function finishRound(roundId: string, status: RoundStatus): Promise<RoundProgress> {
    // Anything still marked running can only be a task whose workflow was cancelled mid-step.
    await db
      .update(tasks)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(and(eq(tasks.roundId, roundId), eq(tasks.status, 'running')));
    let progress = await computeProgress(roundId, status);
    // A round is completed only when every planned slot ended accepted, rejected or cancelled.
    if (status === 'completed' && (progress.failed > 0 || progress.notStarted > 0))
      progress = { ...progress, status: 'completed_with_failures' };
    await db
      .update(rounds)
      .set({ status: progress.status, progress: mergeProgress(progress), finishedAt: new Date() })
      .where(eq(rounds.id, roundId));
    return progress;
  }

  return {
    beginTask,
    beginTasks,
    finishTask,
    loadRoundPlan,
    loadFailedPlan,
    refreshRoundProgress,
    setRoundStatus,
    finishRound,
  };
}
