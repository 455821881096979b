import type { Command } from 'commander';
import { createRuntime } from '../../app/runtime.ts';
import { startWorkers } from '../../app/worker.ts';
import { loadConfig } from '../../infra/config.ts';
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
      const runtime = await createRuntime(config, { llm: queues.includes('llm') });
      const workers = await startWorkers(runtime, queues);
      const model = runtime.offline
        ? `offline model at ${runtime.offline.baseURL}`
        : `model ${config.FORGE_LLM_MODEL}`;
      process.stdout.write(
        `workers running: ${queues.join(', ')} (prefix ${config.FORGE_TASK_QUEUE_PREFIX}; ${model})\n`,
      );
      const stop = () => void workers.shutdown();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await workers.done;
      await runtime.close();
    });
}
