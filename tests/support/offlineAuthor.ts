import { answerFor } from '../../llm/offline/server.ts';
import type { LlmCaller } from '../../skills/run/author.ts';

/**
 * The offline model's answers without its HTTP server: the same `answerFor` the server runs, with
 * the caller's validation. For fast tests that author many tasks (no ledger, no cache).
 */
export const offlineCaller: LlmCaller = async (call) => {
  const text = answerFor(
    {
      model: 'offline',
      messages: call.messages,
      seed: call.seed,
      response_format: {
        type: 'json_schema',
        json_schema: { name: call.schemaName, schema: call.jsonSchema as Record<string, unknown> },
      },
    } as Parameters<typeof answerFor>[0],
    call.offlineHint as Parameters<typeof answerFor>[1],
  );
  const checked = call.validate(JSON.parse(text));
  return checked.success
    ? { ok: true, value: checked.data }
    : { ok: false, reason: 'invalid_output', detail: checked.error };
};
