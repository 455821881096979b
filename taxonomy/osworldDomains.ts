/**
 * OSWorld's ten task domains (evaluation_examples/test_all.json of OSWorld-Verified: 369 tasks), so
 * the coverage page can hold the library against the benchmark a lab trains for. A skill that needs
 * one application falls in that application's domain; one that needs two or more falls in
 * multi_apps, as OSWorld files such tasks.
 */
export const OSWORLD_DOMAINS = [
  { domain: 'chrome', app: 'chromium', tasks: 46 },
  { domain: 'gimp', app: 'gimp', tasks: 26 },
  { domain: 'libreoffice_calc', app: 'calc', tasks: 47 },
  { domain: 'libreoffice_impress', app: 'impress', tasks: 47 },
  { domain: 'libreoffice_writer', app: 'writer', tasks: 23 },
  { domain: 'multi_apps', app: undefined, tasks: 101 },
  { domain: 'os', app: 'os', tasks: 24 },
  { domain: 'thunderbird', app: 'thunderbird', tasks: 15 },
  { domain: 'vlc', app: 'vlc', tasks: 17 },
  { domain: 'vs_code', app: 'vscode', tasks: 23 },
] as const;

export type OsworldDomain = (typeof OSWORLD_DOMAINS)[number]['domain'];

export interface DomainCoverage {
  domain: OsworldDomain;
  osworldTasks: number;
  osworldShare: number;
  skills: number;
  share: number;
  /** Skills whose right outcome is to refuse (OSWorld marks such tasks infeasible too). */
  infeasible: number;
}

/** The domain a skill of these applications falls in (`undefined`: an app OSWorld has no domain for). */
export function domainOf(apps: readonly string[]): OsworldDomain | undefined {
  if (apps.length >= 2) return 'multi_apps';
  return OSWORLD_DOMAINS.find((d) => d.app === apps[0])?.domain;
}

/** Skills per OSWorld domain, beside OSWorld's own task counts. */
export function domainCoverage(
  skills: readonly { apps: readonly string[]; infeasible: boolean }[],
): DomainCoverage[] {
  const total = OSWORLD_DOMAINS.reduce((n, d) => n + d.tasks, 0);
  return OSWORLD_DOMAINS.map((d) => {
    const mine = skills.filter((s) => domainOf(s.apps) === d.domain);
    return {
      domain: d.domain,
      osworldTasks: d.tasks,
      osworldShare: d.tasks / total,
      skills: mine.length,
      share: skills.length > 0 ? mine.length / skills.length : 0,
      infeasible: mine.filter((s) => s.infeasible).length,
    };
  });
}

/** Distinct sets of applications among the multi-app skills, most used first. */
export function appCombinations(
  skills: readonly { apps: readonly string[] }[],
): { apps: string; skills: number }[] {
  const counts = new Map<string, number>();
  for (const s of skills) {
    if (s.apps.length < 2) continue;
    const key = [...s.apps].sort().join(' + ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([apps, n]) => ({ apps, skills: n }))
    .sort((a, b) => b.skills - a.skills || (a.apps < b.apps ? -1 : 1));
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The domains and the library's application combinations as Markdown lines (a section of docs/coverage.md). */
export function domainMarkdown(
  domains: readonly DomainCoverage[],
  combinations: readonly { apps: string; skills: number }[],
): string[] {
  const lines = [
    "## OSWorld's ten domains",
    '',
    'Skills per domain of OSWorld-Verified (its task counts from evaluation_examples/test_all.json); a skill',
    'that needs two or more applications counts under multi_apps, as OSWorld files such tasks.',
    '',
    '| domain | OSWorld tasks | share | skills | share | of them infeasible |',
    '|---|---|---|---|---|---|',
  ];
  for (const d of domains)
    lines.push(
      `| ${d.domain} | ${d.osworldTasks} | ${pct(d.osworldShare)} | ${d.skills} | ${pct(d.share)} | ${d.infeasible} |`,
    );
  lines.push(
    '',
    `${combinations.length} distinct combinations of applications among the multi-app skills:`,
    '',
    '| applications | skills |',
    '|---|---|',
  );
  for (const c of combinations) lines.push(`| ${c.apps} | ${c.skills} |`);
  lines.push('');
  return lines;
}
