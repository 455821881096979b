import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, Worker } from '@temporalio/worker';
import { createExpansionActivities, createExpansionLlmActivities } from '../activities/expansion.ts';
import { createExportActivities } from '../activities/exportActivity.ts';
import { createLlmStageActivities } from '../activities/llmStage.ts';
import { createOfficeActivities } from '../activities/office.ts';
import { createPrepareActivities } from '../activities/prepare.ts';
import { createRoundActivities } from '../activities/round.ts';
import { withHeartbeats } from '../infra/temporal/heartbeat.ts';
import { type QueueName, queueConcurrency, taskQueue } from '../infra/temporal/queues.ts';
import { workflowBundle } from '../infra/temporal/workflowBundle.ts';
import { closeOffice } from '../preparers/office/index.ts';
import type { Runtime } from './runtime.ts';

export interface RunningWorkers {
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Starts one Temporal worker per named queue in this process. Workflows run on the prepare
 * queue's worker; each queue has its own activity concurrency from config.
 */
let sdkLoggerInstalled = false;

export async function startWorkers(runtime: Runtime, queues: readonly QueueName[]): Promise<RunningWorkers> {
  const { config } = runtime;
  if (!sdkLoggerInstalled) {
    // The SDK logs every worker state change at INFO; the product's own level applies instead.
    // LLM and office workers host no workflows by design; the SDK's warning about it is noise.
    const level = config.FORGE_LOG_LEVEL === 'debug' ? 'DEBUG' : 'WARN';
    const logger = new DefaultLogger(level, (entry) => {
      if (entry.message.startsWith('No workflows registered')) return;
      process.stderr.write(
        `${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`,
      );
    });
    TemporalRuntime.install({ logger });
    sdkLoggerInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const workers: Worker[] = [];
  try {
    for (const queue of queues) {
      const activities =
        queue === 'llm'
          ? { ...createLlmStageActivities(runtime), ...createExpansionLlmActivities(runtime) }
          : queue === 'office'
            ? createOfficeActivities(runtime)
            : {
                ...createPrepareActivities(runtime),
                ...createRoundActivities(runtime),
                ...createExpansionActivities(runtime),
                ...createExportActivities(runtime),
              };
      workers.push(
        await Worker.create({
          connection,
          namespace: config.TEMPORAL_NAMESPACE,
          taskQueue: taskQueue(config, queue),
          activities: withHeartbeats(activities),
          maxConcurrentActivityTaskExecutions: queueConcurrency(config, queue),
          ...(queue === 'prepare'
            ? { workflowBundle: await workflowBundle(config.home), maxCachedWorkflows: 500 }
            : {}),
        }),
      );
    }
  } catch (err) {
    await connection.close();
    throw err;
  }
  const done = Promise.all(workers.map((w) => w.run())).then(async () => {
    await connection.close();
    if (queues.includes('office')) await closeOffice();
  });
  return {
    done,
    async shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}
