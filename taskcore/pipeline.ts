/**
 * The order of a task's stages, written once. Every runner walks it: the skill workflow (stages as
 * activities on their queues), the fused activity (the stages in process, up to the office check),
 * `forge skills try`, the expansion gate (a skill workflow) and the floor benchmark. Pure sequencing,
 * no I/O and no imports, so the workflow bundle can carry it (infra/temporal/workflowBundle.ts).
 */

/** What one stage answers: a rejecting stage has already recorded its reason on the task. */
export interface StageResult {
  ok: boolean;
}

/** The prepare stage also says whether the task has office files (the office segment runs only then). */
export type PrepareAnswer = StageResult & { office?: boolean };

/** The stages of one task, as functions of the task. */
export interface TaskStages<T> {
  authorTask(task: T): Promise<StageResult>;
  prepareTask(task: T): Promise<PrepareAnswer>;
  officeVerify(task: T): Promise<StageResult>;
  judgeTask(task: T): Promise<StageResult>;
  packageTask(task: T): Promise<StageResult>;
}

export type StageName = keyof TaskStages<unknown>;

export interface Segment {
  name: 'draft' | 'office' | 'finish';
  stages: readonly StageName[];
  /**
   * The segment runs on a queue of its own (the LibreOffice round trip), and only for a task with
   * office files: an in-process runner hands the task back before it.
   */
  ownQueue?: true;
}
export type SegmentName = Segment['name'];

/** Author → prepare and check | LibreOffice round trip (office files only) | judge → package. */
export const SEGMENTS: readonly Segment[] = [
  { name: 'draft', stages: ['authorTask', 'prepareTask'] },
  { name: 'office', stages: ['officeVerify'], ownQueue: true },
  { name: 'finish', stages: ['judgeTask', 'packageTask'] },
];

export type Outcome = 'accepted' | 'rejected';

/** Where an in-process run stopped: the task ended, or it waits for the segment on its own queue. */
export type RunResult = Outcome | { handoff: SegmentName };

export interface PipelineRunner<T> {
  stages: TaskStages<T>;
  /** A segment answered by one call instead of stage by stage (the finish segment as one activity). */
  segments?: Partial<Record<SegmentName, (task: T) => Promise<StageResult>>>;
}

/**
 * Runs a task's segments in order from `from` (default: the first). `office` says whether the task
 * has office files when the run starts after prepare. With `inProcess`, the run stops before a
 * segment on its own queue and answers `{handoff}`; otherwise every segment runs.
 */
export async function runSegments<T>(
  runner: PipelineRunner<T>,
  task: T,
  opts: { from?: SegmentName; office?: boolean; inProcess?: boolean } = {},
): Promise<RunResult> {
  let office = opts.office ?? false;
  const start = opts.from ? SEGMENTS.findIndex((s) => s.name === opts.from) : 0;
  for (const segment of SEGMENTS.slice(start)) {
    if (segment.ownQueue && !office) continue;
    if (segment.ownQueue && opts.inProcess) return { handoff: segment.name };
    const whole = runner.segments?.[segment.name];
    if (whole) {
      if (!(await whole(task)).ok) return 'rejected';
      continue;
    }
    for (const stage of segment.stages) {
      const answer: PrepareAnswer = await runner.stages[stage](task);
      if (!answer.ok) return 'rejected';
      if (stage === 'prepareTask') office = answer.office === true;
    }
  }
  return 'accepted';
}

/** Every segment, each through its runner: the split composition (one activity per stage or segment). */
export async function runTaskPipeline<T>(runner: PipelineRunner<T>, task: T): Promise<Outcome> {
  return (await runSegments(runner, task)) as Outcome;
}

/**
 * The fused composition, as production rounds run it: one call runs the segments in process up to
 * the office check (`fused`, answering `office` when it handed the task over), then the rest go
 * through the runner from the segment it stopped before.
 */
export async function runFusedPipeline<T>(
  runner: PipelineRunner<T>,
  fused: (task: T) => Promise<PrepareAnswer>,
  task: T,
): Promise<Outcome> {
  return afterFused(runner, task, await fused(task));
}

/** The rest of the fused composition once its in-process call (alone or in a batch) has answered. */
export async function afterFused<T>(
  runner: PipelineRunner<T>,
  task: T,
  answer: PrepareAnswer,
): Promise<Outcome> {
  if (!answer.ok) return 'rejected';
  if (!answer.office) return 'accepted';
  const handoff = SEGMENTS.find((s) => s.ownQueue)!.name;
  return (await runSegments(runner, task, { from: handoff, office: true })) as Outcome;
}

/** The in-process call of the fused composition: the stages in process, handing over at the office check. */
export async function runInProcess<T>(stages: TaskStages<T>, task: T): Promise<PrepareAnswer> {
  const result = await runSegments({ stages }, task, { inProcess: true });
  if (typeof result === 'object') return { ok: true, office: true };
  return { ok: result === 'accepted' };
}
