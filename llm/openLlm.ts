import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/client.ts';
import { createLlmClient, type LlmClient } from './client.ts';
import { endpointsFromConfig } from './endpoints.ts';
import { OfflineHintRegistry } from './offline/hints.ts';
import { type OfflineModel, offlineCall, startOfflineModel } from './offline/server.ts';
import { loadPriceTable } from './prices.ts';

export interface OpenLlm {
  client: LlmClient;
  /** The offline model this process serves, when no API key is configured. */
  offline: OfflineModel | undefined;
  close(): Promise<void>;
}

/**
 * The LLM client for a worker process: the configured endpoint, or, with no API key, the built-in
 * offline model started on loopback in this process (sharing its hint registry with the client),
 * which this process's client calls in process and other processes over HTTP.
 */
export async function openLlm(deps: { config: Config; database: Database }): Promise<OpenLlm> {
  const { config, database } = deps;
  const prices = loadPriceTable(config);
  const hints = new OfflineHintRegistry();
  const offline = config.llmApiKey
    ? undefined
    : await startOfflineModel({ hints, port: config.FORGE_OFFLINE_MODEL_PORT });
  const endpoints = endpointsFromConfig(config, offline?.baseURL);
  const client = createLlmClient({
    config,
    database,
    endpoints,
    prices,
    hints,
    ...(offline ? { offlineCall: offlineCall(hints) } : {}),
  });
  return { client, offline, close: async () => offline?.close() };
}
