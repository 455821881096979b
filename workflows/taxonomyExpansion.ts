import { ApplicationFailure, executeChild, ParentClosePolicy, proxyActivities } from '@temporalio/workflow';
import type {
  createExpansionActivities,
  createExpansionLlmActivities,
  ExpansionSummary,
} from '../activities/expansion.ts';
import { outageRetry, pipelineQueue, type QueueInput } from './activityProxies.ts';
import { skillWorkflow, skillWorkflowId, type TaskStageMode } from './skill.ts';

export interface ExpansionWorkflowInput {
  runId: string;
  queues: QueueInput;
  /** At most this many skills are expanded per run. */
  maxTargets: number;
  /** Proposals authored and gated at once. */
  concurrency: number;
  /** How the gate's dry-run tasks map onto activities: as production rounds run them (absent: `split`). */
  stages?: TaskStageMode;
}

/** Errors are classified by the worker: only a service outage uses the whole (minutes-long) policy. */
const bounded = outageRetry;

/**
 * One taxonomy expansion: from a round's statistics pick the skills to work on, ask the proposer
 * for each, let the author write each proposed spec, gate it (static checks, then a 3-task dry-run
 * round run by a child skill workflow through the full verification, and a second such round with
 * a new seed for a spec that writes application configuration or runs its own regexes), and record the new taxonomy version with the adopted candidates.
 * Every step is an idempotent activity keyed by (run, proposal), so a retry never doubles work.
 */
export async function taxonomyExpansion(input: ExpansionWorkflowInput): Promise<ExpansionSummary> {
  const local = proxyActivities<ReturnType<typeof createExpansionActivities>>({
    taskQueue: input.queues.prepare,
    startToCloseTimeout: '5 minutes',
    retry: bounded,
  });
  const llm = proxyActivities<ReturnType<typeof createExpansionLlmActivities>>({
    taskQueue: pipelineQueue(input.queues),
    startToCloseTimeout: '15 minutes',
    retry: bounded,
  });
  try {
    const plan = await local.planExpansion(input.runId, input.maxTargets);
    const positions = (
      await Promise.all(plan.targets.map((t, i) => llm.proposeExpansion(input.runId, i, t, plan.baseVersion)))
    ).flat();
    const queue = [...positions];
    const worker = async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
        const authored = await llm.authorProposal(input.runId, p, plan.baseVersion);
        if (!authored.ok) continue;
        // The dry-run half of the gate is an ordinary skill workflow on the real queues; a
        // candidate that writes application configuration or runs its own regexes gets a
        // second one with a new seed once the first passed (closeGate answers with `next`).
        let gateRound = await local.openGate(input.runId, p);
        for (;;) {
          if (!gateRound) {
            await local.closeGate(input.runId, p);
            break;
          }
          await executeChild(skillWorkflow, {
            workflowId: skillWorkflowId(gateRound.roundId, gateRound.skillId),
            taskQueue: input.queues.prepare,
            parentClosePolicy: ParentClosePolicy.TERMINATE,
            args: [
              {
                roundId: gateRound.roundId,
                skillId: gateRound.skillId,
                specVersion: gateRound.specVersion,
                tasks: gateRound.tasks,
                taskConcurrency: 1,
                queues: input.queues,
                ...(input.stages ? { stages: input.stages } : {}),
              },
            ],
          });
          const closed = await local.closeGate(input.runId, p, gateRound.roundId);
          if (!closed.next) break;
          gateRound = closed.next;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
    return await local.finishExpansion(input.runId);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await local.failExpansion(input.runId, message);
    throw ApplicationFailure.nonRetryable(`expansion ${input.runId} failed: ${message}`);
  }
}
