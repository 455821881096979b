import type { Config } from '../infra/config.ts';
import { offlineModelName } from './offline/server.ts';
import type { LlmTier } from './types.ts';

/** Where one model tier's calls go. */
export interface LlmEndpoint {
  /** Undefined = the openai client's default endpoint. */
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  /** Ledger label: `offline`, or the endpoint's host. */
  provider: string;
  offline: boolean;
}

export type LlmEndpoints = Record<LlmTier, LlmEndpoint>;

/**
 * From config: the configured endpoint and per-tier models when an API key is set; otherwise both
 * tiers go to the offline model at `offlineBaseURL`.
 */
export function endpointsFromConfig(config: Config, offlineBaseURL?: string): LlmEndpoints {
  if (config.llmApiKey) {
    const baseURL = config.FORGE_LLM_BASE_URL;
    const provider = baseURL ? new URL(baseURL).host : 'openai';
    const endpoint = (model: string): LlmEndpoint => ({
      baseURL,
      apiKey: config.llmApiKey as string,
      model,
      provider,
      offline: false,
    });
    return { default: endpoint(config.FORGE_LLM_MODEL), judge: endpoint(config.judgeModel) };
  }
  if (!offlineBaseURL) {
    throw new Error(
      'no LLM API key is configured (FORGE_LLM_API_KEY / OPENAI_API_KEY) and the offline model is not running',
    );
  }
  const offline: LlmEndpoint = {
    baseURL: offlineBaseURL,
    apiKey: 'offline',
    model: offlineModelName,
    provider: offlineModelName,
    offline: true,
  };
  return { default: offline, judge: offline };
}
