import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { ExportOptions, ExportReport } from '../export/exportPack.ts';
import type { Config } from '../infra/config.ts';
import { taskQueue } from '../infra/temporal/queues.ts';
import { exportPackWorkflow } from '../workflows/exportPack.ts';

/**
 * Runs an export as the `exportPackWorkflow` on the prepare queue, for packs too big for one
 * terminal session. The output path is resolved here, since the worker may run elsewhere.
 */
export async function exportViaTemporal(
  deps: { config: Config; temporal: Client },
  options: ExportOptions,
): Promise<{ workflowId: string; report: ExportReport }> {
  const workflowId = `export-${options.round}-${randomBytes(3).toString('hex')}`;
  const handle = await deps.temporal.workflow.start(exportPackWorkflow, {
    workflowId,
    taskQueue: taskQueue(deps.config, 'prepare'),
    args: [
      { options: { ...options, out: path.resolve(options.out) }, queue: taskQueue(deps.config, 'prepare') },
    ],
  });
  return { workflowId, report: await handle.result() };
}
