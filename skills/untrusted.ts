import jsonata from 'jsonata';
import { preparers } from '../preparers/registry.ts';
import { untrustedEntryProblem } from '../preparers/sensitivePaths.ts';
import { APPS, type NamedPath } from '../preparers/types.ts';
import type { SkillSpec } from './schema.ts';
import { unmarkScope } from './template.ts';

/**
 * The extra rules for a spec that did not come from a file in the repository (taxonomy
 * expansion: the authoring model wrote it). Such a spec is data: it may launch only the
 * applications' own launchers, may not write files where they would run at login or into an
 * application's configuration beyond what its preparer allows (preparers/profiles/), and may not
 * define JSONata functions that could recurse (the only way to loop). Paths computed from templates are checked again
 * when the task is built (activities/prepare.ts).
 */
export const APP_LAUNCHERS: readonly (readonly string[])[] = APPS.flatMap((app) => [
  ...preparers[app].staging.launch,
  ...(preparers[app].staging.launchers ?? []),
]);

const TEMPLATE = /\{\{\s*([\s\S]+?)\s*\}\}/g;

function isLauncher(command: readonly string[]): boolean {
  return APP_LAUNCHERS.some((l) => l.length === command.length && l.every((w, i) => w === command[i]));
}

/** Every JSONata expression in the spec with where it is: templates in any string, `values` entries. */
function expressions(spec: SkillSpec): { where: string; expr: string }[] {
  const out: { where: string; expr: string }[] = [];
  const walk = (value: unknown, where: string) => {
    if (typeof value === 'string') {
      // A composite step's mark (`@step:`) is not JSONata; the expression after it is.
      for (const m of value.matchAll(TEMPLATE)) out.push({ where, expr: unmarkScope(m[1]!).expr });
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${where}[${i}]`);
    } else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        // A `values` node holds bare expressions, not templates (`{{` there is JSONata syntax).
        if (k === 'values' && /^nodes\[\d+\]$/.test(where)) continue;
        walk(v, where ? `${where}.${k}` : k);
      }
  };
  walk(spec, '');
  spec.nodes.forEach((node, i) => {
    if ('values' in node)
      for (const [name, expr] of Object.entries(node.values))
        out.push({ where: `nodes[${i}].values.${name}`, expr });
  });
  return out;
}

/** Built-ins that call a function argument on data; an inline callback there cannot recurse. */
const HIGHER_ORDER = new Set(['map', 'filter', 'sort', 'reduce', 'single', 'each', 'sift']);

type AstNode = {
  type?: unknown;
  value?: unknown;
  thunk?: unknown;
  procedure?: AstNode;
  arguments?: unknown[];
};

/**
 * Why a parsed expression could loop, or null. A function may appear only inline as an argument
 * of a higher-order built-in ($map, $filter, $sort, …): it is then called on data, and nothing
 * can call it again. A function bound to a name, stored in a value, or invoked directly could
 * recurse; `$eval` would run text that was never checked.
 */
function loopHazard(node: unknown, callback = false): string | null {
  if (Array.isArray(node)) {
    for (const n of node) {
      const hazard = loopHazard(n);
      if (hazard) return hazard;
    }
    return null;
  }
  if (!node || typeof node !== 'object') return null;
  const ast = node as AstNode;
  // `thunk` lambdas are the parser's own tail-call wrappers inside a function body.
  if (ast.type === 'lambda' && !ast.thunk && !callback)
    return 'defines a function other than an inline callback of $map, $filter, $sort, $reduce, $single, $each or $sift';
  if (ast.type === 'variable' && ast.value === 'eval') return 'calls $eval';
  const hof =
    (ast.type === 'function' || ast.type === 'partial') &&
    ast.procedure?.type === 'variable' &&
    HIGHER_ORDER.has(String(ast.procedure.value));
  for (const [key, child] of Object.entries(ast)) {
    const hazard =
      hof && key === 'arguments'
        ? ((child as unknown[]).map((a) => loopHazard(a, true)).find(Boolean) ?? null)
        : loopHazard(child);
    if (hazard) return hazard;
  }
  return null;
}

/** The paths the spec's prepare nodes name, as each app's preparer reads its target and doc. */
export function namedPaths(spec: SkillSpec): (NamedPath & { node: number })[] {
  return spec.nodes.flatMap((node, i) => {
    if (!('prepare' in node)) return [];
    const { app, target, doc } = node.prepare;
    return preparers[app]
      .namedPaths(target, doc)
      .map((p) => ({ ...p, node: i, where: `nodes[${i}].prepare.${p.where}` }));
  });
}

/** What makes this spec unfit to run when it did not come from the repository; empty when fit. */
export function untrustedSpecProblems(spec: SkillSpec): string[] {
  const problems: string[] = [];
  spec.launch.forEach((command, i) => {
    if (!isLauncher(command))
      problems.push(
        `launch[${i}] ${JSON.stringify(command)} is not an application launcher (allowed: ${APP_LAUNCHERS.map((l) => l.join(' ')).join(', ')})`,
      );
  });
  // Literal paths only: a templated one is checked when the task is materialized and built.
  for (const { where, path, entry } of namedPaths(spec).filter((p) => !p.path.includes('{{'))) {
    const problem = untrustedEntryProblem(path, entry);
    if (problem) problems.push(`${where} targets ${JSON.stringify(path)}: ${problem}`);
  }
  for (const { where, expr } of expressions(spec)) {
    let ast: unknown;
    try {
      ast = jsonata(expr).ast();
    } catch (err) {
      problems.push(`${where}: cannot parse expression "${expr.slice(0, 120)}": ${(err as Error).message}`);
      continue;
    }
    const hazard = loopHazard(ast);
    if (hazard) problems.push(`${where}: expression "${expr.slice(0, 120)}" ${hazard}`);
  }
  return problems;
}
