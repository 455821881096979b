import type { Config } from '../config.ts';

/**
 * LLM nodes (I/O bound), prepare/verify (CPU bound) and office verification (needs LibreOffice) run on
 * separate task queues so each scales on its own hosts with its own concurrency.
 */
export const queueNames = ['llm', 'prepare', 'office'] as const;
export type QueueName = (typeof queueNames)[number];

export function isQueueName(value: string): value is QueueName {
  return (queueNames as readonly string[]).includes(value);
}

export function taskQueue(config: Pick<Config, 'FORGE_TASK_QUEUE_PREFIX'>, queue: QueueName): string {
  return `${config.FORGE_TASK_QUEUE_PREFIX}-${queue}`;
}

export function taskQueues(config: Pick<Config, 'FORGE_TASK_QUEUE_PREFIX'>): Record<QueueName, string> {
  return {
    llm: taskQueue(config, 'llm'),
    prepare: taskQueue(config, 'prepare'),
    office: taskQueue(config, 'office'),
  };
}

/** Max concurrent activity executions per worker for each queue. */
export function queueConcurrency(config: Config, queue: QueueName): number {
  switch (queue) {
    case 'llm':
      return config.FORGE_LLM_QUEUE_CONCURRENCY;
    case 'prepare':
      return config.FORGE_PREPARE_QUEUE_CONCURRENCY;
    case 'office':
      return config.FORGE_OFFICE_QUEUE_CONCURRENCY;
  }
}
