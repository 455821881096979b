import { z } from 'zod';
import type { InstructionLevel } from './levels.ts';

/**
 * Task depth: how many distinct features or steps a task needs. It is a property of the skill
 * (`features:`; a composite sums its steps'), so a round's depth mix decides how many tasks each
 * skill gets, where the level mix decides how each task is worded.
 */
export const depthOf = (spec: { features?: number | undefined }): number => spec.features ?? 1;

/** Whether a task of this skill at this level leaves the agent to find its target itself. */
export const isDiscovery = (
  spec: { discovery?: readonly InstructionLevel[] },
  level: string | null | undefined,
): boolean => typeof level === 'string' && (spec.discovery ?? []).some((l) => l === level);

/** The long-horizon tier (issue 30): many features over several applications, scored by many checkpoints. */
export const LONG_HORIZON = { features: 6, apps: 3, checkpoints: 10 } as const;

export const isLongHorizon = (t: { depth: number; apps: number; checkpoints: number }) =>
  t.depth >= LONG_HORIZON.features &&
  t.apps >= LONG_HORIZON.apps &&
  t.checkpoints >= LONG_HORIZON.checkpoints;

/** A depth range as a mix key: `2` (exactly), `2-3` (inclusive), `4+` (at least). */
export interface DepthBucket {
  key: string;
  min: number;
  max: number;
}

const BUCKET = /^(?:(\d{1,2})|(\d{1,2})-(\d{1,2})|(\d{1,2})\+)$/;

export function parseDepthBucket(key: string): DepthBucket | string {
  const m = BUCKET.exec(key.trim());
  if (!m) return `"${key}" is not a depth range; write 2, 2-3 or 4+`;
  const [min, max] = m[1]
    ? [Number(m[1]), Number(m[1])]
    : m[2]
      ? [Number(m[2]), Number(m[3])]
      : [Number(m[4]), Number.POSITIVE_INFINITY];
  if (min < 1) return `"${key}": depth starts at 1`;
  if (max < min) return `"${key}": the range ends before it starts`;
  return { key: key.trim(), min, max };
}

/** `{ "1": 50, "2-3": 35, "4+": 15 }`: shares of a round's tasks by depth, in percent. */
export const depthMixSchema = z
  .record(z.string(), z.number().min(0, 'a share is at least 0').max(100, 'a share is at most 100'))
  .superRefine((mix, ctx) => {
    const buckets: DepthBucket[] = [];
    for (const key of Object.keys(mix)) {
      const b = parseDepthBucket(key);
      if (typeof b === 'string') ctx.addIssue({ code: 'custom', message: b, path: [key] });
      else buckets.push(b);
    }
    buckets.sort((a, b) => a.min - b.min);
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]!.min <= buckets[i - 1]!.max)
        ctx.addIssue({
          code: 'custom',
          message: `depth ranges "${buckets[i - 1]!.key}" and "${buckets[i]!.key}" overlap`,
        });
    }
    if (Object.keys(mix).length === 0)
      ctx.addIssue({ code: 'custom', message: 'the depth mix names no depth' });
    else if (Object.values(mix).every((v) => v === 0))
      ctx.addIssue({ code: 'custom', message: 'the depth mix needs at least one non-zero share' });
  });
export type DepthMix = z.infer<typeof depthMixSchema>;

/** The mix's ranges in depth order, with their shares. */
export function depthBuckets(mix: DepthMix): (DepthBucket & { share: number })[] {
  return Object.entries(mix)
    .map(([key, share]) => ({ ...(parseDepthBucket(key) as DepthBucket), share }))
    .sort((a, b) => a.min - b.min);
}

/**
 * Parses the CLI's form: `1=50,2-3=35,4+=15` (or `:` for `=`), or the same as JSON. Shares are
 * percentages of the round's tasks; they need not add up to 100 (they are taken relative to their sum).
 */
export function parseDepthMix(text: string): DepthMix {
  let value: unknown;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new Error(`depth mix "${text}" is not valid JSON`);
    }
  } else {
    const entries = trimmed.split(',').map((part) => {
      const m = /^\s*([^=:\s]+)\s*[=:]\s*([^\s]+)\s*$/.exec(part);
      if (!m) throw new Error(`depth mix "${text}": write depth=share pairs such as 1=50,2-3=35,4+=15`);
      const share = Number(m[2]);
      if (!Number.isFinite(share)) throw new Error(`depth mix "${text}": "${m[2]}" is not a number`);
      return [m[1]!, share] as const;
    });
    value = Object.fromEntries(entries);
  }
  const r = depthMixSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(
      `depth mix "${text}": ${issue.path.length ? `${String(issue.path[0])}: ` : ''}${issue.message}`,
    );
  }
  return r.data;
}

/** A skill the round would run: its depth and the tasks it asks for (its weight inside its depth range). */
export interface DepthPlanSkill {
  id: string;
  depth: number;
  tasks: number;
}

export interface DepthPlanRow {
  key: string;
  share: number;
  skills: number;
  tasks: number;
}

