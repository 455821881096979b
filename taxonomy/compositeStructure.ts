import type { SkillSpec } from '../skills/schema.ts';

/**
 * The shape of composite skills: a composite's step kinds are its steps' skill ids cut to
 * `app.category` (calc.formulas, thunderbird.drafts), in order. Two composites with the same
 * sequence teach the same workflow with other parameters (total-then-mail and average-then-mail),
 * so the library keeps one per sequence; a cluster is a sequence several composites share.
 */

type StepNode = { step: { skill: string } };

/** The skill ids of a (loaded, expanded) composite's steps, in order; empty for a plain skill. */
export function stepSkills(spec: Pick<SkillSpec, 'nodes'>): string[] {
  return spec.nodes.flatMap((n) => ('step' in n ? [(n as StepNode).step.skill] : []));
}

/** `app.category` of a skill id. */
export function skillKind(id: string): string {
  return id.split('.').slice(0, 2).join('.');
}

export function stepKinds(spec: Pick<SkillSpec, 'nodes'>): string[] {
  return stepSkills(spec).map(skillKind);
}

export interface CompositeCluster {
  /** The shared sequence, `calc.formulas > thunderbird.drafts`. */
  kinds: string;
  composites: string[];
}

export interface CompositeStructure {
  composites: number;
  /** Sequences shared by two or more composites, largest first. */
  clusters: CompositeCluster[];
  /** Distinct step-kind sequences. */
  sequences: number;
  /** Distinct sets of applications the composites span, with how many composites each. */
  appCombinations: { apps: string; composites: number }[];
  /** Composites of six or more steps (the long-horizon tier). */
  long: number;
}

export const LONG_HORIZON_STEPS = 6;

export function compositeStructure(
  specs: readonly Pick<SkillSpec, 'id' | 'nodes' | 'apps'>[],
): CompositeStructure {
  const composites = specs.filter((s) => stepSkills(s).length > 0);
  const bySequence = new Map<string, string[]>();
  const byApps = new Map<string, number>();
  for (const s of composites) {
    const key = stepKinds(s).join(' > ');
    bySequence.set(key, [...(bySequence.get(key) ?? []), s.id]);
    const apps = [...new Set(s.apps)].sort().join('+');
    byApps.set(apps, (byApps.get(apps) ?? 0) + 1);
  }
  const clusters = [...bySequence]
    .filter(([, ids]) => ids.length > 1)
    .map(([kinds, ids]) => ({ kinds, composites: ids.sort() }))
    .sort((a, b) => b.composites.length - a.composites.length || a.kinds.localeCompare(b.kinds));
  return {
    composites: composites.length,
    clusters,
    sequences: bySequence.size,
    appCombinations: [...byApps]
      .map(([apps, n]) => ({ apps, composites: n }))
      .sort((a, b) => b.composites - a.composites || a.apps.localeCompare(b.apps)),
    long: composites.filter((s) => stepSkills(s).length >= LONG_HORIZON_STEPS).length,
  };
}

/** The structure as Markdown lines (a section of docs/coverage.md). */
export function compositeStructureMarkdown(r: CompositeStructure): string[] {
  const lines = [
    '## Composite structure',
    '',
    `- ${r.composites} composite skills, ${r.sequences} distinct sequences of step kinds (a step's skill id cut to`,
    `  app.category), ${r.appCombinations.length} distinct application combinations; ${r.long} long workflows`,
    `  (${LONG_HORIZON_STEPS} or more steps).`,
    `- ${r.clusters.length} clusters: composites that share a sequence and differ only in parameters.`,
    '',
  ];
  if (r.clusters.length > 0) {
    lines.push('| step kinds | composites |', '|---|---|');
    for (const c of r.clusters) lines.push(`| ${c.kinds} | ${c.composites.join(', ')} |`);
    lines.push('');
  }
  lines.push('| applications | composites |', '|---|---|');
  for (const a of r.appCombinations) lines.push(`| ${a.apps} | ${a.composites} |`);
  lines.push('');
  return lines;
}
