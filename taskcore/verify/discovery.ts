import { textOf } from '../../preparers/discovery.ts';
import { preparers } from '../../preparers/registry.ts';
import { APPS, type AppId } from '../../preparers/types.ts';
import { type InstructionInput, norm, rubricAddresses } from './instruction.ts';

type Prepares = InstructionInput['prepares'];

/**
 * Discovery: at the levels a skill lists in `discovery`, the instruction describes its target (the
 * largest, the latest, the one a memo names) and the agent finds it. What the rubric points at is
 * then absent from the instruction. These are the strings that point: cells, the subject of the
 * message acted on, the paragraph formatted, the files collected, the value a file gains; each app
 * says which of its checks' fields point (its preparer's `instruction.targets`).
 */

/** The app a check belongs to, when it belongs to one (an infeasible report does not). */
function appOfKind(kind: string): AppId | undefined {
  const app = kind.split('.')[0] as AppId;
  return (APPS as readonly string[]).includes(app) ? app : undefined;
}

/** The strings in a rubric that point at the task's target: cells, and what each app's checks locate. */
export function targetsOf(checks: Record<string, unknown>[], prepares: Prepares): string[] {
  const out = new Set<string>(rubricAddresses(checks));
  const docs = prepares.map((p) => p.doc);
  const ctx = { docs, docsText: textOf(docs).join('\n') };
  for (const c of checks) {
    const app = appOfKind(String(c.kind));
    for (const s of (app && preparers[app].instruction?.targets?.(c, ctx)) || []) out.add(s);
  }
  // A target is something the task's files already hold (a cell excepted): new text the agent
  // writes (a new slide's title) points at nothing.
  const held = norm(ctx.docsText);
  const cells = new Set(rubricAddresses(checks));
  return [...out].filter((s) => s.trim().length >= 2 && (cells.has(s) || held.includes(norm(s))));
}

/**
 * A discovery level's instruction must leave its target to be found: the rubric points at
 * something, and the instruction names none of it. (Cell addresses are held to word edges: "A2"
 * inside "A21" is another cell.)
 */
export function discoveryProblem(input: InstructionInput): string | undefined {
  const targets = targetsOf(input.checks, input.prepares);
  if (targets.length === 0) return 'the rubric points at no target (cell, message, paragraph, file, value)';
  const text = norm(input.instruction);
  for (const t of targets) {
    const n = norm(t);
    const named = /^\$?[a-z]{1,3}\$?[0-9]+$/.test(n)
      ? new RegExp(`(?<![a-z0-9])${n.replace(/\$/g, '\\$')}(?![0-9])`).test(text)
      : text.includes(n);
    if (named) return `names its target "${t.slice(0, 80)}"`;
  }
  return undefined;
}
