import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token usage the way OpenAI chat models report it, counted with the real o200k tokenizer:
 * each message costs its content plus a fixed framing (3 tokens per message, 3 to prime the reply).
 */
export function countPromptTokens(messages: readonly { role: string; content: string }[]): number {
  let total = 3;
  for (const m of messages) total += 3 + remembered(m.role) + remembered(m.content);
  return total;
}

/** Counts of recent message texts: a node's system prompt is the same for every task of a skill. */
const counts = new Map<string, number>();
const REMEMBERED = 512;

function remembered(text: string): number {
  let n = counts.get(text);
  if (n === undefined) {
    n = countTokens(text);
    if (counts.size >= REMEMBERED) counts.delete(counts.keys().next().value!);
    counts.set(text, n);
  }
  return n;
}

export function countCompletionTokens(text: string): number {
  return countTokens(text);
}
