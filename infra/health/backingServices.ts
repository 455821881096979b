import type { Database } from '../db/client.ts';
import type { ServiceEndpoints } from '../dev/endpoints.ts';
import type { ObjectStore } from '../objectStore.ts';
import type { ServiceName, ServicePorts } from '../serviceErrors.ts';
import type { WatchedService } from './serviceWatch.ts';

/** Which port is which service, so a bare connection error can be attributed. */
export function servicePorts(endpoints: ServiceEndpoints): ServicePorts {
  const ports = new Map<number, ServiceName>();
  const pgPort = new URL(endpoints.databaseUrl).port;
  ports.set(pgPort ? Number(pgPort) : 5432, 'postgres');
  ports.set(endpoints.s3.port, 'minio');
  const temporalPort = Number(endpoints.temporalAddress.split(':').pop());
  if (Number.isFinite(temporalPort)) ports.set(temporalPort, 'temporal');
  return ports;
}

/** Probes of the three backing services; Temporal's only when the process holds a connection. */
export function backingServiceProbes(deps: {
  database: Database;
  store: ObjectStore;
  temporal?: () => Promise<unknown>;
}): WatchedService[] {
  const probes: WatchedService[] = [
    { name: 'postgres', probe: () => deps.database.pool.query('SELECT 1') },
    { name: 'minio', probe: () => deps.store.ping() },
  ];
  if (deps.temporal) probes.push({ name: 'temporal', probe: deps.temporal });
  return probes;
}
