import { structuredOutput } from '../llm/types.ts';
import { deriveSeed } from '../skills/random.ts';
import { authorTask as runAuthoring } from '../skills/run/author.ts';
import type { ActivityDeps } from './deps.ts';
import { createPrepareActivities } from './prepare.ts';
import { type NodeRun, recordNodeRuns, rejectTask } from './taskRecords.ts';
import { loadState, saveContext, type TaskState } from './taskState.ts';
import type { StepResult, TaskRef } from './types.ts';
import { judgeOfflineHint, judgeOutput, judgePrompt, judgeScore, judgeSystem } from './verify/judge.ts';

/** Activities on the LLM queue (I/O bound, high concurrency): authoring and the judge. */
/** The judge's call for a task state (the floor benchmark makes the same call in process). */
export function judgeRequest(state: TaskState, taskSeed: number) {
  return {
    nodeId: 'verify_judge',
    tier: 'judge' as const,
    messages: [
      { role: 'system' as const, content: judgeSystem },
      { role: 'user' as const, content: judgePrompt(state) },
    ],
    ...structuredOutput('judge_verdict', judgeOutput),
    seed: deriveSeed(taskSeed, 'judge'),
    offlineHint: judgeOfflineHint,
  };
}

export function createLlmStageActivities(deps: ActivityDeps) {
  const llm = () => {
    if (!deps.llm) throw new Error('this worker has no LLM client: run the llm queue worker');
    return deps.llm;
  };

  const reject = (task: TaskRef, reason: string, node: string, detail: string): Promise<StepResult> =>
    rejectTask(deps.database, task, { reason, node, detail, kind: 'reject' });

  /** Samples params and runs the spec's llm / generate / values nodes; the context goes to the object store. */
  async function authorTask(task: TaskRef): Promise<StepResult> {
    const { spec } = await deps.specs.get(task.skillId, task.specVersion);
    const client = llm();
    const result = await runAuthoring(
      spec,
      task.taskSeed,
      (call) =>
        client.callLlmNode({ ...call, roundId: task.roundId, skillId: task.skillId, taskId: task.taskId }),
      { level: task.level, roundId: task.roundId, taskIndex: task.taskIndex },
    );
    if (!result.ok) return reject(task, result.reason, result.node, result.detail);
    await saveContext(deps.store, task.taskId, result.context);
    await recordNodeRuns(
      deps.database,
      task.taskId,
      Object.entries(result.nodeMs).map(([nodeId, ms]) => ({
        nodeId,
        kind: 'author',
        status: 'ok' as const,
        durationMs: ms,
      })),
    );
    return { ok: true };
  }

  /** The judge's verdict; on acceptance, its node run for the caller to write. */
  async function judge(task: TaskRef): Promise<{ result: StepResult; run?: NodeRun }> {
    const started = performance.now();
    const state = await loadState(deps.store, task.taskId);
    const result = await llm().callLlmNode({
      roundId: task.roundId,
      skillId: task.skillId,
      taskId: task.taskId,
      ...judgeRequest(state, task.taskSeed),
    });
    if (!result.ok) return { result: await reject(task, result.reason, 'verify_judge', result.detail) };
    const score = judgeScore(result.value);
    if (score < deps.config.FORGE_JUDGE_THRESHOLD) {
      return {
        result: await reject(
          task,
          'judge_rejected',
          'verify_judge',
          `score ${score} < ${deps.config.FORGE_JUDGE_THRESHOLD}: ${result.value.issues.join('; ')}`,
        ),
      };
    }
    return {
      result: { ok: true },
      run: {
        nodeId: 'verify_judge',
        kind: 'verify',
        status: 'ok',
        durationMs: performance.now() - started,
        // The offline judge scores every task alike; the record says so instead of passing silently.
        detail: deps.config.llmApiKey
          ? `score ${score}`
          : `score ${score} (offline judge: meaning not judged; instruction rules and machine checks only)`,
      },
    };
  }

  async function judgeTask(task: TaskRef): Promise<StepResult> {
    const { result, run } = await judge(task);
    if (run) await recordNodeRuns(deps.database, task.taskId, [run]);
    return result;
  }

  const { packageTask } = createPrepareActivities(deps);

  /**
   * The judge and, when it accepts, the package, in one activity: each is idempotent on its own
   * (the ledger answers a repeated judge call from the cache; packaging accepts only a running
   * task), so a retry after a crash between them ends the task the same way, once.
   */
  async function judgeAndPackage(task: TaskRef): Promise<StepResult> {
    const { result, run } = await judge(task);
    return result.ok ? packageTask(task, run ? [run] : []) : result;
  }

  return { authorTask, judgeTask, judgeAndPackage };
}
