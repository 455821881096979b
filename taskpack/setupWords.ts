import { shellQuote } from './shellQuote.ts';

/**
 * The words a setup script is built from, each checked before it reaches a shell: a command's
 * words quoted one by one, a digest, a file mode, a pause. Shared by the VM setup script and the
 * bundle's setup.sh.
 */

export function command(words: readonly string[]): string {
  if (words.length === 0) throw new Error('a command needs at least the program name');
  return words.map(shellQuote).join(' ');
}

export function assertSha(value: string): string {
  if (!/^[0-9a-f]{64}$/.test(value)) throw new Error(`not a sha256 digest: ${JSON.stringify(value)}`);
  return value;
}

export function assertMode(value: string): string {
  if (!/^[0-7]{3,4}$/.test(value)) throw new Error(`not an octal file mode: ${JSON.stringify(value)}`);
  return value;
}

export function assertSeconds(value: number): string {
  if (!Number.isFinite(value) || value < 0 || value > 600) throw new Error(`bad sleep duration: ${value}`);
  return String(value);
}
