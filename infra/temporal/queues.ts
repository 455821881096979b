import type { Config } from '../config.ts';

/**
 * Three task queues, each named for what it runs, so each scales on its own hosts with its own
 * concurrency:
 * - `pipeline`: a task's pipeline segments (taskcore/pipeline.ts) — drafting (author → prepare and
 *   check) and finishing (judge → package), each one activity; in `split` mode the author and judge
 *   stages; the expansion's model calls. Model calls wait on the network, preparing is CPU-bound.
 * - `prepare`: the workflows, round bookkeeping, export, the expansion gate, and in `split` mode the
 *   prepare and package stages.
 * - `office`: the LibreOffice round trip.
 */
export const queueNames = ['pipeline', 'prepare', 'office'] as const;
export type QueueName = (typeof queueNames)[number];

/**
 * The pipeline queue's name before it was named for what it runs. Workflows begun then carry it in
 * their input and keep scheduling there on replay; a pipeline worker also polls it, so they finish.
 */
export const LEGACY_PIPELINE_QUEUE = 'llm';

export function isQueueName(value: string): value is QueueName {
  return (queueNames as readonly string[]).includes(value);
}

export function taskQueue(
  config: Pick<Config, 'FORGE_TASK_QUEUE_PREFIX'>,
  queue: QueueName | typeof LEGACY_PIPELINE_QUEUE,
): string {
  return `${config.FORGE_TASK_QUEUE_PREFIX}-${queue}`;
}

export function taskQueues(config: Pick<Config, 'FORGE_TASK_QUEUE_PREFIX'>): Record<QueueName, string> {
  return {
    pipeline: taskQueue(config, 'pipeline'),
    prepare: taskQueue(config, 'prepare'),
    office: taskQueue(config, 'office'),
  };
}

/** Max concurrent activity executions per worker for each queue. */
export function queueConcurrency(config: Config, queue: QueueName): number {
  switch (queue) {
    case 'pipeline':
      return config.FORGE_PIPELINE_QUEUE_CONCURRENCY;
    case 'prepare':
      return config.FORGE_PREPARE_QUEUE_CONCURRENCY;
    case 'office':
      return config.FORGE_OFFICE_QUEUE_CONCURRENCY;
  }
}
