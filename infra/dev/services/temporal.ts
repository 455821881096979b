import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { binaryPath } from '../binaries.ts';
import type { LocalService } from '../service.ts';

/** The Temporal CLI dev server: frontend + UI, state in a SQLite file so workflows survive restarts. */
export const temporalService: LocalService = {
  name: 'temporal',
  processMatch: 'temporal',
  binaries: ['temporal'],
  ports: (config) => [
    { label: 'gRPC', port: config.FORGE_TEMPORAL_PORT },
    { label: 'UI', port: config.FORGE_TEMPORAL_UI_PORT },
  ],
  address: (config) => config.temporalAddress,
  external: (config) => config.external.temporal,
  async prepare(config, layout) {
    mkdirSync(path.dirname(layout.temporalDb), { recursive: true });
    return {
      command: binaryPath(layout, 'temporal'),
      args: [
        'server',
        'start-dev',
        '--ip',
        config.FORGE_HOST,
        '--port',
        String(config.FORGE_TEMPORAL_PORT),
        '--ui-port',
        String(config.FORGE_TEMPORAL_UI_PORT),
        '--db-filename',
        layout.temporalDb,
        '--namespace',
        config.TEMPORAL_NAMESPACE,
        '--log-level',
        'warn',
        // A write-ahead log, synced at checkpoints: a killed server loses nothing it committed (only
        // an OS crash could lose the last writes); the default rollback journal syncs and
        // re-creates its journal file on every write transaction.
        '--sqlite-pragma',
        'journal_mode=wal',
        '--sqlite-pragma',
        'synchronous=normal',
      ],
      env: { TEMPORAL_VERSION_CHECK_DISABLED: '1' },
    };
  },
  async healthy(config) {
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address: config.temporalAddress, connectTimeout: '2s' });
      // The server's own namespace: a FORGE_NAMESPACE's Temporal namespace is registered after start-up.
      await connection.workflowService.describeNamespace({ namespace: 'default' });
      return true;
    } catch {
      return false;
    } finally {
      await connection?.close().catch(() => {});
    }
  },
  stopSignal: 'SIGTERM',
  startTimeoutMs: 180_000,
};
