import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createLlmStageActivities } from '../activities/llmStage.ts';
import type { createOfficeActivities } from '../activities/office.ts';
import type { createPrepareActivities } from '../activities/prepare.ts';
import type { createRoundActivities } from '../activities/round.ts';

/**
 * Every activity has a bounded retry. The worker classifies what an activity throws
 * (app/activityErrors.ts): a task error is non-retryable at once, an error of unknown kind gets a
 * few attempts, and only an outage of Postgres, MinIO or Temporal (or a crashed worker) uses the
 * whole policy below — about seven minutes of backoff, so a service that is down for minutes
 * costs time, never tasks.
 */
export interface QueueNames {
  llm: string;
  prepare: string;
  office: string;
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

export function activitiesFor(queues: QueueNames) {
  const llm = proxyActivities<ReturnType<typeof createLlmStageActivities>>({
    taskQueue: queues.llm,
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
  return { llm, prepare, office, round, localRound };
}
