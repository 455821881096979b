import { z } from 'zod';

/**
 * The taxonomy tree: domain → application → category → atomic skill id, each node with a one-line
 * description. In YAML a skill is `id: description`, or `id: {description, status, parent}` when it
 * is not simply active (an expansion's candidate, a retired skill) or was derived from another.
 */
const line = (what: string) =>
  z
    .string()
    .min(3, `${what} descriptions are at least 3 characters`)
    .max(200, `${what} descriptions are one line (at most 200 characters)`)
    .refine((s) => !/[\r\n]/.test(s), `${what} descriptions are one line`);

const nodeKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'node names are lowercase letters, digits, - and _');
export const skillIdSchema = z
  .string()
  .regex(/^[a-z0-9]+(\.[a-z0-9-]+)+$/, 'skill ids look like app.category.name (lowercase, dots, dashes)');

export const skillStatuses = ['active', 'candidate', 'retired'] as const;
export type SkillStatus = (typeof skillStatuses)[number];

const skillEntrySchema = z
  .union([
    line('skill'),
    z
      .object({
        description: line('skill'),
        status: z.enum(skillStatuses).default('active'),
        parent: skillIdSchema.optional().describe('the skill an expansion derived this one from'),
      })
      .strict(),
  ])
  .transform((e) => (typeof e === 'string' ? { description: e, status: 'active' as SkillStatus } : e));
export type SkillEntry = { description: string; status: SkillStatus; parent?: string };

const categorySchema = z
  .object({ description: line('category'), skills: z.record(skillIdSchema, skillEntrySchema) })
  .strict();
const appSchema = z
  .object({ description: line('application'), categories: z.record(nodeKey, categorySchema) })
  .strict();
const domainSchema = z.object({ description: line('domain'), apps: z.record(nodeKey, appSchema) }).strict();

export const taxonomySchema = z
  .object({ domains: z.record(nodeKey, domainSchema) })
  .strict()
  .superRefine((tree, ctx) => {
    const seen = new Map<string, string>();
    for (const [d, domain] of Object.entries(tree.domains)) {
      for (const [a, app] of Object.entries(domain.apps)) {
        for (const [c, cat] of Object.entries(app.categories)) {
          for (const id of Object.keys(cat.skills)) {
            const here = `${d}/${a}/${c}`;
            const other = seen.get(id);
            if (other)
              ctx.addIssue({
                code: 'custom',
                path: ['domains', d, 'apps', a, 'categories', c, 'skills', id],
                message: `skill ${id} also appears under ${other}`,
              });
            seen.set(id, here);
          }
        }
      }
    }
  });

export type Taxonomy = {
  domains: Record<
    string,
    {
      description: string;
      apps: Record<
        string,
        {
          description: string;
          categories: Record<string, { description: string; skills: Record<string, SkillEntry> }>;
        }
      >;
    }
  >;
};

export interface SkillPlace {
  id: string;
  domain: string;
  app: string;
  category: string;
  description: string;
  status: SkillStatus;
  parent?: string;
}

/** Every skill of the tree with where it sits, in tree order. */
export function skillIndex(tree: Taxonomy): Map<string, SkillPlace> {
  const out = new Map<string, SkillPlace>();
  for (const [domain, d] of Object.entries(tree.domains)) {
    for (const [app, a] of Object.entries(d.apps)) {
      for (const [category, c] of Object.entries(a.categories)) {
        for (const [id, s] of Object.entries(c.skills)) out.set(id, { id, domain, app, category, ...s });
      }
    }
  }
  return out;
}

/** Deep copy with keys sorted at every level, so equal trees serialise (and hash) equally. */
export function normalizeTree(tree: Taxonomy): Taxonomy {
  const sortRec = <T, U>(rec: Record<string, T>, f: (v: T) => U): Record<string, U> =>
    Object.fromEntries(
      Object.keys(rec)
        .sort()
        .map((k) => [k, f(rec[k]!)]),
    );
  return {
    domains: sortRec(tree.domains, (d) => ({
      description: d.description,
      apps: sortRec(d.apps, (a) => ({
        description: a.description,
        categories: sortRec(a.categories, (c) => ({
          description: c.description,
          skills: sortRec(c.skills, (s) => ({
            description: s.description,
            status: s.status,
            ...(s.parent ? { parent: s.parent } : {}),
          })),
        })),
      })),
    })),
  };
}

/** The YAML-friendly form: plain active skills as `id: description`. */
export function compactTree(tree: Taxonomy): unknown {
  const t = normalizeTree(tree);
  for (const d of Object.values(t.domains)) {
    for (const a of Object.values(d.apps)) {
      for (const c of Object.values(a.categories)) {
        const skills = c.skills as Record<string, unknown>;
        for (const [id, s] of Object.entries(c.skills))
          if (s.status === 'active' && !s.parent) skills[id] = s.description;
      }
    }
  }
  return t;
}

export interface TaxonomyDiff {
  added: SkillPlace[];
  removed: SkillPlace[];
  changed: { id: string; from: SkillPlace; to: SkillPlace }[];
}

/** What changed from tree `a` to tree `b`: skills added, removed, and moved or re-statused. */
export function diffTaxonomies(a: Taxonomy, b: Taxonomy): TaxonomyDiff {
  const ia = skillIndex(a);
  const ib = skillIndex(b);
  const added = [...ib.values()].filter((s) => !ia.has(s.id));
  const removed = [...ia.values()].filter((s) => !ib.has(s.id));
  const changed: TaxonomyDiff['changed'] = [];
  for (const [id, from] of ia) {
    const to = ib.get(id);
    if (!to) continue;
    const key = (s: SkillPlace) =>
      `${s.domain}/${s.app}/${s.category}|${s.status}|${s.description}|${s.parent ?? ''}`;
    if (key(from) !== key(to)) changed.push({ id, from, to });
  }
  return { added, removed, changed };
}

export interface TaxonomyCounts {
  skills: number;
  byStatus: Record<string, number>;
  byDomain: Record<string, number>;
  byApp: Record<string, number>;
  multiApp: number;
  multiAppShare: number;
}

/** Counts of the non-retired skills per domain and application, and the multi-app share. */
export function taxonomyCounts(tree: Taxonomy): TaxonomyCounts {
  const byStatus: Record<string, number> = {};
  const byDomain: Record<string, number> = {};
  const byApp: Record<string, number> = {};
  let skills = 0;
  let multiApp = 0;
  for (const s of skillIndex(tree).values()) {
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    if (s.status === 'retired') continue;
    skills++;
    byDomain[s.domain] = (byDomain[s.domain] ?? 0) + 1;
    byApp[s.app] = (byApp[s.app] ?? 0) + 1;
    if (s.domain === multiAppDomain) multiApp++;
  }
  return { skills, byStatus, byDomain, byApp, multiApp, multiAppShare: skills === 0 ? 0 : multiApp / skills };
}

/** Skills spanning several applications live in this domain. */
export const multiAppDomain = 'workflows';
