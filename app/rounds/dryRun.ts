import { eq } from 'drizzle-orm';
import { createOfficeActivities } from '../../activities/office.ts';
import { createPrepareActivities, type RubricStats } from '../../activities/prepare.ts';
import { createRoundActivities } from '../../activities/round.ts';
import { roundSettingsSchema } from '../../activities/roundSettings.ts';
import { createSegmentActivities } from '../../activities/segments.ts';
import type { TaskOutcome, TaskRef } from '../../activities/types.ts';
import { roundSkills, rounds, tasks } from '../../infra/db/schema.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { type PipelineRunner, runFusedPipeline } from '../../taskcore/pipeline.ts';
import type { MutantReport } from '../../taskcore/verify/mutants.ts';
import type { RightVerdict } from '../../taskcore/verify/rightSolutions.ts';
import type { WrongVerdict } from '../../taskcore/verify/wrongSolutions.ts';
import type { Runtime } from '../runtime.ts';
import { newRoundId } from './start.ts';

export interface DryRunTask {
  taskId: string;
  outcome: TaskOutcome;
  reason: string | null;
  node: string | null;
  detail: string | null;
  instruction: string | null;
  /** Each wrong solution tried on the task and whether the rubric rejected it (killed). */
  wrong: WrongVerdict[];
  /** The mutation adversary's findings on the task (absent when verification stopped before it). */
  mutants?: MutantReport;
  /** Each correct alternative tried on the task and whether the rubric passed it. */
  right: RightVerdict[];
  level: string | null;
}

export interface DryRunResult {
  roundId: string;
  skillId: string;
  specVersion: number;
  tasks: DryRunTask[];
  passed: boolean;
  /** Set when the judge is the offline model, which reads no meaning: say so rather than pass silently. */
  judgeNotice?: string;
}

export const OFFLINE_JUDGE_NOTICE =
  'the judge is the offline model: it does not read meaning. These tasks were checked by the instruction rules (prose, leftovers, file named, cell addresses by level, every expected literal given) and the machine checks only; whether the instruction asks for what the rubric checks (e.g. "sum" against a MAX check) needs a real judge model (FORGE_LLM_API_KEY).';

/**
 * Runs a spec's tasks through the task pipeline a round runs (workflows/pipeline.ts, the same
 * activity code) in this process, without Temporal: `forge skills try` for a skill author at a
 * terminal. Every task must be accepted. It records a `dry_run` round, so its LLM spend lands in
 * the ledger like any other. (Taxonomy expansion gates its specs through real skill workflows.)
 */
export async function dryRunSpec(
  runtime: Runtime,
  spec: SkillSpec,
  opts: {
    tasks?: number;
    seed?: number;
    source?: 'file' | 'expansion';
    status?: string;
    expansionRunId?: string;
  } = {},
): Promise<DryRunResult> {
  if (!runtime.llm) throw new Error('a dry run needs the LLM client: create the runtime with { llm: true }');
  const n = opts.tasks ?? 3;
  const specVersion = await runtime.specs.put(
    spec,
    opts.source ?? 'file',
    opts.expansionRunId,
    opts.status ?? 'active',
  );
  const roundId = `dry-${newRoundId()}`;
  const { db } = runtime.database;
  await db.insert(rounds).values({
    id: roundId,
    status: 'running',
    kind: 'dry_run',
    seed: opts.seed ?? 7,
    settings: roundSettingsSchema.parse({ tasksPerSkill: n, window: 1, taskConcurrency: 1 }),
    workflowId: `in-process:${roundId}`,
  });
  await db.insert(roundSkills).values({ roundId, position: 0, skillId: spec.id, specVersion, tasks: n });
  const round = createRoundActivities(runtime);
  const llm = createSegmentActivities(runtime);
  const prepare = createPrepareActivities(runtime);
  const office = createOfficeActivities(runtime);
  // The composition production rounds run (the skill workflow's fused mode), with the activities called in process.
  const runner: PipelineRunner<TaskRef> = {
    stages: {
      authorTask: llm.authorTask,
      prepareTask: prepare.prepareTask,
      officeVerify: office.officeVerify,
      judgeTask: llm.judgeTask,
      packageTask: prepare.packageTask,
    },
    segments: { finish: llm.judgeAndPackage },
  };
  const results: DryRunTask[] = [];
  for (let taskIndex = 0; taskIndex < n; taskIndex++) {
    const gate = await round.beginTask({ roundId, skillId: spec.id, specVersion, taskIndex });
    if (gate.status !== 'run')
      throw new Error(`dry run gate refused task ${taskIndex}: ${JSON.stringify(gate)}`);
    const task = gate.task;
    let outcome: TaskOutcome;
    try {
      outcome = await runFusedPipeline(runner, llm.authorToPackage, task);
    } catch (err) {
      outcome = 'failed';
      await round.finishTask(task, 'failed', err instanceof Error ? err.message : String(err));
    }
    const row = (await db.select().from(tasks).where(eq(tasks.id, task.taskId)))[0]!;
    results.push({
      taskId: task.taskId,
      outcome,
      reason: row.rejectReason,
      node: row.rejectNode,
      detail: row.rejectDetail,
      instruction: row.instruction,
      wrong: ((row.rubricStats as RubricStats | null)?.wrong ?? []).map((w) => ({ ...w })),
      right: ((row.rubricStats as RubricStats | null)?.right ?? []).map((r) => ({ ...r })),
      ...((row.rubricStats as RubricStats | null)?.mutants
        ? { mutants: (row.rubricStats as RubricStats).mutants }
        : {}),
      level: row.instructionLevel,
    });
  }
  const passed = results.every((r) => r.outcome === 'accepted');
  await round.finishRound(roundId, 'completed');
  return {
    roundId,
    skillId: spec.id,
    specVersion,
    tasks: results,
    passed,
    ...(runtime.config.llmApiKey ? {} : { judgeNotice: OFFLINE_JUDGE_NOTICE }),
  };
}
