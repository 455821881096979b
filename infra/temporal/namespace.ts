import { setTimeout as sleep } from 'node:timers/promises';
import { msToTs } from '@temporalio/common/lib/time.js';
import type { temporal } from '@temporalio/proto';

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;

const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const RETENTION = '3 days';
const READY_TIMEOUT_MS = 60_000;

const codeOf = (err: unknown) => (err as { code?: unknown }).code;

/**
 * Registers a FORGE_NAMESPACE's Temporal namespace when it is missing, then waits until the server
 * serves it (the frontend's namespace cache refreshes every few seconds).
 */
export async function ensureTemporalNamespace(service: WorkflowService, namespace: string): Promise<void> {
  try {
    await service.describeNamespace({ namespace });
    return;
  } catch (err) {
    if (codeOf(err) !== NOT_FOUND) throw err;
  }
  try {
    await service.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(RETENTION),
    });
  } catch (err) {
    if (codeOf(err) !== ALREADY_EXISTS) throw err;
  }
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      await service.listWorkflowExecutions({ namespace, pageSize: 1 });
      return;
    } catch (err) {
      if (codeOf(err) !== NOT_FOUND || Date.now() > until) throw err;
      await sleep(500);
    }
  }
}
