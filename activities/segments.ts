import { eq, inArray } from 'drizzle-orm';
import { tasks } from '../infra/db/schema.ts';
import { activityAttempt } from '../infra/temporal/activityAttempt.ts';
import { structuredOutput } from '../llm/types.ts';
import { deriveSeed } from '../skills/random.ts';
import { authorTask as runAuthoring } from '../skills/run/author.ts';
import type { Context } from '../skills/template.ts';
import { runInProcess, type TaskStages } from '../taskcore/pipeline.ts';
import {
  judgeOfflineHint,
  judgeOutput,
  judgePrompt,
  judgeScore,
  judgeSystem,
} from '../taskcore/verify/judge.ts';
import type { ActivityDeps } from './deps.ts';
import { createPrepareStages, type Held, type TaskFields } from './prepare.ts';
import { type NodeRun, recordNodeRuns, rejectTask } from './taskRecords.ts';
import { loadState, saveContext, saveState, type TaskState } from './taskState.ts';
import type { BatchedResult, PrepareResult, StepResult, TaskRef } from './types.ts';

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

/**
 * Activities on the pipeline queue: a task's segments around the office round trip (draft: author →
 * prepare and check; finish: judge → package), each as one activity, and in `split` mode the author
 * and judge stages alone.
 */
export function createSegmentActivities(deps: ActivityDeps) {
  const llm = () => {
    if (!deps.llm)
      throw new Error('this worker has no LLM client: run the pipeline queue worker (forge worker pipeline)');
    return deps.llm;
  };

  const reject = (
    task: TaskRef,
    reason: string,
    node: string,
    detail: string,
    carry: { runs?: NodeRun[]; fields?: TaskFields } = {},
  ): Promise<StepResult> =>
    rejectTask(deps.database, task, { reason, node, detail, kind: 'reject' }, carry.runs, carry.fields);

  /** Samples params and runs the spec's llm / generate / values nodes. A rejection is recorded. */
  async function author(
    task: TaskRef,
  ): Promise<{ ok: true; ctx: Context; runs: NodeRun[] } | { ok: false; result: StepResult }> {
    const { spec } = await deps.specs.get(task.skillId, task.specVersion);
    const client = llm();
    const result = await runAuthoring(
      spec,
      task.taskSeed,
      (call) =>
        client.callLlmNode({ ...call, roundId: task.roundId, skillId: task.skillId, taskId: task.taskId }),
      { level: task.level, roundId: task.roundId, taskIndex: task.taskIndex },
    );
    if (!result.ok)
      return { ok: false, result: await reject(task, result.reason, result.node, result.detail) };
    const runs = Object.entries(result.nodeMs).map(([nodeId, ms]) => ({
      nodeId,
      kind: 'author',
      status: 'ok' as const,
      durationMs: ms,
    }));
    return { ok: true, ctx: result.context, runs };
  }

  /** The author stage as its own activity: the context goes to the object store for the next. */
  async function authorTask(task: TaskRef): Promise<StepResult> {
    const a = await author(task);
    if (!a.ok) return a.result;
    await saveContext(deps.store, task.taskId, a.ctx);
    await recordNodeRuns(deps.database, task.taskId, a.runs);
    return { ok: true };
  }

  /**
   * The judge's verdict; on acceptance, its node run for the caller to write. `held`: the state and
   * the runs and fields not yet written, when the same activity prepared the task.
   */
  async function judge(
    task: TaskRef,
    held?: { state: TaskState; runs: NodeRun[]; fields: TaskFields },
  ): Promise<{ result: StepResult; run?: NodeRun }> {
    const started = performance.now();
    const state = held?.state ?? (await loadState(deps.store, task.taskId));
    const result = await llm().callLlmNode({
      roundId: task.roundId,
      skillId: task.skillId,
      taskId: task.taskId,
      ...judgeRequest(state, task.taskSeed),
    });
    if (!result.ok)
      return { result: await reject(task, result.reason, 'verify_judge', result.detail, held ?? {}) };
    const score = judgeScore(result.value);
    if (score < deps.config.FORGE_JUDGE_THRESHOLD) {
      return {
        result: await reject(
          task,
          'judge_rejected',
          'verify_judge',
          `score ${score} < ${deps.config.FORGE_JUDGE_THRESHOLD}: ${result.value.issues.join('; ')}`,
          held ?? {},
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

  const stages = createPrepareStages(deps);

  /**
   * The judge and, when it accepts, the package, in one activity: each is idempotent on its own
   * (the ledger answers a repeated judge call from the cache; packaging accepts only a running
   * task), so a retry after a crash between them ends the task the same way, once.
   */
  async function judgeAndPackage(task: TaskRef): Promise<StepResult> {
    const { result, run } = await judge(task);
    return result.ok ? stages.packageTask(task, run ? [run] : []) : result;
  }

  /**
   * Every stage of a task in one activity: author, prepare, judge, package. The context and state
   * stay in memory and the task row, its node runs and the package are written in the accepting
   * (or rejecting) transaction: one activity round trip instead of three, no context or state
   * object. A task with office files stops after prepare (state saved) for the office queue's
   * round trip, then judge and package as usual. A retry after a crash starts again from the
   * author stage: its LLM calls are answered by the ledger's cache, never billed twice, and only a
   * running task is accepted or rejected.
   */
  async function authorToPackage(task: TaskRef): Promise<PrepareResult> {
    // What one stage hands the next, in memory.
    let authored: { ctx: Context; runs: NodeRun[] } | undefined;
    let held: (Held & { runs: NodeRun[] }) | undefined;
    let judged: NodeRun | undefined;
    let rejected: StepResult | undefined;
    const answer = <R extends StepResult>(r: R): R => {
      if (!r.ok) rejected = r;
      return r;
    };
    const inProcess: TaskStages<TaskRef> = {
      authorTask: async (t) => {
        const a = await author(t);
        if (!a.ok) return answer(a.result);
        authored = a;
        return { ok: true };
      },
      prepareTask: async (t) => {
        const p = await stages.prepareState(t, authored!.ctx, authored!.runs);
        if (!p.ok) return answer(p.result);
        held = { ctx: authored!.ctx, state: p.state, fields: p.fields, runs: p.runs };
        return { ok: true, office: p.office };
      },
      officeVerify: () => {
        throw new Error('the office check runs on its own queue, never in process');
      },
      judgeTask: async (t) => {
        const { result, run } = await judge(t, held);
        judged = run;
        return answer(result);
      },
      packageTask: async (t) =>
        answer(await stages.packageTask(t, judged ? [...held!.runs, judged] : held!.runs, held)),
    };
    const result = await runInProcess(inProcess, task);
    if (rejected) return rejected;
    if (result.office && held) {
      await saveContext(deps.store, task.taskId, held.ctx);
      await saveState(deps.store, task.taskId, held.state);
      await deps.database.db.update(tasks).set(held.fields).where(eq(tasks.id, task.taskId));
      await recordNodeRuns(deps.database, task.taskId, held.runs);
    }
    if (!result.ok) throw new Error(`task ${task.taskId}: a stage answered not ok without a reason`);
    return result.office ? { ok: true, office: true } : { ok: true };
  }

  /**
   * Several tasks of one skill, each fused as in `authorToPackage`, in one activity: one activity
   * round trip through Temporal for the lot instead of one per task. A task that throws does not
   * fail its siblings: its error comes back for the workflow to run that task alone. A retried
   * batch (the worker died, a service was down) skips the tasks that have already ended, answering
   * with their recorded outcome, so none is reported twice or run again after its end. A first
   * attempt skips that read: the gate has just set every task of the batch running.
   */
  async function authorToPackageBatch(batch: TaskRef[]): Promise<BatchedResult[]> {
    const ended = new Map<string, string>();
    if (activityAttempt() !== 1) {
      const rows = await deps.database.db
        .select({ id: tasks.id, status: tasks.status })
        .from(tasks)
        .where(
          inArray(
            tasks.id,
            batch.map((t) => t.taskId),
          ),
        );
      for (const r of rows) if (r.status !== 'running') ended.set(r.id, r.status);
    }
    return Promise.all(
      batch.map(async (task): Promise<BatchedResult> => {
        const status = ended.get(task.taskId);
        if (status === 'accepted') return { ok: true };
        if (status)
          return {
            ok: false,
            reason: status,
            node: 'workflow',
            detail: `the task had already ended ${status}`,
          };
        try {
          return await authorToPackage(task);
        } catch (err) {
          return { error: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
  }

  return { authorTask, judgeTask, judgeAndPackage, authorToPackage, authorToPackageBatch };
}
