import type { SkillClass } from './classify.ts';
import type { SkillStatus } from './tree.ts';

/**
 * The allocation formula (docs/allocation.md). Every skill gets a weight from its class; new
 * candidates get a fixed share; the rest of the total is split in proportion to the weights with
 * largest-remainder rounding, and every positive weight gets at least one task.
 */
export const allocationWeights = {
  /** learnable: 1 + 2·(1 − p): more where the student fails but can learn (1 … 3). */
  learnableBase: 1,
  learnableGap: 2,
  saturated: 0.25,
  too_hard: 0.5,
  /** Held back until a person looks at it: results or tasks are likely wrong. */
  suspect: 0,
  /** Ran, but too few results to say anything: keep the same share as before. */
  unmeasured: 1,
} as const;

export const allocationDefaults = {
  /** Share of the total reserved for new candidate skills (split evenly among them). */
  candidateShare: 0.25,
  /** Each candidate gets at least this many tasks, so its first measurement means something. */
  minCandidateTasks: 2,
};

export interface AllocationInput {
  skillId: string;
  status: SkillStatus;
  /** The class from the feedback round; absent for skills the round did not run (new candidates). */
  class?: SkillClass;
  passRate?: number;
  /** Tasks this skill had in the feedback round. */
  previousTasks?: number;
}

export interface AllocationEntry extends AllocationInput {
  weight: number;
  tasks: number;
  reason: string;
}

export function skillWeight(input: AllocationInput): { weight: number; reason: string } {
  if (input.status === 'retired') return { weight: 0, reason: 'retired' };
  const c = input.class;
  if (!c) return { weight: 0, reason: 'new candidate (candidate share)' };
  if (c === 'learnable') {
    const p = input.passRate ?? 0;
    const w = allocationWeights.learnableBase + allocationWeights.learnableGap * (1 - p);
    return { weight: w, reason: `learnable, p=${p.toFixed(2)}: 1 + 2·(1 − p)` };
  }
  return { weight: allocationWeights[c], reason: c };
}

/** Largest-remainder split of `total` by weights; positive weights get at least `min`. */
function apportion(weights: number[], total: number, min: number): number[] {
  const positive = weights.filter((w) => w > 0).length;
  const spread = Math.max(0, total - positive * min);
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum > 0 ? (w / sum) * spread : 0));
  const out = exact.map((x, i) => (weights[i]! > 0 ? min + Math.floor(x) : 0));
  let left = spread - exact.reduce((a, x) => a + Math.floor(x), 0);
  const order = exact
    .map((x, i) => ({ i, r: x - Math.floor(x) }))
    .filter(({ i }) => weights[i]! > 0)
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

export function allocate(
  inputs: AllocationInput[],
  totalTasks: number,
  opts: Partial<typeof allocationDefaults> = {},
): AllocationEntry[] {
  const o = { ...allocationDefaults, ...opts };
  const isNew = (x: AllocationInput) => x.status === 'candidate' && !x.class;
  const candidates = inputs.filter(isNew);
  const perCandidate =
    candidates.length === 0
      ? 0
      : Math.max(o.minCandidateTasks, Math.round((o.candidateShare * totalTasks) / candidates.length));
  const rest = Math.max(0, totalTasks - perCandidate * candidates.length);
  const measured = inputs.filter((x) => !isNew(x));
  const weighed = measured.map((x) => ({ x, ...skillWeight(x) }));
  const counts = apportion(
    weighed.map((w) => w.weight),
    rest,
    1,
  );
  const out: AllocationEntry[] = weighed.map((w, i) => ({
    ...w.x,
    weight: w.weight,
    reason: w.reason,
    tasks: counts[i]!,
  }));
  for (const c of candidates) {
    out.push({
      ...c,
      weight: 0,
      tasks: perCandidate,
      reason: `new candidate: ${o.candidateShare} of ${totalTasks} shared by ${candidates.length}, at least ${o.minCandidateTasks}`,
    });
  }
  return out.sort((a, b) => a.skillId.localeCompare(b.skillId));
}
