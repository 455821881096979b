import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { repoRoot } from '../infra/paths.ts';
import { INFEASIBLE_REPORT_KIND } from '../preparers/types.ts';
import type { SkillSpec } from '../skills/schema.ts';
import {
  type CompositeStructure,
  compositeStructure,
  compositeStructureMarkdown,
} from './compositeStructure.ts';
import { appCombinations, type DomainCoverage, domainCoverage, domainMarkdown } from './osworldDomains.ts';

export const capabilitiesFile = path.join(repoRoot, 'taxonomy', 'capabilities.yaml');
export const coverageDoc = path.join(repoRoot, 'docs', 'coverage.md');

// A skill reference is an id or a prefix glob ending in `.*`: enough for the list, and linear to match.
const skillRef = z
  .string()
  .regex(/^[a-z0-9]+(\.[a-z0-9-]+)*(\.\*)?$/, 'a skill id, or a prefix ending in .*');

const capabilitySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    what: z.string().min(3),
    skills: z.array(skillRef).default([]),
    partial: z.array(skillRef).default([]),
  })
  .strict();

export const capabilityListSchema = z
  .object({ apps: z.record(z.string(), z.record(z.string(), z.array(capabilitySchema).min(1))) })
  .strict();
export type CapabilityList = z.infer<typeof capabilityListSchema>;

export function readCapabilities(file = capabilitiesFile): CapabilityList {
  const parsed = capabilityListSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${path.relative(repoRoot, file)} is not a valid capability list: ${where}`);
  }
  return parsed.data;
}

function matches(ref: string, id: string): boolean {
  return ref.endsWith('.*') ? id.startsWith(ref.slice(0, -1)) : ref === id;
}

export type CoverageStatus = 'covered' | 'partial' | 'missing';

export interface CapabilityCoverage {
  app: string;
  area: string;
  id: string;
  what: string;
  status: CoverageStatus;
  skills: string[];
  partial: string[];
}

/**
 * The applications a skill needs: those whose state its rubric checks plus those its task data is
 * prepared in. Two or more means the agent must work across applications (or find its data in
 * another one) — the rule behind the multi-app share.
 */
export function appsNeeded(spec: Pick<SkillSpec, 'nodes' | 'rubric'>): string[] {
  const apps = new Set<string>();
  for (const check of spec.rubric.checks) {
    const kind = (check as { kind?: unknown }).kind;
    if (typeof kind !== 'string' || AGENT_ANSWER_KINDS.has(kind)) continue;
    if (kind.includes('.')) apps.add(kind.slice(0, kind.indexOf('.')));
  }
  for (const node of spec.nodes) if ('prepare' in node) apps.add(node.prepare.app);
  return [...apps].sort();
}

/** Checks of what the agent answered (an infeasible task's report), not of an application's state. */
const AGENT_ANSWER_KINDS = new Set([INFEASIBLE_REPORT_KIND]);

export interface CoverageReport {
  capabilities: CapabilityCoverage[];
  counts: Record<CoverageStatus, number>;
  /** Share of capabilities covered or partly covered. */
  coveredShare: number;
  skills: number;
  multiApp: { skills: number; share: number };
  /** Names in the list that match no skill of the library (a stale list). */
  unknownRefs: string[];
  /** Library skills the list does not mention at all. */
  unlisted: string[];
  /** Composites clustered by their sequence of step kinds, and the app combinations they span. */
  composites: CompositeStructure;
  /** Skills per OSWorld domain, and the distinct application sets of the multi-app skills. */
  domains: DomainCoverage[];
  appCombinations: { apps: string; skills: number }[];
}

export function coverageReport(list: CapabilityList, specs: readonly SkillSpec[]): CoverageReport {
  const ids = specs.map((s) => s.id).sort();
  const mentioned = new Set<string>();
  const unknownRefs = new Set<string>();
  const resolve = (refs: string[]) => {
    const out: string[] = [];
    for (const ref of refs) {
      const hit = ids.filter((id) => matches(ref, id));
      if (hit.length === 0) unknownRefs.add(ref);
      for (const id of hit) {
        mentioned.add(id);
        out.push(id);
      }
    }
    return [...new Set(out)];
  };
  const capabilities: CapabilityCoverage[] = [];
  for (const [app, areas] of Object.entries(list.apps)) {
    for (const [area, caps] of Object.entries(areas)) {
      for (const c of caps) {
        const skills = resolve(c.skills);
        const partial = resolve(c.partial).filter((id) => !skills.includes(id));
        const status: CoverageStatus =
          skills.length > 0 ? 'covered' : partial.length > 0 ? 'partial' : 'missing';
        capabilities.push({ app, area, id: c.id, what: c.what, status, skills, partial });
      }
    }
  }
  const counts = { covered: 0, partial: 0, missing: 0 };
  for (const c of capabilities) counts[c.status]++;
  const needs = specs.map((s) => ({ apps: appsNeeded(s), infeasible: s.expected === 'infeasible' }));
  const multi = needs.filter((s) => s.apps.length >= 2).length;
  return {
    capabilities,
    counts,
    coveredShare: capabilities.length > 0 ? (counts.covered + counts.partial) / capabilities.length : 0,
    skills: specs.length,
    multiApp: { skills: multi, share: specs.length > 0 ? multi / specs.length : 0 },
    unknownRefs: [...unknownRefs].sort(),
    unlisted: ids.filter((id) => !mentioned.has(id)),
    composites: compositeStructure(specs),
    domains: domainCoverage(needs),
    appCombinations: appCombinations(needs),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The report as Markdown: the page docs/coverage.md holds. */
export function coverageMarkdown(report: CoverageReport): string {
  const lines = [
    '# Skill coverage',
    '',
    'Generated by `./bin/forge taxonomy coverage --write` from `taxonomy/capabilities.yaml` and the',
    'skill library; do not edit by hand.',
    '',
    `- ${report.skills} skills; ${report.multiApp.skills} (${pct(report.multiApp.share)}) need two or more applications:`,
    '  the rubric checks state in each, or the task data is prepared in another application than the one',
    '  checked (the applications of its rubric checks and prepare nodes together).',
    `- ${report.capabilities.length} capabilities: ${report.counts.covered} covered, ${report.counts.partial} partly covered, ` +
      `${report.counts.missing} missing (${pct(report.coveredShare)} covered or partly covered).`,
    '',
  ];
  let app = '';
  for (const c of report.capabilities) {
    if (c.app !== app) {
      app = c.app;
      lines.push(`## ${app}`, '', '| area | capability | status | skills |', '|---|---|---|---|');
    }
    const who = [...c.skills, ...c.partial.map((s) => `${s} (partly)`)].join(', ') || '—';
    lines.push(`| ${c.area} | ${c.what} | ${c.status} | ${who} |`);
    const next = report.capabilities[report.capabilities.indexOf(c) + 1];
    if (!next || next.app !== app) lines.push('');
  }
  lines.push(...domainMarkdown(report.domains, report.appCombinations));
  lines.push(...compositeStructureMarkdown(report.composites));
  return `${lines.join('\n').trimEnd()}\n`;
}
