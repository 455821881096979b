import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  isCancellation,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  BatchedResult,
  Gate,
  SkillRunSummary,
  StopReason,
  TaskOutcome,
  TaskRef,
} from '../activities/types.ts';
import {
  afterFused,
  type PipelineRunner,
  runFusedPipeline,
  runTaskPipeline,
  type TaskStages,
} from '../taskcore/pipeline.ts';
import { activitiesFor, type QueueInput } from './activityProxies.ts';

export interface SkillWorkflowInput {
  roundId: string;
  skillId: string;
  specVersion: number;
  tasks: number;
  /** Tasks of this skill in flight at once (1 = one after another). */
  taskConcurrency: number;
  queues: QueueInput;
  /**
   * `fused`: author, prepare, judge and package as one activity on the pipeline queue (the office round
   * trip and, after it, judge with package stay separate). `split` (and histories begun before the
   * field existed): one activity per stage, each on its own queue.
   */
  stages?: TaskStageMode;
  /**
   * In `fused` mode, up to this many of the skill's tasks in flight share one fused activity (one
   * activity round trip through Temporal for all of them); absent or 1: one activity per task.
   */
  taskBatch?: number;
  /** Continue as new past this many history events (tests lower it to exercise the hand-over). */
  maxHistoryEvents?: number;
  /** Run only the slots that ended failed or never started (`forge round retry-failed`). */
  onlyFailed?: boolean;
  /** Carried across continue-as-new. */
  nextIndex?: number;
  summary?: SkillRunSummary;
}

/** Workflow id of a skill run, as the product promises it: round-<roundId>/skill-<skillId>. */
export function skillWorkflowId(roundId: string, skillId: string): string {
  return `round-${roundId}/skill-${skillId}`;
}

const HISTORY_LIMIT = 8000;

export type TaskStageMode = 'fused' | 'split';

/** Patch id of the round gate as a local activity (no activity task through the server per slot). */
const LOCAL_ROUND_GATE = 'round-gate-local-activity';

/** Patch id of the judge-and-package fold (one activity on the pipeline queue instead of two). */
const FOLD_JUDGE_AND_PACKAGE = 'judge-and-package-one-activity';

/** Patch id of fused tasks batched into one activity. */
const BATCH_FUSED_TASKS = 'fused-tasks-batched';

/** The activity failure's own type: a service outage that outlasted every retry is told apart. */
function failureCause(err: unknown): { reason: string; node: string } {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof ApplicationFailure && e.type === 'ServiceUnavailable')
      return { reason: `service_unavailable:${String(e.details?.[0] ?? 'unknown')}`, node: 'workflow' };
  }
  return { reason: 'activity_failed', node: 'workflow' };
}

/**
 * An activity's failure says only "Activity task failed"; the error that explains it is its cause.
 * The task's record keeps the whole chain, outermost first.
 */
function failureDetail(err: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = err; e !== undefined && messages.length < 5; e = (e as Error).cause) {
    const message = e instanceof Error ? e.message : String(e);
    if (message && !messages.includes(message)) messages.push(message);
    if (!(e instanceof Error)) break;
  }
  return messages.join(': ');
}

/**
 * Runs one atomic skill's spec for a number of tasks: round gate, then the task pipeline
 * (pipeline.ts) with each stage on its own queue: author, and judge with package (one activity),
 * on the pipeline queue; prepare on the prepare queue; the LibreOffice round trip on the office queue.
 * Each stage that rejects records its reason itself; this workflow only sequences and counts.
 */
