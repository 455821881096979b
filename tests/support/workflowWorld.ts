import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker } from '@temporalio/worker';
import type { createOfficeActivities } from '../../activities/office.ts';
import type { createPrepareActivities } from '../../activities/prepare.ts';
import type { createRoundActivities } from '../../activities/round.ts';
import type { createSegmentActivities } from '../../activities/segments.ts';
import type {
  BeginTaskInput,
  Gate,
  PrepareResult,
  RoundPlanEntry,
  RoundProgress,
  RoundStatus,
  StepResult,
  StopReason,
  TaskOutcome,
  TaskRef,
} from '../../activities/types.ts';
import { binaryPath, buildScript } from '../../infra/dev/binaries.ts';
import { stackLayout } from '../../infra/dev/layout.ts';
import { forgeHome } from '../../infra/paths.ts';
import { workflowBundle } from '../../infra/temporal/workflowBundle.ts';
import type { QueueNames } from '../../workflows/activityProxies.ts';

/**
 * The round and skill workflows on a real Temporal dev server (TestWorkflowEnvironment.createLocal
 * on the binary the project builds), with the real workflow bundle, and small in-memory activities
 * in place of the product's. Each test owns a round id; its `FakeRound` scripts the gate and the
 * stages and records what the workflows asked for.
 */

export type Stage = 'authorTask' | 'prepareTask' | 'officeVerify' | 'judgeTask' | 'packageTask';

export interface StageCall {
  stage: Stage;
  taskId: string;
  queue: string;
}

export interface FakeRound {
  roundId: string;
  plan: RoundPlanEntry[];
  status: RoundStatus;
  /** Extra gate rule, applied after the built-in ones (done, cancelled, paused). */
  gate?: (input: BeginTaskInput, round: FakeRound) => StopReason | undefined;
  /** How a stage answers; the default accepts after `stageMs`. */
  stage?: (stage: Stage, task: TaskRef, round: FakeRound) => Promise<PrepareResult> | PrepareResult;
  stageMs: number;
  // What happened:
  gateCalls: { input: BeginTaskInput; gate: Gate['status'] }[];
  stageCalls: StageCall[];
  /** Tasks that ended accepted or rejected (the real gate answers "done" for them). */
  done: Map<string, 'accepted' | 'rejected'>;
  finishTasks: { taskId: string; outcome: TaskOutcome; detail?: string }[];
  planReads: { offset: number; limit: number }[];
  statusWrites: RoundStatus[];
  finishRound: RoundStatus[];
  inFlight: Map<string, number>;
  maxTasksInFlight: number;
  /** Task indices of each batched fused activity, in the order they ran. */
  batches: number[][];
}

const rounds = new Map<string, FakeRound>();

export function newRound(plan: Omit<RoundPlanEntry, 'position'>[] = [], options: Partial<FakeRound> = {}) {
  const round: FakeRound = {
    roundId: `wf-${randomBytes(4).toString('hex')}`,
    plan: plan.map((p, position) => ({ ...p, position })),
    status: 'running',
    stageMs: 20,
    gateCalls: [],
    stageCalls: [],
    done: new Map(),
    finishTasks: [],
    planReads: [],
    statusWrites: [],
    finishRound: [],
    inFlight: new Map(),
    maxTasksInFlight: 0,
    batches: [],
    ...options,
  };
  rounds.set(round.roundId, round);
  return round;
}

function roundOf(roundId: string): FakeRound {
  const r = rounds.get(roundId);
  if (!r) throw ApplicationFailure.nonRetryable(`round ${roundId} is not in the fake world`);
  return r;
}

export const taskIdOf = (roundId: string, skillId: string, index: number) => `${roundId}/${skillId}/${index}`;

