import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';

/**
 * One model provider behind the client (llm/client.ts): the client owns caching, the ledger,
 * retries, limits and answer repair; a provider only sends one chat completion and answers it. An
 * HTTP failure is thrown as the openai SDK's `APIError` (`APIError.generate(status, body, message,
 * headers)` for another provider's transport), a lost connection as `APIConnectionError`, so
 * llm/retryPolicy.ts classifies every provider's failures alike (status, retry-after). The request
 * and answer are the OpenAI chat-completions shapes, the lingua franca every adapter translates to.
 */
export interface LlmProvider {
  complete(
    params: ChatCompletionCreateParamsNonStreaming,
    options: { signal?: AbortSignal; hintId?: string },
  ): Promise<{ completion: ChatCompletion; requestId: string | null }>;
}
