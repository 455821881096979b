import {
  CancellationScope,
  type ChildWorkflowHandle,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  isCancellation,
  ParentClosePolicy,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { RoundPlanEntry, RoundProgress, RoundStatus, SkillRunSummary } from '../activities/types.ts';
import { activitiesFor, type QueueInput } from './activityProxies.ts';
import { skillWorkflow, skillWorkflowId, type TaskStageMode } from './skill.ts';

export interface RoundWorkflowInput {
  roundId: string;
  /** At most this many skill workflows run at once (the sliding window). */
  window: number;
  taskConcurrency: number;
  queues: QueueInput;
  /** How each task's stages map onto activities (skill.ts); absent: `split`. */
  stages?: TaskStageMode;
  /** Fused tasks of a skill sharing one activity (skill.ts); absent: one each. */
  taskBatch?: number;
  progressEverySeconds?: number;
  /** Continue as new past this many history events (tests lower it to exercise the hand-over). */
  maxHistoryEvents?: number;
  /** Re-run only the slots that failed or never started, with their seeds (`forge round retry-failed`). */
  onlyFailed?: boolean;
  /** Carried across continue-as-new. */
  offset?: number;
  retry?: RoundPlanEntry[];
  stopReason?: RoundStatus;
}

export const progressQuery = defineQuery<RoundProgress | null>('progress');
export const cancelSignal = defineSignal('cancel');
export const resumeSignal = defineSignal('resume');

const PAGE = 200;
const HISTORY_LIMIT = 10_000;

export function roundWorkflowId(roundId: string): string {
  return `round-${roundId}`;
}

/**
 * One generation round: pages through the round's skill plan (kept in Postgres, so a round of
 * 10,000 skills has a small history), runs one child skill workflow per skill in a sliding window,
 * stops starting work on budget exhaustion or cancel, pauses on a high error rate until resumed,
 * and continues as new before its history grows large. Children are abandoned, never killed, when
 * this run closes, and the window is drained before continuing as new.
 */
export async function generationRound(input: RoundWorkflowInput): Promise<RoundProgress> {
  const acts = activitiesFor(input.queues);
  let progress: RoundProgress | null = null;
  let cancelled = false;
  let resumed = false;
  setHandler(progressQuery, () => progress);
  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  setHandler(resumeSignal, () => {
    resumed = true;
  });

  let offset = input.offset ?? 0;
  const retry: RoundPlanEntry[] = [...(input.retry ?? [])];
  let stopReason: RoundStatus | undefined = input.stopReason;
  let page: RoundPlanEntry[] = [];
  let pageEnd = false;
  const running = new Map<
    string,
    { handle: ChildWorkflowHandle<typeof skillWorkflow>; entry: RoundPlanEntry }
  >();
  const finished: { entry: RoundPlanEntry; summary: SkillRunSummary | null }[] = [];
  let loopDone = false;

  const refresher = (async () => {
    while (!loopDone) {
      progress = await acts.round.refreshRoundProgress(input.roundId);
      await condition(() => loopDone, `${input.progressEverySeconds ?? 2}s`);
    }
  })();

  const nextEntry = async (): Promise<RoundPlanEntry | undefined> => {
    if (retry.length > 0) return retry.shift();
    if (page.length === 0 && !pageEnd) {
      page = input.onlyFailed
        ? await acts.round.loadFailedPlan(input.roundId, offset, PAGE)
        : await acts.round.loadRoundPlan(input.roundId, offset, PAGE);
      pageEnd = page.length < PAGE;
    }
    const entry = page.shift();
    if (entry) offset = entry.position + 1;
    return entry;
  };

  const launch = async (entry: RoundPlanEntry) => {
    const workflowId = skillWorkflowId(input.roundId, entry.skillId);
    const handle = await startChild(skillWorkflow, {
      workflowId,
      taskQueue: input.queues.prepare,
      parentClosePolicy: ParentClosePolicy.ABANDON,
      args: [
        {
          roundId: input.roundId,
          skillId: entry.skillId,
          specVersion: entry.specVersion,
          tasks: entry.tasks,
          taskConcurrency: input.taskConcurrency,
          queues: input.queues,
          ...(input.stages ? { stages: input.stages } : {}),
          ...(input.taskBatch ? { taskBatch: input.taskBatch } : {}),
          ...(input.onlyFailed ? { onlyFailed: true } : {}),
        },
      ],
    });
    running.set(workflowId, { handle, entry });
    // A failed child counts as finished with no summary; the round goes on.
    handle.result().then(
      (summary) => completed.push({ id: workflowId, summary }),
      () => completed.push({ id: workflowId, summary: null }),
    );
  };

  const completed: { id: string; summary: SkillRunSummary | null }[] = [];
  const collect = () => {
    for (const done of completed.splice(0)) {
      const r = running.get(done.id);
      if (!r) continue;
      running.delete(done.id);
      finished.push({ entry: r.entry, summary: done.summary });
      const stopped = done.summary?.stopped;
      if (stopped === 'budget_exhausted') stopReason ??= 'budget_exhausted';
      if (stopped === 'paused_error_rate') retry.push(r.entry);
      if (stopped === 'cancelled' && !cancelled) retry.push(r.entry);
    }
  };
  const waitForOne = async () => {
    await condition(() => completed.length > 0);
    collect();
  };

  const cancelChildren = async () => {
    for (const id of running.keys())
      await getExternalWorkflowHandle(id)
        .cancel()
        .catch(() => undefined);
  };

  const historyFull = () =>
    workflowInfo().continueAsNewSuggested ||
    workflowInfo().historyLength > (input.maxHistoryEvents ?? HISTORY_LIMIT);
  let exhausted = false;
  let continueNow = false;
  try {
    while (true) {
      if (cancelled) {
        stopReason = 'cancelled';
        await cancelChildren();
        while (running.size > 0) await waitForOne();
        break;
      }
      const paused = finished.some((f) => f.summary?.stopped === 'paused_error_rate') && retry.length > 0;
      if (paused && running.size === 0) {
        await acts.round.setRoundStatus(input.roundId, 'paused_error_rate');
        progress = await acts.round.refreshRoundProgress(input.roundId);
        // A resume that arrived before this point (the gate paused the round first) counts.
        await condition(() => resumed || cancelled);
        resumed = false;
        finished.length = 0;
        if (!cancelled) await acts.round.setRoundStatus(input.roundId, 'running');
        continue;
      }
      // Fill the window, then start its children together: one start at a time caps throughput.
      const batch: RoundPlanEntry[] = [];
      while (
        !stopReason &&
        !paused &&
        !exhausted &&
        running.size + batch.length < input.window &&
        !historyFull()
      ) {
        const entry = await nextEntry();
        if (!entry) {
          exhausted = true;
          break;
        }
        batch.push(entry);
      }
      await Promise.all(batch.map(launch));
      if (running.size === 0) {
        continueNow = !stopReason && !exhausted && historyFull();
        break;
      }
      await condition(() => completed.length > 0 || cancelled);
      collect();
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    stopReason = 'cancelled';
  }
  loopDone = true;
  // A cancel through Temporal (UI, CLI) cancels this workflow's own scope: the refresher's timer
  // fails with it, and the round's record must still be closed, so the ending cannot be cancelled.
  await refresher.catch((err) => {
    if (!isCancellation(err)) throw err;
  });
  if (continueNow) {
    await continueAsNew<typeof generationRound>({ ...input, offset, retry, stopReason });
  }
  const status: RoundStatus = stopReason ?? 'completed';
  progress = await CancellationScope.nonCancellable(() => acts.round.finishRound(input.roundId, status));
  return progress;
}
