import { z } from 'zod';
import { deriveSeed, Rng } from './random.ts';

/**
 * Instruction specificity: how much of the target an instruction gives away. `explicit` names the
 * file, sheet, cells or targets; `natural` says what a colleague would say (no cell addresses);
 * `goal` states the outcome and leaves the agent to find the targets. The rubric is the same.
 */
export const LEVELS = ['explicit', 'natural', 'goal'] as const;
export type InstructionLevel = (typeof LEVELS)[number];
export const levelSchema = z.enum(LEVELS);

/** A round's mix, in percent; the default is 20 / 50 / 30. */
export const levelMixSchema = z
  .object({
    explicit: z.number().min(0).max(100),
    natural: z.number().min(0).max(100),
    goal: z.number().min(0).max(100),
  })
  .strict()
  .refine((m) => m.explicit + m.natural + m.goal > 0, 'the level mix needs at least one non-zero share');
export type LevelMix = z.infer<typeof levelMixSchema>;
export const DEFAULT_LEVEL_MIX: LevelMix = { explicit: 20, natural: 50, goal: 30 };

/** Parses `20/50/30` (explicit/natural/goal), as the CLI takes it. */
export function parseLevelMix(text: string): LevelMix {
  const parts = text.split('/').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error(
      `level mix "${text}" must be three non-negative numbers explicit/natural/goal, e.g. 20/50/30`,
    );
  }
  const r = levelMixSchema.safeParse({ explicit: parts[0], natural: parts[1], goal: parts[2] });
  if (!r.success) throw new Error(`level mix "${text}": ${r.error.issues[0]?.message}`);
  return r.data;
}

/**
 * Quotas for `n` tasks by largest remainder, so a skill's tasks follow the mix as closely as a
 * whole number allows (3 tasks at 20/50/30 give one of each), then a seeded shuffle decides which
 * task index gets which level. Deterministic for (seed, n).
 */
export function levelPlan(mix: LevelMix, n: number, seed: number): InstructionLevel[] {
  const total = mix.explicit + mix.natural + mix.goal;
  const exact = LEVELS.map((l) => (mix[l] / total) * n);
  const counts = exact.map(Math.floor);
  const order = LEVELS.map((_, i) => i).sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!));
  for (let k = 0, left = n - counts.reduce((a, b) => a + b, 0); left > 0; k++, left--) {
    counts[order[k % order.length]!]!++;
  }
  const plan = LEVELS.flatMap((l, i) => Array<InstructionLevel>(counts[i]!).fill(l));
  const rng = new Rng(deriveSeed(seed, 'levels'));
  for (let i = plan.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [plan[i], plan[j]] = [plan[j]!, plan[i]!];
  }
  return plan;
}

/** The level of one task of a skill run of `n` tasks (indices past n cycle through the plan). */
export function levelFor(mix: LevelMix, n: number, index: number, seed: number): InstructionLevel {
  const plan = levelPlan(mix, Math.max(1, n), seed);
  return plan[index % plan.length]!;
}

/** Appended to an instruction node's prompt: what the level means for the wording. */
export const LEVEL_GUIDANCE: Record<InstructionLevel, string> = {
  explicit:
    'Specificity: explicit. Name the file and the exact targets (sheet, cells or ranges, slide numbers, folders, phrases) so nothing has to be searched for.',
  natural:
    'Specificity: natural. Say it the way a colleague would: name the file or app object and describe targets by their meaning (a column header, "the paragraph about parking", "the last slide"). No cell addresses or ranges.',
  goal: 'Specificity: goal. State the outcome the person wants and leave the agent to find the targets ("the overdue invoices should stand out"). No cell addresses, ranges or step-by-step directions.',
};
