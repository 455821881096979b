import type { Command } from 'commander';
import { reportToSupervisor, startPipelineWorkerProcesses } from '../../app/pipelineWorkerProcesses.ts';
import { createRuntime } from '../../app/runtime.ts';
import { startWorkers } from '../../app/worker.ts';
import { loadConfig } from '../../infra/config.ts';
import { backingServiceProbes } from '../../infra/health/backingServices.ts';
import { type ServiceWatch, watchServices } from '../../infra/health/serviceWatch.ts';
import { isQueueName, type QueueName, queueNames } from '../../infra/temporal/queues.ts';

export function register(program: Command): void {
  program
    .command('worker [queues...]')
    .description(`run Temporal workers for the named task queues (${queueNames.join(', ')}; default: all)`)
    .action(async (names: string[]) => {
      const bad = names.filter((n) => !isQueueName(n));
      if (bad.length > 0)
        throw new Error(`unknown queue ${bad.join(', ')}: choose from ${queueNames.join(', ')}`);
      const queues: QueueName[] = names.length > 0 ? (names as QueueName[]) : [...queueNames];
      const config = loadConfig();
      // A supervised child says who it is: each process reports an outage it sees, once.
      const who = config.FORGE_WORKER_PARENT_PID
        ? `forge worker (pipeline, pid ${process.pid})`
        : 'forge worker';
      const say = (line: string) => process.stderr.write(`${new Date().toISOString()} ${who}: ${line}\n`);
      let watch: ServiceWatch | undefined;
      const runtime = await createRuntime(config, {
        llm: queues.includes('pipeline'),
        onDatabaseError: () => watch?.notice('postgres'),
      });
      const workers = await startWorkers(runtime, queues, { onUnavailable: (s) => watch?.notice(s) });
      watch = watchServices(
        backingServiceProbes({ ...runtime, temporal: () => workers.pingTemporal() }),
        say,
      );
      const model = runtime.offline
        ? `offline model at ${runtime.offline.baseURL}`
        : `model ${config.FORGE_LLM_MODEL}`;
      process.stdout.write(
        `workers running: ${queues.join(', ')} (prefix ${config.FORGE_TASK_QUEUE_PREFIX}; ${model})\n`,
      );
      const extra =
        queues.includes('pipeline') && config.FORGE_PIPELINE_WORKER_PROCESSES > 1
          ? startPipelineWorkerProcesses(config.FORGE_PIPELINE_WORKER_PROCESSES - 1, process.env, say)
          : undefined;
      // Said once the extra processes poll too (they start in a few seconds, beside this one).
      void extra
        ?.ready()
        .then(() =>
          process.stdout.write(
            `pipeline queue: ${config.FORGE_PIPELINE_WORKER_PROCESSES - 1} more worker process(es) polling\n`,
          ),
        );
      const stop = () => {
        void extra?.stop();
        void workers.shutdown();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (config.FORGE_WORKER_PARENT_PID) reportToSupervisor(stop);
      await workers.done;
      await extra?.stop();
      watch.stop();
      await runtime.close();
    });
}
