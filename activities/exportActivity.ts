import { Context } from '@temporalio/activity';
import { type ExportOptions, type ExportReport, exportPack } from '../export/exportPack.ts';
import type { ActivityDeps } from './deps.ts';

/**
 * Writing a big pack is one long activity: its progress goes out as heartbeat details, so a worker
 * that dies is noticed and the export restarts on another (the output is reproducible, so a
 * restarted export writes the same bytes).
 */
export function createExportActivities(deps: ActivityDeps) {
  async function exportPackActivity(options: ExportOptions): Promise<ExportReport> {
    const ctx = Context.current();
    return exportPack({ database: deps.database, store: deps.store }, options, (p) => ctx.heartbeat(p));
  }
  return { exportPackActivity };
}
