import { answerFor } from '../../llm/offline/server.ts';
import {
  type RecordedRequest,
  reply,
  type ScriptedLlm,
  type ScriptedReply,
  startScriptedLlm,
} from './scriptedLlm.ts';

/**
 * A scripted OpenAI-compatible endpoint that, once its script is used up, answers every request
 * with a schema-valid answer (the offline model's filler, no hints) billed at the scripted usage,
 * and a good verdict to the judge. Settings point the product at it as a priced model.
 */
export async function startPricedEndpoint(
  script: ScriptedReply[] = [],
  fallbackOverride?: () => ScriptedReply | undefined,
): Promise<{ llm: ScriptedLlm; env: Record<string, string> }> {
  const llm = await startScriptedLlm({
    replies: script,
    fallback: (body: RecordedRequest['body']) => {
      const override = fallbackOverride?.();
      if (override) return override;
      if (body.response_format?.json_schema?.name === 'judge_verdict') {
        return reply.valid({ consistency: 0.9, clarity: 0.9, feasibility: 0.9, issues: [] });
      }
      return {
        kind: 'answer',
        content: answerFor(body as Parameters<typeof answerFor>[0], undefined),
        finishReason: 'stop',
      };
    },
  });
  return {
    llm,
    env: {
      FORGE_LLM_API_KEY: 'sk-test-scripted',
      FORGE_LLM_BASE_URL: llm.baseURL,
      FORGE_LLM_MODEL: 'gpt-4.1-mini',
    },
  };
}
