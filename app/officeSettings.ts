import type { Config } from '../infra/config.ts';
import type { OfficeSettings } from '../preparers/office/index.ts';

/** The office converter's settings from config: backend, pool size (bounded by the queue), timeouts. */
export function officeSettingsOf(config: Config): OfficeSettings {
  return {
    backend: config.FORGE_OFFICE_BACKEND,
    soffice: config.FORGE_SOFFICE,
    batchSize: config.FORGE_OFFICE_BATCH_SIZE,
    waitMs: config.FORGE_OFFICE_BATCH_WAIT_MS,
    python: config.FORGE_OFFICE_PYTHON,
    processes: Math.min(config.FORGE_OFFICE_PROCESSES, config.FORGE_OFFICE_QUEUE_CONCURRENCY),
    fileTimeoutMs: config.FORGE_OFFICE_FILE_TIMEOUT_MS,
    recycleAfter: config.FORGE_OFFICE_RECYCLE_AFTER,
  };
}
