import { thresholds } from '../classify.ts';
import type { SkillStats } from '../stats.ts';

export type ExpansionAction = 'split' | 'sibling' | 'harder';
export type ProposalKind = ExpansionAction | 'retire';

/** A skill the expansion works on, with what its statistics call for. Small: it travels in workflow history. */
export interface ExpansionTarget {
  skillId: string;
  action: ExpansionAction;
  class: string;
  passRate: number;
  attempts: number;
  difficulty: number;
  /** Kinds the proposer may answer with for this target. */
  allowed: ProposalKind[];
}

/** A saturated skill at or above this pass rate may be retired (the student has nothing left to learn). */
export const retireRate = 0.95;

/**
 * Too hard → split into finer sub-skills; learnable but weak → new siblings; saturated → a harder
 * variant (and retirement when fully solved). Suspect and unmeasured skills are left to a person.
 * Most urgent first: too hard, then weakest learnable, then most saturated.
 */
export function expansionTargets(stats: SkillStats[], max: number): ExpansionTarget[] {
  const out: (ExpansionTarget & { rank: number })[] = [];
  for (const s of stats) {
    const base = {
      skillId: s.skillId,
      class: s.class,
      passRate: s.passRate,
      attempts: s.attempts,
      difficulty: s.difficulty,
    };
    if (s.class === 'too_hard') out.push({ ...base, action: 'split', allowed: ['split'], rank: s.passRate });
    else if (s.class === 'learnable' && s.passRate < thresholds.weakRate)
      out.push({ ...base, action: 'sibling', allowed: ['sibling'], rank: 1 + s.passRate });
    else if (s.class === 'saturated') {
      out.push({
        ...base,
        action: 'harder',
        allowed: s.passRate >= retireRate ? ['harder', 'retire'] : ['harder'],
        rank: 3 - s.passRate,
      });
    }
  }
  return out
    .sort((a, b) => a.rank - b.rank || a.skillId.localeCompare(b.skillId))
    .slice(0, max)
    .map(({ rank: _rank, ...t }) => t);
}
