import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CallOutcome } from './ledger.ts';
import type { Validation } from './types.ts';

/** What one completed response amounts to. `repairable` failures get one repair call. */
export type Judgement<T> =
  | { ok: true; value: T; content: string }
  | {
      ok: false;
      outcome: Exclude<CallOutcome, 'ok' | 'http_error'>;
      error: string;
      content: string;
      repairable: boolean;
    };

export function judgeCompletion<T>(
  completion: ChatCompletion,
  validate: (v: unknown) => Validation<T>,
): Judgement<T> {
  const choice = completion.choices?.[0];
  const content = choice?.message?.content ?? '';
  if (!choice)
    return {
      ok: false,
      outcome: 'invalid_output',
      error: 'response has no choices',
      content,
      repairable: false,
    };
  if (choice.finish_reason === 'length') {
    const tokens = completion.usage?.completion_tokens;
    return {
      ok: false,
      outcome: 'truncated',
      error: `answer truncated (finish_reason length${tokens === undefined ? '' : ` after ${tokens} completion tokens`})`,
      content,
      repairable: false,
    };
  }
  if (choice.finish_reason === 'content_filter') {
    return {
      ok: false,
      outcome: 'filtered',
      error: 'answer withheld by the provider (finish_reason content_filter)',
      content,
      repairable: false,
    };
  }
  const refusal = choice.message?.refusal;
  if (refusal)
    return {
      ok: false,
      outcome: 'filtered',
      error: `model refused: ${refusal.slice(0, 500)}`,
      content,
      repairable: false,
    };
  if (content.trim() === '')
    return { ok: false, outcome: 'invalid_output', error: 'empty answer', content, repairable: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (e) {
    return {
      ok: false,
      outcome: 'invalid_output',
      error: `not valid JSON: ${(e as Error).message}`,
      content,
      repairable: true,
    };
  }
  const v = validate(parsed);
  if (!v.success)
    return {
      ok: false,
      outcome: 'invalid_output',
      error: `schema violation: ${v.error}`,
      content,
      repairable: true,
    };
  return { ok: true, value: v.data, content };
}

/** The one repair turn: the model sees its own answer and the exact validation error. */
export function repairMessage(error: string): string {
  return (
    `Your previous answer is not valid: ${error.slice(0, 2000)}\n` +
    'Answer again with only the corrected JSON object. It must match the required JSON schema exactly.'
  );
}
