import { z } from 'zod';

/**
 * A task's checkpoints: the units of partial credit. Each rubric item that names its checks is one
 * checkpoint, passed when every one of its checks passes. Checks no item names (older packages,
 * items written as prose only) become a checkpoint each, so the checkpoints cover every check and a
 * score of 1 means exactly what the binary PASS means.
 *
 * A checkpoint whose checks the untouched state already passes (all of them among the rubric's
 * `guards`: "everything else is left as it was") is a guard. It earns no credit of its own — doing
 * nothing must score 0 — but failing it voids the score: collateral damage is not partial success,
 * as it is no success in the binary verdict. The score is the weight of the passed progress
 * checkpoints over the weight of all of them (rubric item weights; 1 for a lone check).
 *
 * The portable checker (preparers/checker/main.py, `--score`) computes the same from the
 * checkpoints an export writes beside the checks.
 */
export const checkpointSchema = z.strictObject({
  /** The item's text (made unique within the task), or `check #<n> <kind>` for a lone check. */
  name: z.string().min(1),
  weight: z.number().positive(),
  /** 0-based indices of the checks that must all pass. */
  checks: z.array(z.number().int().min(0)).min(1),
  /** The untouched state passes it: it guards against collateral damage and earns no credit. */
  guard: z.boolean(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

interface RubricLike {
  checks: readonly { kind: string }[];
  items: readonly { text: string; weight: number; checks?: readonly number[] | undefined }[];
  guards?: readonly number[] | undefined;
}

export function checkpointsOf(rubric: RubricLike): Checkpoint[] {
  const n = rubric.checks.length;
  const guards = new Set(rubric.guards ?? []);
  const covered = new Set<number>();
  const out: Checkpoint[] = [];
  const names = new Set<string>();
  // Two items may read alike ("The draft is saved." in two steps): a name stays a unique key.
  const unique = (name: string) => {
    let candidate = name;
    for (let i = 2; names.has(candidate); i++) candidate = `${name} (${i})`;
    names.add(candidate);
    return candidate;
  };
  const add = (name: string, weight: number, checks: number[]) =>
    out.push({ name: unique(name), weight, checks, guard: checks.every((c) => guards.has(c)) });
  for (const item of rubric.items) {
    const checks = [...new Set(item.checks ?? [])].filter((c) => c < n).sort((a, b) => a - b);
    if (checks.length === 0) continue;
    for (const c of checks) covered.add(c);
    add(item.text, item.weight, checks);
  }
  for (let c = 0; c < n; c++) if (!covered.has(c)) add(`check #${c + 1} ${rubric.checks[c]!.kind}`, 1, [c]);
  return out;
}

export interface CheckpointScore {
  /** Weight of the passed progress checkpoints over the weight of all of them; 0 if a guard fails. */
  score: number;
  /** Progress checkpoints passed, and how many there are. */
  passed: number;
  total: number;
  checkpoints: { name: string; pass: boolean; weight: number; guard: boolean }[];
}

/** The score of one state from every check's verdict (the TypeScript probes' or the checker's). */
export function scoreCheckpoints(
  checkpoints: readonly Checkpoint[],
  passes: readonly boolean[],
): CheckpointScore {
  const rows = checkpoints.map((cp) => ({
    name: cp.name,
    pass: cp.checks.every((c) => passes[c] === true),
    weight: cp.weight,
    guard: cp.guard,
  }));
  const progress = rows.filter((r) => !r.guard);
  const total = progress.reduce((s, r) => s + r.weight, 0);
  const earned = progress.reduce((s, r) => s + (r.pass ? r.weight : 0), 0);
  const voided = rows.some((r) => r.guard && !r.pass);
  // Rounded as the checker rounds it, so both print the same number.
  const score = voided ? 0 : total === 0 ? 1 : roundScore(earned / total);
  return { score, passed: progress.filter((r) => r.pass).length, total: progress.length, checkpoints: rows };
}

/** Six decimals, as floor(x·10⁶ + ½)/10⁶: the checker does the same float arithmetic, so both print the same number. */
export const roundScore = (x: number) => Math.floor(x * 1e6 + 0.5) / 1e6;
