import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, Worker } from '@temporalio/worker';
import { createExpansionActivities, createExpansionLlmActivities } from '../activities/expansion.ts';
import { createExportActivities } from '../activities/exportActivity.ts';
import { createOfficeActivities } from '../activities/office.ts';
import { createPrepareActivities } from '../activities/prepare.ts';
import { createRoundActivities } from '../activities/round.ts';
import { createSegmentActivities } from '../activities/segments.ts';
import { resolveServiceEndpoints } from '../infra/dev/endpoints.ts';
import { servicePorts } from '../infra/health/backingServices.ts';
import { withHeartbeats } from '../infra/temporal/heartbeat.ts';
import { ensureTemporalNamespace } from '../infra/temporal/namespace.ts';
import {
  LEGACY_PIPELINE_QUEUE,
  type QueueName,
  queueConcurrency,
  taskQueue,
} from '../infra/temporal/queues.ts';
import { workflowBundle } from '../infra/temporal/workflowBundle.ts';
import { closeOffice } from '../preparers/office/index.ts';
import { withErrorClassification } from './activityErrors.ts';
import type { Runtime } from './runtime.ts';

export interface RunningWorkers {
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
  /** Answers when the Temporal server does (the service watch's probe). */
  pingTemporal(): Promise<unknown>;
}

export interface WorkerOptions {
  /** Told the service's name each time an activity failed because a backing service was down. */
  onUnavailable?: (service: string) => void;
}

/** The SDK repeats a warning on every poll while the server is away: one line a minute is enough. */
const REPEAT_QUIET_MS = 60_000;

/**
 * Starts one Temporal worker per named queue in this process. Workflows run on the prepare
 * queue's worker; each queue has its own activity concurrency from config.
 */
let sdkLoggerInstalled = false;

export async function startWorkers(
  runtime: Runtime,
  queues: readonly QueueName[],
  opts: WorkerOptions = {},
): Promise<RunningWorkers> {
  const { config } = runtime;
  const ports = servicePorts(resolveServiceEndpoints(config));
  if (!sdkLoggerInstalled) {
    const lastSeen = new Map<string, number>();
    // The SDK logs every worker state change at INFO; the product's own level applies instead.
    // Pipeline and office workers host no workflows by design; the SDK's warning about it is noise.
    const level = config.FORGE_LOG_LEVEL === 'debug' ? 'DEBUG' : 'WARN';
    const logger = new DefaultLogger(level, (entry) => {
      if (entry.message.startsWith('No workflows registered')) return;
      const now = Date.now();
      const key = entry.message.slice(0, 120);
      if (now - (lastSeen.get(key) ?? 0) < REPEAT_QUIET_MS) return;
      lastSeen.set(key, now);
      process.stderr.write(
        `${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`,
      );
    });
    TemporalRuntime.install({ logger });
    sdkLoggerInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  if (config.FORGE_NAMESPACE)
    await ensureTemporalNamespace(connection.workflowService, config.TEMPORAL_NAMESPACE);
  const workers: Worker[] = [];
  try {
    for (const queue of queues) {
      const activities =
        queue === 'pipeline'
          ? { ...createSegmentActivities(runtime), ...createExpansionLlmActivities(runtime) }
          : queue === 'office'
            ? createOfficeActivities(runtime)
            : {
                ...createPrepareActivities(runtime),
                ...createRoundActivities(runtime),
                ...createExpansionActivities(runtime),
                ...createExportActivities(runtime),
              };
      const served = withHeartbeats(withErrorClassification(activities, ports, opts.onUnavailable));
      // Workflows begun before the pipeline queue had its name still schedule on the old one.
      const names = queue === 'pipeline' ? ([queue, LEGACY_PIPELINE_QUEUE] as const) : [queue];
      for (const name of names)
        workers.push(
          await Worker.create({
            connection,
            namespace: config.TEMPORAL_NAMESPACE,
            taskQueue: taskQueue(config, name),
            activities: served,
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
    pingTemporal: () => connection.healthService.check({}),
  };
}