function progressOf(r: FakeRound, status = r.status): RoundProgress {
  const count = (o: TaskOutcome) =>
    [...r.done.values()].filter((v) => v === o).length + r.finishTasks.filter((f) => f.outcome === o).length;
  return {
    status,
    skillsTotal: r.plan.length,
    skillsDone: 0,
    tasksPlanned: r.plan.reduce((s, p) => s + p.tasks, 0),
    tasksDone: r.done.size,
    accepted: count('accepted'),
    rejected: count('rejected'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    running: [...r.inFlight.values()].reduce((s, n) => s + n, 0),
    rejectedByReason: {},
    notStarted: 0,
    failedByReason: {},
    spendUsd: 0,
    budgetUsd: null,
    tasksPerSecond: 0,
    etaSeconds: null,
    updatedAt: new Date().toISOString(),
  };
}

type RoundActivities = ReturnType<typeof createRoundActivities>;

const roundActivities: RoundActivities = {
  async beginTask(input) {
    const r = roundOf(input.roundId);
    const taskId = taskIdOf(input.roundId, input.skillId, input.taskIndex);
    const answer = (): Gate => {
      if (r.done.has(taskId)) return { status: 'done' };
      if (r.status === 'cancelled') return { status: 'stop', reason: 'cancelled' };
      if (r.status === 'paused_error_rate') return { status: 'stop', reason: 'paused_error_rate' };
      const stop = r.gate?.(input, r);
      if (stop) return { status: 'stop', reason: stop };
      return { status: 'run', task: { ...input, taskId, taskSeed: input.taskIndex } };
    };
    const gate = answer();
    r.gateCalls.push({ input, gate: gate.status });
    return gate;
  },
  async beginTasks(inputs) {
    const gates: Gate[] = [];
    for (const input of inputs) gates.push(await roundActivities.beginTask(input));
    return gates;
  },
  async finishTask(task, outcome, detail) {
    roundOf(task.roundId).finishTasks.push({ taskId: task.taskId, outcome, detail });
  },
  async loadRoundPlan(roundId, offset, limit) {
    const r = roundOf(roundId);
    r.planReads.push({ offset, limit });
    return r.plan.filter((p) => p.position >= offset).slice(0, limit);
  },
  async loadFailedPlan(roundId, offset, limit) {
    // Slots the fake world has not finished: a retry of failed slots re-runs exactly those.
    const r = roundOf(roundId);
    const open = (p: RoundPlanEntry) =>
      Array.from({ length: p.tasks }, (_, i) => r.done.get(taskIdOf(roundId, p.skillId, i))).some(
        (v) => v === undefined,
      );
    return r.plan.filter((p) => p.position >= offset && open(p)).slice(0, limit);
  },
  async refreshRoundProgress(roundId) {
    return progressOf(roundOf(roundId));
  },
  async setRoundStatus(roundId, status) {
    const r = roundOf(roundId);
    r.statusWrites.push(status);
    r.status = status;
  },
  async finishRound(roundId, status) {
    const r = roundOf(roundId);
    r.finishRound.push(status);
    r.status = status;
    return progressOf(r, status);
  },
};

async function runStage(stage: Stage, task: TaskRef): Promise<PrepareResult> {
  const r = roundOf(task.roundId);
  r.stageCalls.push({ stage, taskId: task.taskId, queue: Context.current().info.taskQueue });
  const n = (r.inFlight.get(task.skillId) ?? 0) + 1;
  r.inFlight.set(task.skillId, n);
  r.maxTasksInFlight = Math.max(r.maxTasksInFlight, n);
  try {
    const accept = async (): Promise<PrepareResult> => {
      await sleep(r.stageMs);
      return { ok: true };
    };
    const result = r.stage ? await r.stage(stage, task, r) : await accept();
    // A stage that rejects or packages records the task's end itself, as the real stages do.
    if (!result.ok) r.done.set(task.taskId, 'rejected');
    else if (stage === 'packageTask') r.done.set(task.taskId, 'accepted');
    return result;
  } finally {
    r.inFlight.set(task.skillId, r.inFlight.get(task.skillId)! - 1);
  }
}

const stageActivity =
  (stage: Stage) =>
  (task: TaskRef): Promise<StepResult> =>
    runStage(stage, task);

const llmActivities: ReturnType<typeof createSegmentActivities> = {
  authorTask: stageActivity('authorTask'),
  judgeTask: stageActivity('judgeTask'),
  async judgeAndPackage(task) {
    const judged = await runStage('judgeTask', task);
    return judged.ok ? runStage('packageTask', task) : judged;
  },
  // Every stage in this one activity (on the pipeline queue), stopping after prepare for office files.
  async authorToPackage(task) {
    const authored = await runStage('authorTask', task);
    if (!authored.ok) return authored;
    const prepared = await runStage('prepareTask', task);
    if (!prepared.ok || prepared.office) return prepared;
    return llmActivities.judgeAndPackage(task);
  },
  // As the product's: a task that throws comes back as its error, its siblings go on.
  async authorToPackageBatch(batch) {
    const r = roundOf(batch[0]!.roundId);
    r.batches.push(batch.map((t) => t.taskIndex));
    return Promise.all(
      batch.map((task) =>
        llmActivities.authorToPackage(task).catch((err: Error) => ({ error: err.message })),
      ),
    );
  },
};
const prepareActivities: ReturnType<typeof createPrepareActivities> = {
  prepareTask: (task) => runStage('prepareTask', task),
  packageTask: stageActivity('packageTask'),
};
const officeActivities: ReturnType<typeof createOfficeActivities> = {
  officeVerify: stageActivity('officeVerify'),
};

export interface WorkflowWorld {
  client: Client;
  queues: QueueNames;
  close(): Promise<void>;
}

let loggerInstalled = false;

/** Starts a private dev server and one worker per queue, each with only its own queue's fakes. */
export async function startWorkflowWorld(): Promise<WorkflowWorld> {
  const temporal = binaryPath(stackLayout({ home: forgeHome() }), 'temporal');
  try {
    accessSync(temporal, constants.X_OK);
  } catch {
    throw new Error(`no Temporal dev-server binary at ${temporal}: build it with bash ${buildScript}`);
  }
  if (!loggerInstalled) {
    // Failures and cancellations are what these tests provoke: the SDK's warnings about them are noise.
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    });
    loggerInstalled = true;
  }
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporal },
      ip: '127.0.0.1',
      log: { format: 'pretty', level: 'error' },
    },
  });
  const prefix = `wf-${randomBytes(3).toString('hex')}`;
  const queues: QueueNames = {
    pipeline: `${prefix}-pipeline`,
    prepare: `${prefix}-prepare`,
    office: `${prefix}-office`,
  };
  const bundle = await workflowBundle(forgeHome());
  const common = { connection: env.nativeConnection, namespace: env.namespace ?? 'default' };
  const workers = [
    await Worker.create({
      ...common,
      taskQueue: queues.prepare,
      workflowBundle: bundle,
      activities: { ...prepareActivities, ...roundActivities },
    }),
    await Worker.create({ ...common, taskQueue: queues.pipeline, activities: llmActivities }),
    await Worker.create({ ...common, taskQueue: queues.office, activities: officeActivities }),
  ];
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    client: env.client,
    queues,
    async close() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** Polls until `condition` holds; fails with `what` after `ms`. */
export async function until(what: string, condition: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The largest number of [start, close) intervals open at one instant. */
export function maxOverlap(intervals: { start: number; close: number }[]): number {
  const events = intervals.flatMap((i) => [
    { t: i.start, d: 1 },
    { t: i.close, d: -1 },
  ]);
  // A close at the same instant as a start counts first: the slot was free.
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let max = 0;
  for (const e of events) {
    open += e.d;
    max = Math.max(max, open);
  }
  return max;
}
