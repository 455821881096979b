import { randomBytes } from 'node:crypto';
import { createRuntime, type Runtime } from '../../app/runtime.ts';
import { type RunningWorkers, startWorkers } from '../../app/worker.ts';
import { type Config, loadConfig } from '../../infra/config.ts';
import { connectTemporal, type TemporalHandle } from '../../infra/temporal/client.ts';
import { type QueueName, queueNames } from '../../infra/temporal/queues.ts';

export interface TestForge {
  config: Config;
  /** The settings the config was loaded from: another process (a server) loads the same config from them. */
  settings: NodeJS.ProcessEnv;
  runtime: Runtime;
  temporal: TemporalHandle;
  workers: RunningWorkers;
  /** Round deps for app/rounds/*. */
  deps: { config: Config; database: Runtime['database']; temporal: TemporalHandle['client'] };
  close(): Promise<void>;
}

/**
 * Real workers on the real dev stack, on task queues of their own (a unique prefix), so concurrent
 * test files never take each other's tasks. `env` overrides settings (e.g. an LLM endpoint).
 */
export async function startTestForge(
  env: Record<string, string> = {},
  queues: readonly QueueName[] = queueNames,
): Promise<TestForge> {
  const settings = { ...process.env, FORGE_TASK_QUEUE_PREFIX: `t-${randomBytes(4).toString('hex')}`, ...env };
  const config = loadConfig(settings);
  const runtime = await createRuntime(config, { llm: queues.includes('llm') });
  const temporal = await connectTemporal(config);
  const workers = await startWorkers(runtime, queues);
  return {
    config,
    settings,
    runtime,
    temporal,
    workers,
    deps: { config, database: runtime.database, temporal: temporal.client },
    async close() {
      await workers.shutdown();
      await temporal.close();
      await runtime.close();
    },
  };
}
