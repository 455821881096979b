import type { TaskRef } from '../activities/types.ts';

/** What one stage answers: a rejecting stage has already recorded its reason on the task. */
export interface StageResult {
  ok: boolean;
}

/**
 * The stages of one task, as functions: the skill workflow passes activity proxies (each stage on
 * its own task queue), the local runner of `forge skills try` passes the activities themselves.
 */
export interface TaskStages {
  authorTask(task: TaskRef): Promise<StageResult>;
  prepareTask(task: TaskRef): Promise<StageResult & { office?: boolean }>;
  officeVerify(task: TaskRef): Promise<StageResult>;
  judgeTask(task: TaskRef): Promise<StageResult>;
  packageTask(task: TaskRef): Promise<StageResult>;
  /**
   * Judge, then package when the judge accepts, as one stage: one activity round trip instead of
   * two (both are I/O-light; the skill workflow runs it on the LLM queue). Absent: two stages.
   */
  judgeAndPackage?(task: TaskRef): Promise<StageResult>;
  /**
   * Author through package as one stage (the skill workflow's `fused` mode): `office` means the task
   * stopped after prepare because it has office files, and the office round trip and judge with
   * package follow as their own stages; otherwise the task has ended, accepted when `ok`.
   */
  authorToPackage?(task: TaskRef): Promise<StageResult & { office?: boolean }>;
}

/**
 * The task pipeline, written once: author → prepare and check → LibreOffice round trip (office
 * files only) → judge → package (judge and package as one stage when the runner folds them; every
 * stage but the office round trip as one when it fuses them). Pure sequencing, no I/O, so it runs
 * inside a workflow.
 */
export async function runTaskPipeline(stages: TaskStages, task: TaskRef): Promise<'accepted' | 'rejected'> {
  if (stages.authorToPackage) return afterFusedStage(stages, task, await stages.authorToPackage(task));
  if (!(await stages.authorTask(task)).ok) return 'rejected';
  const prepared = await stages.prepareTask(task);
  if (!prepared.ok) return 'rejected';
  return afterPrepare(stages, task, prepared.office === true);
}

/**
 * The rest of a task's pipeline once its fused stage (author through package) has answered, by
 * itself or as one task of a batch: done, or on to the office round trip, judge and package.
 */
export async function afterFusedStage(
  stages: TaskStages,
  task: TaskRef,
  fused: StageResult & { office?: boolean },
): Promise<'accepted' | 'rejected'> {
  if (!fused.ok) return 'rejected';
  if (!fused.office) return 'accepted';
  return afterPrepare(stages, task, true);
}

async function afterPrepare(
  stages: TaskStages,
  task: TaskRef,
  office: boolean,
): Promise<'accepted' | 'rejected'> {
  if (office && !(await stages.officeVerify(task)).ok) return 'rejected';
  if (stages.judgeAndPackage) return (await stages.judgeAndPackage(task)).ok ? 'accepted' : 'rejected';
  if (!(await stages.judgeTask(task)).ok) return 'rejected';
  return (await stages.packageTask(task)).ok ? 'accepted' : 'rejected';
}
