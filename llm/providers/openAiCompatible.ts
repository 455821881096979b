import OpenAI from 'openai';
import type { LlmEndpoint } from '../endpoints.ts';
import { offlineHintHeader } from '../offline/hints.ts';
import type { LlmProvider } from './provider.ts';

/**
 * Any OpenAI-compatible chat-completions endpoint over HTTP (a hosted model, a local server, or
 * the offline model's own server, which reads the spec's offline hint from a header).
 */
export function openAiCompatibleProvider(endpoint: LlmEndpoint, timeoutSeconds: number): LlmProvider {
  // Retries are the client's (bounded, ledgered, limiter-aware), never the SDK's.
  const sdk = new OpenAI({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    maxRetries: 0,
    timeout: timeoutSeconds * 1000,
  });
  return {
    async complete(params, { signal, hintId }) {
      const headers = hintId ? { [offlineHintHeader]: hintId } : undefined;
      const { data, response } = await sdk.chat.completions
        .create(params, { headers, signal })
        .withResponse();
      return { completion: data, requestId: response.headers.get('x-request-id') };
    },
  };
}