export class DepthPlanError extends Error {
  override name = 'DepthPlanError';
}

/** Splits `total` over `weights` by largest remainder; ties go to the earlier entry. */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w / sum) * total);
  const counts = exact.map(Math.floor);
  const order = weights
    .map((_, i) => i)
    .sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!) || a - b);
  for (let k = 0, left = total - counts.reduce((a, b) => a + b, 0); left > 0; k++, left--) {
    counts[order[k % order.length]!]!++;
  }
  return counts;
}

/**
 * Re-plans a round's tasks per skill to follow a depth mix: the round's total stays what it asked
 * for, each depth range gets its share of it (largest remainder), and inside a range the tasks go
 * to its skills in proportion to what each asked for (an allocation's weights survive). Skills in
 * no range of the mix get none. A range with a share but no skill is an error, never a silent skew.
 * Deterministic for its input; skills are taken in the order given.
 */
export function planDepthMix(
  skills: DepthPlanSkill[],
  mix: DepthMix,
): { tasks: Map<string, number>; rows: DepthPlanRow[] } {
  const buckets = depthBuckets(mix).filter((b) => b.share > 0);
  const members = buckets.map((b) =>
    skills.filter((s) => s.tasks > 0 && s.depth >= b.min && s.depth <= b.max),
  );
  const empty = buckets.filter((_, i) => members[i]!.length === 0);
  if (empty.length > 0) {
    const present = [...new Set(skills.map((s) => s.depth))].sort((a, b) => a - b);
    throw new DepthPlanError(
      `the depth mix gives ${empty.map((b) => `${b.share}% to depth ${b.key}`).join(' and ')}, but no selected skill has that depth (the ${skills.length} selected skills have depth ${present.join(', ') || 'none'})`,
    );
  }
  const total = skills.reduce((a, s) => a + s.tasks, 0);
  const quotas = apportion(
    total,
    buckets.map((b) => b.share),
  );
  const tasks = new Map<string, number>(skills.map((s) => [s.id, 0]));
  const rows = buckets.map((b, i) => {
    const list = members[i]!;
    const counts = apportion(
      quotas[i]!,
      list.map((s) => s.tasks),
    );
    for (const [j, s] of list.entries()) tasks.set(s.id, counts[j]!);
    return { key: b.key, share: b.share, skills: counts.filter((n) => n > 0).length, tasks: quotas[i]! };
  });
  return { tasks, rows };
}

/**
 * A round that asks for no depth mix and no allocation gives every skill the same count, and the
 * library's few long-horizon workflows (6 of 293 skills) would be 2% of it, under the tier's 5%.
 * Such a round raises their counts (and only theirs: no other skill loses a task) until they hold
 * this share; 6% rather than 5% so that a long workflow rejected now and then still leaves the
 * round's accepted tasks at 5% or more.
 */
export const LONG_HORIZON_ROUND_SHARE = 0.06;

/** A skill whose tasks are long-horizon: its depth and applications (its tasks' checkpoints are counted per task). */
export const isLongHorizonSkill = (s: { depth: number; apps: number }) =>
  s.depth >= LONG_HORIZON.features && s.apps >= LONG_HORIZON.apps;

/**
 * The default round's counts: the long-horizon skills' tasks raised to `share` of the round (in
 * proportion to what each asked for, each keeping at least that), every other skill as asked. A
 * selection without long-horizon skills, or only of them, is returned as asked.
 */
export function weightLongHorizon(
  skills: (DepthPlanSkill & { apps: number })[],
  share: number = LONG_HORIZON_ROUND_SHARE,
): Map<string, number> {
  const tasks = new Map(skills.map((s) => [s.id, s.tasks]));
  const long = skills.filter((s) => s.tasks > 0 && isLongHorizonSkill(s));
  const others = skills.reduce((a, s) => a + (isLongHorizonSkill(s) ? 0 : s.tasks), 0);
  if (long.length === 0 || others === 0) return tasks;
  // L / (others + L) >= share  <=>  L >= share * others / (1 - share)
  const want = Math.ceil((share * others) / (1 - share) - 1e-9);
  const have = long.reduce((a, s) => a + s.tasks, 0);
  if (have >= want) return tasks;
  const counts = apportion(
    want,
    long.map((s) => s.tasks),
  );
  for (const [i, s] of long.entries()) tasks.set(s.id, Math.max(s.tasks, counts[i]!));
  return tasks;
}

/** Keeps the skills of at least `minDepth`; none left is an error that says how deep the selection goes. */
export function filterMinDepth<T extends { depth: number }>(skills: T[], minDepth: number): T[] {
  const kept = skills.filter((s) => s.depth >= minDepth);
  if (kept.length === 0) {
    const deepest = Math.max(0, ...skills.map((s) => s.depth));
    throw new DepthPlanError(
      `no selected skill has depth ${minDepth} or more (the deepest of the ${skills.length} selected has ${deepest})`,
    );
  }
  return kept;
}
