import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.ts';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  close(): Promise<void>;
}

/** A client bound to the configured namespace on the configured (external or local dev) server. */
export async function connectTemporal(config: Config): Promise<TemporalHandle> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporalAddress, connectTimeout: '10s' });
  } catch (err) {
    const hint = config.external.temporal ? 'check TEMPORAL_ADDRESS' : 'run ./bin/forge dev up';
    throw new Error(
      `cannot reach Temporal at ${config.temporalAddress} (${(err as Error).message}); ${hint}`,
    );
  }
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  return { connection, client, close: () => connection.close() };
}
