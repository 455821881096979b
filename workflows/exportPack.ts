import { proxyActivities } from '@temporalio/workflow';
import type { createExportActivities } from '../activities/exportActivity.ts';
import type { ExportOptions, ExportReport } from '../export/exportPack.ts';
import { outageRetry } from './activityProxies.ts';

/** A task-pack export as a workflow, for packs too big to write from a terminal session. */
export async function exportPackWorkflow(input: {
  options: ExportOptions;
  queue: string;
}): Promise<ExportReport> {
  const { exportPackActivity } = proxyActivities<ReturnType<typeof createExportActivities>>({
    taskQueue: input.queue,
    startToCloseTimeout: '6 hours',
    heartbeatTimeout: '2 minutes',
    retry: outageRetry,
  });
  return exportPackActivity(input.options);
}
