import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type ExportOptions, type ExportReport, exportPack } from '../export/exportPack.ts';
import type { ActivityDeps } from './deps.ts';

/**
 * Writing a big pack is one long activity: its progress goes out as heartbeat details, so a worker
 * that dies is noticed and the export restarts on another (the output is reproducible, so a
 * restarted export writes the same bytes).
 */
export function createExportActivities(deps: ActivityDeps) {
  async function exportPackActivity(options: ExportOptions): Promise<ExportReport> {
    // Any Temporal client can start this workflow: it writes only under the configured root.
    const root = deps.config.exportsRoot;
    const out = path.resolve(root, options.out);
    if (out === root || !out.startsWith(`${root}${path.sep}`)) {
      throw ApplicationFailure.nonRetryable(
        `export output ${JSON.stringify(options.out)} is outside the exports root ${root} (FORGE_EXPORTS_ROOT)`,
        'ExportOutsideRoot',
      );
    }
    const ctx = Context.current();
    return exportPack({ database: deps.database, store: deps.store }, { ...options, out }, (p) =>
      ctx.heartbeat(p),
    );
  }
  return { exportPackActivity };
}
