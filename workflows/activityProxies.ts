import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createOfficeActivities } from '../activities/office.ts';
import type { createPrepareActivities } from '../activities/prepare.ts';
import type { createRoundActivities } from '../activities/round.ts';
import type { createSegmentActivities } from '../activities/segments.ts';

/**
 * Every activity has a bounded retry. The worker classifies what an activity throws
 * (app/activityErrors.ts): a task error is non-retryable at once, an error of unknown kind gets a
 * few attempts, and only an outage of Postgres, MinIO or Temporal (or a crashed worker) uses the
 * whole policy below — about seven minutes of backoff, so a service that is down for minutes
 * costs time, never tasks.
 */
export interface QueueNames {
  pipeline: string;
  prepare: string;
  office: string;
}

/** A workflow's queues as its input gives them: inputs written before the rename name `llm`. */
export type QueueInput = Omit<QueueNames, 'pipeline'> & ({ pipeline: string } | { llm: string });

/** The pipeline queue of an input, old or new (replay must schedule where the history did). */
export function pipelineQueue(queues: QueueInput): string {
  return 'pipeline' in queues ? queues.pipeline : queues.llm;
}

/** Activities heartbeat every 5 s (infra/temporal/heartbeat.ts): a dead worker is noticed in 30 s. */
const HEARTBEAT = '30s';

/** 1+2+4+8 s, then every 15 s: 30 attempts span ~6.9 minutes. */
export const outageRetry = {
  maximumAttempts: 30,
  initialInterval: '1s',
  maximumInterval: '15s',
  backoffCoefficient: 2,
} as const;

export function activitiesFor(queues: QueueInput) {
  const pipeline = proxyActivities<ReturnType<typeof createSegmentActivities>>({
    taskQueue: pipelineQueue(queues),
    // A fused task makes all its model calls in one activity (each bounded by the client's own
    // timeout and retry budget); a dead worker is still noticed by the heartbeat within 30 s.
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: outageRetry,
  });
  const prepare = proxyActivities<ReturnType<typeof createPrepareActivities>>({
    taskQueue: queues.prepare,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: outageRetry,
  });
  const office = proxyActivities<ReturnType<typeof createOfficeActivities>>({
    taskQueue: queues.office,
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: outageRetry,
  });
  const round = proxyActivities<ReturnType<typeof createRoundActivities>>({
    taskQueue: queues.prepare,
    startToCloseTimeout: '2 minutes',
    retry: outageRetry,
  });
  // The round gate is one short Postgres transaction: run in the workflow's own worker, it costs a
  // marker in the history instead of an activity task through the server for every slot.
  const localRound = proxyLocalActivities<
    Pick<ReturnType<typeof createRoundActivities>, 'beginTask' | 'beginTasks'>
  >({
    startToCloseTimeout: '2 minutes',
    retry: outageRetry,
  });
  return { pipeline, prepare, office, round, localRound };
}
