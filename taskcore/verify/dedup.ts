import { createHash } from 'node:crypto';

/**
 * Near-duplicate detection: a MinHash signature of the normalised instruction's word 3-shingles
 * (numbers folded to #, so "row 12" and "row 31" shingle alike), plus a signature of the task's
 * parameters and model answers. Two tasks of a skill are near-duplicates when their instructions
 * are at least `threshold` similar and their parameter signatures match (same sampled parameters
 * and the same model answers): bulk data differs by seed, so that alone does not make a new task.
 */
const HASHES = 64;

export function normaliseInstruction(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\d+([.,]\d+)*/g, '#')
    .replace(/[^\p{L}\p{N}#\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function shingles(words: string[]): string[] {
  if (words.length < 3) return [words.join(' ')];
  const out: string[] = [];
  for (let i = 0; i + 3 <= words.length; i++) out.push(words.slice(i, i + 3).join(' '));
  return out;
}

function hash32(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h | 0;
}

export function minhash(text: string): number[] {
  const sh = shingles(normaliseInstruction(text));
  const sig: number[] = [];
  for (let k = 0; k < HASHES; k++) {
    let min = 0x7fffffff;
    for (const s of sh) min = Math.min(min, hash32(s, k * 0x9e3779b1) & 0x7fffffff);
    sig.push(min);
  }
  return sig;
}

export function similarity(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

export function paramSignature(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 32);
}

export function isNearDuplicate(
  candidate: { minhash: number[]; paramSignature: string },
  other: { minhash: number[]; paramSignature: string },
  threshold: number,
): boolean {
  const sim = similarity(candidate.minhash, other.minhash);
  return sim >= threshold && candidate.paramSignature === other.paramSignature;
}
