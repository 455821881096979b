import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token usage the way OpenAI chat models report it, counted with the real o200k tokenizer:
 * each message costs its content plus a fixed framing (3 tokens per message, 3 to prime the reply).
 */
export function countPromptTokens(messages: readonly { role: string; content: string }[]): number {
  let total = 3;
  for (const m of messages) total += 3 + countTokens(m.role) + countTokens(m.content);
  return total;
}

export function countCompletionTokens(text: string): number {
  return countTokens(text);
}
