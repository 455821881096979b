import { addSkill, placeOf } from '../library.ts';
import type { SkillStats } from '../stats.ts';
import { normalizeTree, type SkillPlace, skillIndex, type Taxonomy } from '../tree.ts';

export interface Adopted {
  skillId: string;
  targetSkillId: string;
  title: string;
  apps: string[];
  category: string;
}

export interface TreeChanges {
  added: string[];
  retired: string[];
  promoted: string[];
}

/**
 * The next taxonomy version: the base tree plus the adopted specs as candidates (next to the skill
 * they came from), the retirements, and the verdict on the base's candidates that the feedback
 * round measured — learnable or saturated ones become active, too hard or suspect ones retire.
 */
export function expandTree(
  base: Taxonomy,
  adopted: Adopted[],
  retire: string[],
  stats: SkillStats[],
): { tree: Taxonomy; changes: TreeChanges } {
  const tree = normalizeTree(base);
  const index = skillIndex(tree);
  const entry = (p: SkillPlace) => tree.domains[p.domain]!.apps[p.app]!.categories[p.category]!.skills[p.id]!;
  const changes: TreeChanges = { added: [], retired: [], promoted: [] };
  for (const a of adopted) {
    if (index.has(a.skillId)) continue;
    const where = index.get(a.targetSkillId) ?? placeOf(a);
    addSkill(tree, where, a.skillId, { description: a.title, status: 'candidate', parent: a.targetSkillId });
    changes.added.push(a.skillId);
  }
  for (const id of retire) {
    const p = index.get(id);
    if (p && p.status !== 'retired') {
      entry(p).status = 'retired';
      changes.retired.push(id);
    }
  }
  for (const s of stats) {
    const p = index.get(s.skillId);
    if (p?.status !== 'candidate') continue;
    if (s.class === 'learnable' || s.class === 'saturated') {
      entry(p).status = 'active';
      changes.promoted.push(s.skillId);
    } else if (s.class === 'too_hard' || s.class === 'suspect') {
      entry(p).status = 'retired';
      changes.retired.push(s.skillId);
    }
  }
  return { tree: normalizeTree(tree), changes };
}
