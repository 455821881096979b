import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  isCancellation,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import type { SkillRunSummary, StopReason, TaskOutcome } from '../activities/types.ts';
import { activitiesFor, type QueueNames } from './activityProxies.ts';
import { runTaskPipeline, type TaskStages } from './pipeline.ts';

export interface SkillWorkflowInput {
  roundId: string;
  skillId: string;
  specVersion: number;
  tasks: number;
  /** Tasks of this skill in flight at once (1 = one after another). */
  taskConcurrency: number;
  queues: QueueNames;
  /**
   * `fused`: author, prepare, judge and package as one activity on the LLM queue (the office round
   * trip and, after it, judge with package stay separate). `split` (and histories begun before the
   * field existed): one activity per stage, each on its own queue.
   */
  stages?: TaskStageMode;
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

/** Patch id of the judge-and-package fold (one activity on the LLM queue instead of two). */
const FOLD_JUDGE_AND_PACKAGE = 'judge-and-package-one-activity';

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
 * on the LLM queue; prepare on the prepare queue; the LibreOffice round trip on the office queue.
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

  const stages: TaskStages = {
    authorTask: (t) => acts.llm.authorTask(t),
    prepareTask: (t) => acts.prepare.prepareTask(t),
    officeVerify: (t) => acts.office.officeVerify(t),
    judgeTask: (t) => acts.llm.judgeTask(t),
    packageTask: (t) => acts.prepare.packageTask(t),
  };
  const folded: TaskStages = { ...stages, judgeAndPackage: (t) => acts.llm.judgeAndPackage(t) };
  const fused: TaskStages = { ...folded, authorToPackage: (t) => acts.llm.authorToPackage(t) };

  const runIndex = async (taskIndex: number): Promise<void> => {
    // Histories written before the local gate replay with the gate as an activity of the prepare queue.
    const gateActivity = patched(LOCAL_ROUND_GATE) ? acts.localRound : acts.round;
    const gate = await gateActivity.beginTask({
      roundId: input.roundId,
      skillId: input.skillId,
      specVersion: input.specVersion,
      taskIndex,
      ...(input.onlyFailed ? { onlyFailed: true } : {}),
    });
    if (gate.status === 'stop') {
      stop ??= gate.reason;
      return;
    }
    if (gate.status === 'done') return;
    summary.started++;
    let outcome: TaskOutcome;
    try {
      // Histories written before the fold replay as they ran: judge and package as two activities.
      const mode = input.stages === 'fused' ? fused : patched(FOLD_JUDGE_AND_PACKAGE) ? folded : stages;
      outcome = await runTaskPipeline(mode, gate.task);
    } catch (err) {
      outcome = isCancellation(err) ? 'cancelled' : 'failed';
      const detail = failureDetail(err);
      // Record the end even while the workflow is being cancelled: no task is left "running".
      const cause = outcome === 'failed' ? failureCause(err) : undefined;
      await CancellationScope.nonCancellable(() => acts.round.finishTask(gate.task, outcome, detail, cause));
      if (outcome === 'cancelled') stop ??= 'cancelled';
    }
    summary.outcomes[outcome]++;
  };

  const historyFull = () =>
    workflowInfo().continueAsNewSuggested ||
    workflowInfo().historyLength > (input.maxHistoryEvents ?? HISTORY_LIMIT);
  try {
    while (true) {
      while (next < input.tasks && !stop && inFlight.size < input.taskConcurrency && !historyFull()) {
        const p: Promise<void> = runIndex(next++).finally(() => inFlight.delete(p));
        inFlight.add(p);
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
