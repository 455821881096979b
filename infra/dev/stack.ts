import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { type Config, isLoopback } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { ensureDatabase } from '../db/ensureDatabase.ts';
import { runMigrations } from '../db/migrate.ts';
import { ObjectStore } from '../objectStore.ts';
import { ensureTemporalNamespace } from '../temporal/namespace.ts';
import { ensureBinaries } from './binaries.ts';
import { resolveServiceEndpoints } from './endpoints.ts';
import { logFile, type StackLayout, stackLayout } from './layout.ts';
import { withStackLock } from './lock.ts';
import { portFree, processAlive, spawnDetached, stopProcess, waitUntil } from './processes.ts';
import type { LocalService } from './service.ts';
import { minioService } from './services/minio.ts';
import { postgresService } from './services/postgres.ts';
import { temporalService } from './services/temporal.ts';
import { readStackRecord, type ServiceName, type StackRecord, writeStackRecord } from './stackRecord.ts';

export const localServices: readonly LocalService[] = [postgresService, minioService, temporalService];

export type ServiceState = 'healthy' | 'unhealthy' | 'stopped' | 'external';

export interface ServiceStatus {
  service: ServiceName;
  address: string;
  pid: number | undefined;
  state: ServiceState;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

const lockTimeoutMs = 10 * 60_000;
const stopGraceMs = 15_000;
/** A start that dies at once is retried: after a SIGKILL, Postgres's orphaned backends may still hold its shared memory. */
const startAttempts = 4;

type Logger = (line: string) => void;

function lastLines(file: string, count: number): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(-count - 1)
    .join('\n')
    .trimEnd();
}

async function startService(
  svc: LocalService,
  config: Config,
  layout: StackLayout,
  record: StackRecord,
  log: Logger,
): Promise<'running' | 'started'> {
  const known = record.services[svc.name];
  if (known && processAlive(known.pid, svc.processMatch)) {
    const result = await waitUntil(() => svc.healthy(config), {
      timeoutMs: svc.startTimeoutMs,
      stillRunning: () => processAlive(known.pid, svc.processMatch),
    });
    if (result === 'ready') return 'running';
    if (result === 'timeout') {
      throw new Error(
        `${svc.name} (pid ${known.pid}) is running but not healthy after ${svc.startTimeoutMs / 1000}s; ` +
          `see ${logFile(layout, svc.name)} or run ./bin/forge dev down`,
      );
    }
  }
  if (known) log(`${svc.name}: recorded process ${known.pid} is not running; restarting it with its data`);
  for (const { label, port } of svc.ports(config)) {
    if (!(await portFree(config.FORGE_HOST, port))) {
      throw new PortInUseError(
        `${svc.name} cannot start: port ${port} (${label}) on ${config.FORGE_HOST} is already in use by another process; ` +
          `stop it or choose another port in the environment`,
      );
    }
  }
  const spec = await svc.prepare(config, layout, log);
  const logPath = logFile(layout, svc.name);
  for (let attempt = 1; ; attempt++) {
    const pid = spawnDetached(spec, logPath);
    record.services[svc.name] = {
      pid,
      port: svc.ports(config)[0].port,
      command: [spec.command, ...spec.args],
      startedAt: new Date().toISOString(),
    };
    writeStackRecord(layout.stackFile, record);
    const result = await waitUntil(() => svc.healthy(config), {
      timeoutMs: svc.startTimeoutMs,
      intervalMs: 300,
      stillRunning: () => processAlive(pid, svc.processMatch),
    });
    if (result === 'ready') {
      await svc.afterHealthy?.(config);
      log(`${svc.name}: started (pid ${pid}) at ${svc.address(config)}`);
      return 'started';
    }
    if (result === 'exited' && attempt < startAttempts) {
      await sleep(1000 * attempt);
      continue;
    }
    await stopProcess(pid, svc.processMatch, svc.stopSignal, stopGraceMs);
    delete record.services[svc.name];
    writeStackRecord(layout.stackFile, record);
    const why =
      result === 'exited' ? 'exited during start-up' : `was not healthy after ${svc.startTimeoutMs / 1000}s`;
    throw new Error(`${svc.name} ${why}; last lines of ${logPath}:\n${lastLines(logPath, 15)}`);
  }
}

