import { createHash } from 'node:crypto';

/**
 * A task's id is derived from (round, skill, index), so a retried or resumed gate finds the same
 * row. It is formatted as a UUID v4 (version and variant bits set) because harnesses expect one.
 */
export function taskIdFor(roundId: string, skillId: string, taskIndex: number): string {
  const h = createHash('sha256').update(`${roundId}\u0000${skillId}\u0000${taskIndex}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
