import type { OfflineAnswer, OfflineRequest } from '../offline/server.ts';
import type { LlmProvider } from './provider.ts';

/** The offline model of this process, called directly instead of over loopback HTTP. */
export function offlineInProcessProvider(
  offlineCall: (request: OfflineRequest, hintId?: string) => OfflineAnswer,
): LlmProvider {
  return {
    async complete(params, { signal, hintId }) {
      signal?.throwIfAborted();
      const answer = offlineCall(params as OfflineRequest, hintId);
      return { completion: answer.completion, requestId: answer.requestId };
    },
  };
}
