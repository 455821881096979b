/**
 * The contract between workflows and activities. Workflows import these types only; payloads are
 * small (ids, keys, verdicts), never file contents.
 */
export type StopReason = 'budget_exhausted' | 'paused_error_rate' | 'cancelled';

export interface TaskRef {
  roundId: string;
  skillId: string;
  specVersion: number;
  taskIndex: number;
  taskId: string;
  taskSeed: number;
  /** Instruction specificity chosen for this task from the round's mix (skills/levels.ts). */
  level?: 'explicit' | 'natural' | 'goal';
}

export interface BeginTaskInput {
  roundId: string;
  skillId: string;
  specVersion: number;
  taskIndex: number;
  /** Start the slot only if it ended failed or never started; any other slot answers 'done'. */
  onlyFailed?: boolean;
}

export type Gate =
  | { status: 'run'; task: TaskRef }
  | { status: 'done' }
  | { status: 'stop'; reason: StopReason };

export type StepResult = { ok: true } | { ok: false; reason: string; node: string; detail: string };
export type PrepareResult = StepResult & { office?: boolean };
/**
 * One task's answer from a batch of fused tasks: its result, or the error it threw, for the workflow
 * to run that task once more on its own (with the single activity's retry policy and error kinds).
 */
export type BatchedResult = PrepareResult | { error: string };

export type TaskOutcome = 'accepted' | 'rejected' | 'failed' | 'cancelled';

export interface RoundPlanEntry {
  position: number;
  skillId: string;
  specVersion: number;
  tasks: number;
}

export type RoundStatus =
  | 'running'
  | 'completed'
  /** Every slot ended, but some failed or never started: `forge round retry-failed` re-runs them. */
  | 'completed_with_failures'
  | 'cancelled'
  | 'budget_exhausted'
  | 'paused_error_rate'
  | 'failed';

export interface RoundProgress {
  status: RoundStatus;
  skillsTotal: number;
  skillsDone: number;
  tasksPlanned: number;
  tasksDone: number;
  accepted: number;
  rejected: number;
  failed: number;
  cancelled: number;
  running: number;
  /** Planned slots with no task record at all (never started). */
  notStarted: number;
  rejectedByReason: Record<string, number>;
  /** Failures by cause, e.g. `service_unavailable:minio` or `activity_failed`. */
  failedByReason: Record<string, number>;
  /** Why the round paused, when it did: the error rate, or the service that was down. */
  pauseReason?: string;
  spendUsd: number;
  budgetUsd: number | null;
  tasksPerSecond: number;
  etaSeconds: number | null;
  updatedAt: string;
}

export interface SkillRunSummary {
  skillId: string;
  stopped: 'completed' | StopReason;
  started: number;
  outcomes: Record<TaskOutcome, number>;
}
