import { profileRoots } from '../../preparers/profiles/gate.ts';
import { appOf, preparers } from '../../preparers/registry.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { namedPaths } from '../../skills/untrusted.ts';

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** The spec's checks and edits (oracle, wrong solutions, correct alternatives) that run a regular expression it wrote. */
function regexUsers(spec: SkillSpec): string[] {
  const items: { where: string; item: Record<string, unknown> }[] = [];
  spec.rubric.checks.forEach((c, i) => {
    const item = record(c);
    if (item) items.push({ where: `rubric.checks[${i}]`, item });
  });
  spec.nodes.forEach((node, i) => {
    if (!('solve' in node)) return;
    const lists = [
      node.solve,
      ...node.wrong.map((w) => w.edits),
      ...node.right.map((r) => r.edits),
    ] as unknown[];
    for (const list of lists)
      if (Array.isArray(list))
        list.forEach((e, j) => {
          const item = record(e);
          if (item) items.push({ where: `nodes[${i}] edit ${j}`, item });
        });
  });
  return items.flatMap(({ where, item }) => {
    const name =
      typeof item.kind === 'string' ? item.kind : typeof item.op === 'string' ? item.op : undefined;
    if (name === undefined) return [];
    let uses = false;
    try {
      uses = preparers[appOf(name)].usesRegex?.(item) ?? false;
    } catch {
      // An unknown kind fails the dry run with its own reason.
    }
    return uses ? [`${where} (${name})`] : [];
  });
}

/**
 * Why an untrusted spec that passed the static rules and one dry run still needs a second dry
 * run before adoption, or an empty list: it writes an application's configuration (a path under
 * a known profile root, or one computed by a template, so not known until it runs), or its checks
 * and edits run regular expressions it wrote.
 */
export function secondGateReasons(spec: SkillSpec): string[] {
  const reasons: string[] = [];
  const roots = profileRoots();
  const config = namedPaths(spec).filter(
    (p) => p.path.includes('{{') || roots.some((root) => within(p.path, root)),
  );
  if (config.length > 0)
    reasons.push(
      `writes application configuration or paths known only at run time (${config
        .slice(0, 3)
        .map((p) => `${p.where} ${JSON.stringify(p.path)}`)
        .join(', ')}${config.length > 3 ? ', …' : ''})`,
    );
  const regexes = regexUsers(spec);
  if (regexes.length > 0)
    reasons.push(
      `runs its own regular expressions (${regexes.slice(0, 3).join(', ')}${regexes.length > 3 ? ', …' : ''})`,
    );
  return reasons;
}