export async function skillWorkflow(input: SkillWorkflowInput): Promise<SkillRunSummary> {
  const acts = activitiesFor(input.queues);
  const summary: SkillRunSummary = input.summary ?? {
    skillId: input.skillId,
    stopped: 'completed',
    started: 0,
    outcomes: { accepted: 0, rejected: 0, failed: 0, cancelled: 0 },
  };
  let next = input.nextIndex ?? 0;
  let stop: StopReason | undefined;
  const inFlight = new Set<Promise<void>>();

  const stages: TaskStages<TaskRef> = {
    authorTask: (t) => acts.pipeline.authorTask(t),
    prepareTask: (t) => acts.prepare.prepareTask(t),
    officeVerify: (t) => acts.office.officeVerify(t),
    judgeTask: (t) => acts.pipeline.judgeTask(t),
    packageTask: (t) => acts.prepare.packageTask(t),
  };
  // One activity per stage (histories begun before the fold), or the finish segment as one.
  const split: PipelineRunner<TaskRef> = { stages };
  const folded: PipelineRunner<TaskRef> = {
    stages,
    segments: { finish: (t) => acts.pipeline.judgeAndPackage(t) },
  };
  const fused = (t: TaskRef) => acts.pipeline.authorToPackage(t);

  const slot = (taskIndex: number) => ({
    roundId: input.roundId,
    skillId: input.skillId,
    specVersion: input.specVersion,
    taskIndex,
    ...(input.onlyFailed ? { onlyFailed: true } : {}),
  });

  /** The round gate for one slot: the task to run, or nothing (done, or the round says stop). */
  const gateSlot = async (taskIndex: number): Promise<TaskRef | undefined> => {
    // Histories written before the local gate replay with the gate as an activity of the prepare queue.
    const gateActivity = patched(LOCAL_ROUND_GATE) ? acts.localRound : acts.round;
    return admit(await gateActivity.beginTask(slot(taskIndex)));
  };

  /** What the gate answered for a slot: the task to run, or nothing, noting a stop. */
  const admit = (gate: Gate): TaskRef | undefined => {
    if (gate.status === 'stop') {
      stop ??= gate.reason;
      return undefined;
    }
    if (gate.status === 'done') return undefined;
    summary.started++;
    return gate.task;
  };

  const runIndex = async (taskIndex: number): Promise<void> => {
    const task = await gateSlot(taskIndex);
    if (!task) return;
    // Histories written before the fold replay as they ran: judge and package as two activities.
    if (input.stages === 'fused') await settle(task, () => runFusedPipeline(folded, fused, task));
    else await settle(task, () => runTaskPipeline(patched(FOLD_JUDGE_AND_PACKAGE) ? folded : split, task));
  };

  /**
   * Several slots whose fused stages run as one activity; every task then goes on by itself (office
   * round trip, judge with package). A task whose part of the batch threw runs again alone, with
   * the single activity's retries. Each slot is its own promise, so a slot frees when its task ends.
   */
  const runBatch = (indices: number[]): Promise<void>[] => {
    // One gate transaction for the batch's slots.
    const ready = acts.localRound.beginTasks(indices.map(slot)).then(async (gates) => {
      const gated = gates.map(admit);
      const batch = gated.filter((t): t is TaskRef => t !== undefined);
      const results: Promise<BatchedResult[]> =
        batch.length > 0 ? acts.pipeline.authorToPackageBatch(batch) : Promise.resolve([]);
      // Settled here so a failed batch is each of its tasks' failure, not an unhandled rejection.
      const answered = await results.then(
        (r) => ({ ok: true as const, r }),
        (err: unknown) => ({ ok: false as const, err }),
      );
      return { gated, answered, batch };
    });
    return indices.map(async (_, i) => {
      const { gated, answered, batch } = await ready;
      const task = gated[i];
      if (!task) return;
      await settle(task, async () => {
        if (!answered.ok) throw answered.err;
        const result = answered.r[batch.indexOf(task)]!;
        return 'error' in result ? runFusedPipeline(folded, fused, task) : afterFused(folded, task, result);
      });
    });
  };

  /** Runs a started task's pipeline and counts its outcome; a failure or cancel is recorded on the task. */
  const settle = async (task: TaskRef, pipeline: () => Promise<'accepted' | 'rejected'>): Promise<void> => {
    let outcome: TaskOutcome;
    try {
      outcome = await pipeline();
    } catch (err) {
      outcome = isCancellation(err) ? 'cancelled' : 'failed';
      const detail = failureDetail(err);
      // Record the end even while the workflow is being cancelled: no task is left "running".
      const cause = outcome === 'failed' ? failureCause(err) : undefined;
      await CancellationScope.nonCancellable(() => acts.round.finishTask(task, outcome, detail, cause));
      if (outcome === 'cancelled') stop ??= 'cancelled';
    }
    summary.outcomes[outcome]++;
  };

  const historyFull = () =>
    workflowInfo().continueAsNewSuggested ||
    workflowInfo().historyLength > (input.maxHistoryEvents ?? HISTORY_LIMIT);
  const track = (work: Promise<void>) => {
    const p: Promise<void> = work.finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  // Decided once per run; histories begun before batching replay with one activity per task.
  const batchSize =
    input.stages === 'fused' && (input.taskBatch ?? 1) > 1 && patched(BATCH_FUSED_TASKS)
      ? input.taskBatch!
      : 1;
  try {
    while (true) {
      while (next < input.tasks && !stop && inFlight.size < input.taskConcurrency && !historyFull()) {
        const size = Math.min(batchSize, input.taskConcurrency - inFlight.size, input.tasks - next);
        // A batch of one is a task of its own: the single activity, without the batch's status read.
        if (size === 1) {
          track(runIndex(next++));
          continue;
        }
        const indices = Array.from({ length: size }, (_, i) => next + i);
        next += size;
        for (const work of runBatch(indices)) track(work);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    stop = 'cancelled';
    await CancellationScope.nonCancellable(() => Promise.allSettled([...inFlight]));
  }
  if (!stop && next < input.tasks) {
    // History is large: carry on in a fresh run with the same workflow id.
    await continueAsNew<typeof skillWorkflow>({ ...input, nextIndex: next, summary });
  }
  summary.stopped = stop ?? 'completed';
  return summary;
}