/**
 * The dev services have no authentication of their own (Temporal, MinIO with dev credentials,
 * Postgres with a local password): they listen beyond loopback only when asked to in so many words.
 */
export function assertServicesBind(config: Config, anyLocal = true): void {
  if (!anyLocal || isLoopback(config.FORGE_HOST) || config.FORGE_SERVICES_ALLOW_REMOTE) return;
  throw new Error(
    `FORGE_HOST=${config.FORGE_HOST} would expose the dev services (Temporal, MinIO, Postgres) beyond this machine. ` +
      'To expose the dashboard, set FORGE_API_HOST instead; to really expose the services, also set FORGE_SERVICES_ALLOW_REMOTE=true (see docs/security.md).',
  );
}

/**
 * Starts whatever local service is not healthy (idempotent), then runs the database migrations and
 * creates the bucket — on external services too, so any configured stack ends up ready.
 */
export async function stackUp(config: Config, log: Logger = () => {}): Promise<ServiceStatus[]> {
  const layout = stackLayout(config);
  const local = localServices.filter((svc) => !svc.external(config));
  assertServicesBind(config, local.length > 0);
  // Credentials, data and logs of the services live here: nobody else may list or read it. Others
  // may pass through (o+x) because Postgres runs as its own user and must reach its data dir;
  // the credentials inside are 0600 and the data dir 0700 of that user.
  mkdirSync(config.home, { recursive: true, mode: 0o711 });
  chmodSync(config.home, 0o711);
  await withStackLock(layout.lockFile, lockTimeoutMs, async () => {
    await ensureBinaries(
      layout,
      local.flatMap((svc) => svc.binaries),
    );
    const record = readStackRecord(layout.stackFile);
    const results = await Promise.allSettled(
      local.map((svc) => startService(svc, config, layout, record, log)),
    );
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new Error(failures.map((f) => f.message).join('\n'));
  });
  const endpoints = resolveServiceEndpoints(config);
  await ensureDatabase(endpoints.databaseUrl);
  const database = openDatabase(endpoints.databaseUrl, 2);
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
  await new ObjectStore(endpoints.s3).ensureBucket();
  if (config.FORGE_NAMESPACE) {
    const connection = await Connection.connect({ address: config.temporalAddress });
    try {
      await ensureTemporalNamespace(connection.workflowService, config.TEMPORAL_NAMESPACE);
    } finally {
      await connection.close();
    }
  }
  return stackStatus(config);
}

/** Stops exactly the processes `up` recorded: the polite signal first, SIGKILL after a grace period. */
export async function stackDown(config: Config, log: Logger = () => {}): Promise<void> {
  const layout = stackLayout(config);
  await withStackLock(layout.lockFile, lockTimeoutMs, async () => {
    const record = readStackRecord(layout.stackFile);
    await Promise.all(
      localServices.map(async (svc) => {
        const known = record.services[svc.name];
        if (!known) return;
        const outcome = await stopProcess(known.pid, svc.processMatch, svc.stopSignal, stopGraceMs);
        log(
          `${svc.name}: ${outcome === 'not running' ? 'was not running' : `${outcome} (pid ${known.pid})`}`,
        );
        delete record.services[svc.name];
      }),
    );
    writeStackRecord(layout.stackFile, record);
  });
}

export async function stackStatus(config: Config): Promise<ServiceStatus[]> {
  const record = readStackRecord(stackLayout(config).stackFile);
  return Promise.all(
    localServices.map(async (svc): Promise<ServiceStatus> => {
      const address = svc.address(config);
      if (svc.external(config)) return { service: svc.name, address, pid: undefined, state: 'external' };
      const known = record.services[svc.name];
      if (!known || !processAlive(known.pid, svc.processMatch)) {
        return { service: svc.name, address, pid: undefined, state: 'stopped' };
      }
      const state = (await svc.healthy(config)) ? 'healthy' : 'unhealthy';
      return { service: svc.name, address, pid: known.pid, state };
    }),
  );
}

/** The tail of a service's log file. */
export function serviceLog(config: Config, service: ServiceName, lines: number): string {
  const file = logFile(stackLayout(config), service);
  if (!existsSync(file)) return `(no log yet at ${file})`;
  return lastLines(file, lines);
}
