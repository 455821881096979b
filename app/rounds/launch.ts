import type { RoundSettings } from '../../activities/roundSettings.ts';
import { taskQueues } from '../../infra/temporal/queues.ts';
import { generationRound, type RoundWorkflowInput } from '../../workflows/round.ts';
import type { RoundDeps } from './deps.ts';

/**
 * Starts a round's workflow from its stored settings: the one place the workflow's input is built,
 * for a new round and for a retry of a finished one's failed slots.
 */
export async function launchRoundWorkflow(
  deps: Pick<RoundDeps, 'config' | 'temporal'>,
  round: { roundId: string; workflowId: string; settings: Pick<RoundSettings, 'window' | 'taskConcurrency'> },
  extra: Pick<RoundWorkflowInput, 'maxHistoryEvents' | 'onlyFailed'> = {},
): Promise<void> {
  const queues = taskQueues(deps.config);
  const args: RoundWorkflowInput = {
    roundId: round.roundId,
    window: round.settings.window,
    taskConcurrency: round.settings.taskConcurrency,
    queues,
    stages: deps.config.FORGE_TASK_STAGES,
    taskBatch: deps.config.FORGE_TASK_BATCH,
    ...extra,
  };
  await deps.temporal.workflow.start(generationRound, {
    workflowId: round.workflowId,
    taskQueue: queues.prepare,
    args: [args],
  });
}
