import { eq } from 'drizzle-orm';
import { createLlmStageActivities } from '../../activities/llmStage.ts';
import { createOfficeActivities } from '../../activities/office.ts';
import { createPrepareActivities } from '../../activities/prepare.ts';
import { createRoundActivities } from '../../activities/round.ts';
import { roundSettingsSchema } from '../../activities/roundSettings.ts';
import type { TaskOutcome } from '../../activities/types.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { roundSkills, rounds, tasks } from '../db/schema.ts';
import type { Runtime } from '../runtime.ts';
import { newRoundId } from './start.ts';

export interface DryRunTask {
  taskId: string;
  outcome: TaskOutcome;
  reason: string | null;
  node: string | null;
  detail: string | null;
  instruction: string | null;
}

export interface DryRunResult {
  roundId: string;
  skillId: string;
  specVersion: number;
  tasks: DryRunTask[];
  passed: boolean;
}

/**
 * Runs a spec's tasks through the very activity code a round uses — gate, authoring, prepare and
 * checks, LibreOffice round trip, judge, dedup, package — in this process, without Temporal. It is
 * the gate for new specs (skill authors, taxonomy expansion): every task must be accepted. It
 * records a `dry_run` round, so its LLM spend lands in the ledger like any other.
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
  const llm = createLlmStageActivities(runtime);
  const prepare = createPrepareActivities(runtime);
  const office = createOfficeActivities(runtime);
  const results: DryRunTask[] = [];
  for (let taskIndex = 0; taskIndex < n; taskIndex++) {
    const gate = await round.beginTask({ roundId, skillId: spec.id, specVersion, taskIndex });
    if (gate.status !== 'run')
      throw new Error(`dry run gate refused task ${taskIndex}: ${JSON.stringify(gate)}`);
    const task = gate.task;
    let outcome: TaskOutcome = 'rejected';
    try {
      const steps = [
        () => llm.authorTask(task),
        async () => {
          const r = await prepare.prepareTask(task);
          return r.ok && r.office ? office.officeVerify(task) : r;
        },
        () => llm.judgeTask(task),
        () => prepare.packageTask(task),
      ];
      let ok = true;
      for (const step of steps) {
        if (!(await step()).ok) {
          ok = false;
          break;
        }
      }
      if (ok) outcome = 'accepted';
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
    });
  }
  const passed = results.every((r) => r.outcome === 'accepted');
  await round.finishRound(roundId, 'completed');
  return { roundId, skillId: spec.id, specVersion, tasks: results, passed };
}
