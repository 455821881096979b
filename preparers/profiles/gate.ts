import { preparers } from '../registry.ts';
import type { ProfileEntry, ProfilePolicy } from '../types.ts';
import { otherAppPolicies } from './otherApps.ts';

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/** The path up to a segment named in `names` (`proj/.vscode` of `proj/.vscode/tasks.json`), if any. */
function workspaceDir(path: string, names: readonly string[]): string | undefined {
  const segments = path.split('/');
  const at = segments.findIndex((s) => names.includes(s));
  return at < 0 ? undefined : segments.slice(0, at + 1).join('/');
}

let cached: ProfilePolicy[] | undefined;

/** Every application's profile policy: the preparers' own (one per policy: the office apps share one) and the closed ones. */
export function profilePolicies(): ProfilePolicy[] {
  cached ??= [
    ...new Set(Object.values(preparers).flatMap((p) => (p.profilePolicy ? [p.profilePolicy] : []))),
    ...otherAppPolicies,
  ];
  return cached;
}

/** The configuration roots of every known application. */
export function profileRoots(): string[] {
  return profilePolicies().flatMap((p) => [...p.roots]);
}

/**
 * Why an untrusted spec may not put `entry` at `path`, naming the application and the rule, or
 * null. A path under no application's root is not this gate's business; one under a root is
 * refused unless that application's policy allows exactly this file (and, once known, its content).
 */
export function profileProblem(path: string, entry: ProfileEntry): string | null {
  for (const policy of profilePolicies()) {
    const root = policy.roots.find((r) => within(path, r)) ?? workspaceDir(path, policy.anywhere ?? []);
    if (root === undefined) continue;
    const rule = policy.allow(path, entry);
    return rule && `${root}/ is ${policy.name} configuration: ${rule}`;
  }
  return null;
}
