import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createRuntime, type Runtime } from '../../app/runtime.ts';
import { type RunningWorkers, startWorkers } from '../../app/worker.ts';
import { type Config, loadConfig } from '../../infra/config.ts';
import { connectTemporal, type TemporalHandle } from '../../infra/temporal/client.ts';
import { type QueueName, queueNames } from '../../infra/temporal/queues.ts';
import { spawnForgeWorker } from './forgeWorker.ts';

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
  opts: { workerProcess?: boolean } = {},
): Promise<TestForge> {
  const settings = { ...process.env, FORGE_TASK_QUEUE_PREFIX: `t-${randomBytes(4).toString('hex')}`, ...env };
  const config = loadConfig(settings);
  const runtime = await createRuntime(config, { llm: queues.includes('pipeline') && !opts.workerProcess });
  const temporal = await connectTemporal(config);
  const workers = opts.workerProcess
    ? await workerProcess(settings, queues)
    : await startWorkers(runtime, queues);
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

/**
 * The workers as `forge worker <queues>`, a process of their own, for tests whose round does minutes
 * of work: node:test tracks every promise of the test's process with an async hook (to blame an
 * uncaught error on its test), which makes promise-heavy code there many times slower, and a second
 * process also lets the round use the second core.
 */
async function workerProcess(
  settings: NodeJS.ProcessEnv,
  queues: readonly QueueName[],
): Promise<RunningWorkers> {
  // With an IPC channel and this pid, the worker stops when this process goes, even killed by a timeout.
  const child = spawnForgeWorker(
    { ...settings, FORGE_WORKER_PARENT_PID: String(process.pid) },
    ['ignore', 'pipe', 'inherit', 'ipc'],
    queues,
  );
  child.channel?.unref();
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  // Polling once it says so: a round started before would only wait, but a worker that cannot start fails here.
  await new Promise<void>((resolve, reject) => {
    let said: string | undefined = '';
    child.stdout!.on('data', (b: Buffer) => {
      if (said === undefined) return;
      said += b.toString();
      if (said.includes('workers running')) {
        said = undefined;
        resolve();
      }
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`forge worker exited (${signal ?? code}) before it ran`)),
    );
  });
  return {
    done: exited.then(() => undefined),
    async shutdown() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    pingTemporal: () => Promise.reject(new Error('the workers run in another process')),
  };
}
