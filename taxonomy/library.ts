import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { z } from 'zod';
import { repoRoot } from '../infra/paths.ts';
import type { LoadedSpec } from '../skills/load.ts';
import type { SkillSpec } from '../skills/schema.ts';
import {
  compactTree,
  multiAppDomain,
  normalizeTree,
  type SkillEntry,
  type Taxonomy,
  taxonomySchema,
} from './tree.ts';

export const taxonomyFile = path.join(repoRoot, 'taxonomy', 'taxonomy.yaml');

const domains: Record<string, string> = {
  office: 'Office documents: spreadsheets, text documents and presentations',
  communication: 'E-mail and contacts',
  system: 'Files, directories and the shell of the desktop',
  [multiAppDomain]: 'Workflows that move data between several applications',
};

const apps: Record<string, { domain: string; description: string }> = {
  calc: { domain: 'office', description: 'LibreOffice Calc spreadsheets' },
  writer: { domain: 'office', description: 'LibreOffice Writer text documents' },
  impress: { domain: 'office', description: 'LibreOffice Impress presentations' },
  thunderbird: {
    domain: 'communication',
    description: 'Thunderbird mail: folders, filters, messages, contacts',
  },
  os: { domain: 'system', description: 'The operating system: files, directories, permissions, archives' },
};

/** Where a skill sits: single-app skills under their app's domain, multi-app ones under `workflows/<a>-<b>`. */
export function placeOf(spec: { apps: readonly string[]; category: string }): {
  domain: string;
  app: string;
  category: string;
} {
  const category =
    spec.category
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'general';
  if (spec.apps.length > 1) return { domain: multiAppDomain, app: spec.apps.join('-'), category };
  const app = spec.apps[0]!;
  return { domain: apps[app]?.domain ?? 'office', app, category };
}

function appDescription(app: string): string {
  return apps[app]?.description ?? `Workflows across ${app.split('-').join(', ')}`;
}

/** Puts a skill into the tree (creating its domain, app and category nodes as needed). */
export function addSkill(
  tree: Taxonomy,
  place: { domain: string; app: string; category: string },
  id: string,
  entry: SkillEntry,
): void {
  tree.domains[place.domain] ??= { description: domains[place.domain] ?? `${place.domain} skills`, apps: {} };
  const d = tree.domains[place.domain]!;
  d.apps[place.app] ??= { description: appDescription(place.app), categories: {} };
  const a = d.apps[place.app]!;
  a.categories[place.category] ??= {
    description: `${place.app} skills: ${place.category.replaceAll('-', ' ')}`,
    skills: {},
  };
  const c = a.categories[place.category]!;
  c.skills[id] = entry;
}

/** The tree implied by the skill library: every spec, placed by its apps and category, described by its title. */
export function taxonomyFromLibrary(library: Map<string, LoadedSpec> | Iterable<SkillSpec>): Taxonomy {
  const specs = library instanceof Map ? [...library.values()].map((l) => l.spec) : [...library];
  const tree: Taxonomy = { domains: {} };
  for (const spec of [...specs].sort((x, y) => x.id.localeCompare(y.id))) {
    addSkill(tree, placeOf(spec), spec.id, { description: spec.title, status: 'active' });
  }
  return normalizeTree(tree);
}

/** Validates a taxonomy document; errors name the node and the problem. */
export function parseTaxonomy(text: string, file = 'taxonomy.yaml'): Taxonomy {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid YAML: ${(err as Error).message}`);
  }
  const r = taxonomySchema.safeParse(raw);
  if (!r.success) {
    const why = (i: z.core.$ZodIssue): string =>
      i.code === 'invalid_key' ? `bad name: ${i.issues.map(why).join('; ')}` : i.message;
    const issues = r.error.issues.map((i) => `  at ${i.path.join('.') || '(root)'}: ${why(i)}`).join('\n');
    throw new Error(`${file}: invalid taxonomy\n${issues}`);
  }
  return normalizeTree(r.data);
}

export function loadTaxonomyFile(file = taxonomyFile): Taxonomy {
  return parseTaxonomy(readFileSync(file, 'utf8'), path.relative(process.cwd(), file) || file);
}

export function taxonomyYaml(tree: Taxonomy): string {
  return `# domain → application → category → atomic skill id: one-line description.\n# Generated from the skill library by taxonomyFromLibrary (forge taxonomy generate --write).\n${stringify(compactTree(tree), { lineWidth: 0 })}`;
}

export function writeTaxonomyFile(tree: Taxonomy, file = taxonomyFile): void {
  writeFileSync(file, taxonomyYaml(tree));
}
