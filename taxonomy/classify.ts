import { wilsonInterval } from './wilson.ts';

/**
 * Classification thresholds (documented in docs/feedback-format.md). A skill's pass rate p is the
 * mean success of its student runs; [low, high] is its 95% Wilson interval.
 */
export const thresholds = {
  /** Fewer attempts than this: `unmeasured`, nothing is concluded. */
  minAttempts: 4,
  /** saturated: p ≥ this and low > 0.5 (confidently solved). */
  saturatedRate: 0.8,
  /** too_hard: p ≤ this and high < 0.5 (confidently failed). */
  tooHardRate: 0.2,
  /** Difficulty at or below this is an easy skill: never a success there is suspect, not too hard. */
  easyDifficulty: 2,
  /** Learnable skills below this rate are weak: the expansion adds siblings. */
  weakRate: 0.5,
  /** Runs a task needs before its own interval is compared with its siblings'. */
  minRunsPerTask: 3,
} as const;

export const skillClasses = ['saturated', 'learnable', 'too_hard', 'suspect', 'unmeasured'] as const;
export type SkillClass = (typeof skillClasses)[number];

export interface ClassInput {
  attempts: number;
  successSum: number;
  difficulty: number;
  /** Tasks the student saw that the oracle solved (accepted tasks). */
  acceptedTasks: number;
  /** Per task: runs and summed success. */
  perTask: { runs: number; successSum: number }[];
}

export interface Classification {
  class: SkillClass;
  reason: string;
}

/** Two tasks of one skill whose intervals do not overlap: the student results disagree wildly. */
function disagreement(perTask: ClassInput['perTask']): string | undefined {
  const measured = perTask
    .filter((t) => t.runs >= thresholds.minRunsPerTask)
    .map((t) => ({ ...t, ci: wilsonInterval(t.successSum, t.runs) }));
  for (const a of measured) {
    for (const b of measured) {
      if (a.ci.high < b.ci.low) {
        return `tasks disagree: ${a.successSum}/${a.runs} vs ${b.successSum}/${b.runs} (95% intervals do not overlap)`;
      }
    }
  }
  return undefined;
}

export function classify(input: ClassInput): Classification {
  const { attempts, successSum } = input;
  if (attempts < thresholds.minAttempts)
    return { class: 'unmeasured', reason: `${attempts} attempts < ${thresholds.minAttempts}` };
  const p = successSum / attempts;
  const ci = wilsonInterval(successSum, attempts);
  if (successSum === 0 && input.difficulty <= thresholds.easyDifficulty && input.acceptedTasks > 0) {
    return {
      class: 'suspect',
      reason: `the oracle solves it, the student never did (0/${attempts}) on an easy skill (difficulty ${input.difficulty})`,
    };
  }
  const disagree = disagreement(input.perTask);
  if (disagree) return { class: 'suspect', reason: disagree };
  const rate = `pass rate ${p.toFixed(2)} [${ci.low.toFixed(2)}, ${ci.high.toFixed(2)}]`;
  if (p >= thresholds.saturatedRate && ci.low > 0.5) return { class: 'saturated', reason: rate };
  if (p <= thresholds.tooHardRate && ci.high < 0.5) return { class: 'too_hard', reason: rate };
  return { class: 'learnable', reason: p < thresholds.weakRate ? `${rate}, weak` : rate };
}
