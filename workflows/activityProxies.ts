import { proxyActivities } from '@temporalio/workflow';
import type { createLlmStageActivities } from '../activities/llmStage.ts';
import type { createOfficeActivities } from '../activities/office.ts';
import type { createPrepareActivities } from '../activities/prepare.ts';
import type { createRoundActivities } from '../activities/round.ts';

/**
 * Every activity has a bounded retry: the LLM client retries provider errors itself, so its
 * activity only retries a crashed worker; document work is deterministic, so a few attempts do.
 */
export interface QueueNames {
  llm: string;
  prepare: string;
  office: string;
}

/** Activities heartbeat every 5 s (infra/temporal/heartbeat.ts): a dead worker is noticed in 30 s. */
const HEARTBEAT = '30s';

const bounded = { maximumAttempts: 4, initialInterval: '1s', maximumInterval: '20s', backoffCoefficient: 2 };

export function activitiesFor(queues: QueueNames) {
  const llm = proxyActivities<ReturnType<typeof createLlmStageActivities>>({
    taskQueue: queues.llm,
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: bounded,
  });
  const prepare = proxyActivities<ReturnType<typeof createPrepareActivities>>({
    taskQueue: queues.prepare,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: bounded,
  });
  const office = proxyActivities<ReturnType<typeof createOfficeActivities>>({
    taskQueue: queues.office,
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: HEARTBEAT,
    retry: bounded,
  });
  const round = proxyActivities<ReturnType<typeof createRoundActivities>>({
    taskQueue: queues.prepare,
    startToCloseTimeout: '2 minutes',
    retry: bounded,
  });
  return { llm, prepare, office, round };
}
