import { parseCheck, parseDoc, parseEdit } from '../../preparers/registry.ts';
import type { AppId } from '../../preparers/types.ts';
import { nodeQualifiedId, type SkillSpec } from '../schema.ts';
import { type Context, render, renderText, scopeContext } from '../template.ts';
import { referToOpenFiles } from './openFileMentions.ts';

export interface PrepareStep {
  nodeId: string;
  app: AppId;
  target: string;
  doc: unknown;
  open: boolean;
}

/** Everything a task needs after authoring, rendered from the context and validated per app. */
export interface MaterializedTask {
  instruction: string;
  prepares: PrepareStep[];
  edits: { op: string }[];
  checks: { kind: string; file?: string }[];
  /** `checks`: indices into `checks`; "invariants" stands for the derived "nothing else changed" checks. */
  items: { text: string; weight: number; checks: (number | 'invariants')[] }[];
  /** The spec's declared wrong solutions, rendered and validated like the oracle's edits. */
  wrong: { name: string; edits: { op: string }[] }[];
  /** The spec's declared correct alternatives, rendered and validated like the oracle's edits. */
  right: { name: string; edits: { op: string }[] }[];
  /** Edit fields a correct solution may vary (the solve node's `free:` at this task's level), by edit index. */
  free: { edit: number; field: string }[];
  expected: 'feasible' | 'infeasible';
  /** Why "nothing else changed" checks are not derived, when the spec turns them off. */
  invariantsOff?: string;
  /** Generic wrong solutions the skill declares right (with a reason in the spec). */
  genericOk: string[];
  /** Generic correct alternatives the skill turns off (with a reason in the spec). */
  genericRightOff: string[];
}

export async function materializeTask(spec: SkillSpec, ctx: Context): Promise<MaterializedTask> {
  const prepares: PrepareStep[] = [];
  const edits: { op: string }[] = [];
  const wrong: MaterializedTask['wrong'] = [];
  const right: MaterializedTask['right'] = [];
  const free: MaterializedTask['free'] = [];
  const level = (ctx as { task?: { level?: string } }).task?.level;
  for (const node of spec.nodes) {
    // A composite step's node renders in the step's scope; wrong solutions, checks and items in the
    // root scope (a step's are marked with it: skills/compose.ts).
    const view = 'scope' in node ? scopeContext(ctx, node.scope) : ctx;
    if ('prepare' in node) {
      const target = await renderText(node.prepare.target, view);
      const doc = parseDoc(node.prepare.app, await render(node.prepare.doc, view));
      const nodeId = nodeQualifiedId(node);
      prepares.push({ nodeId, app: node.prepare.app, target, doc, open: node.prepare.open });
    } else if ('solve' in node) {
      const first = edits.length;
      for (const edit of (await render(node.solve, view)) as unknown[]) edits.push(parseEdit(edit));
      for (const f of node.free)
        if (!f.levels || (level !== undefined && f.levels.includes(level as 'explicit')))
          for (let e = first; e < edits.length; e++) free.push({ edit: e, field: f.field });
      for (const w of node.wrong) {
        const rendered = (await render(w.edits, ctx)) as unknown[];
        wrong.push({ name: w.name, edits: rendered.map(parseEdit) });
      }
      for (const r of node.right) {
        // A right limited to some levels is not one where the instruction fixes what it varies.
        if (r.levels && !(level !== undefined && r.levels.includes(level as 'explicit'))) continue;
        const rendered = (await render(r.edits, ctx)) as unknown[];
        right.push({ name: r.name, edits: rendered.map(parseEdit) });
      }
    }
  }
  const checks = ((await render(spec.rubric.checks, ctx)) as unknown[]).map(parseCheck);
  const items: MaterializedTask['items'] = [];
  for (const item of spec.rubric.items) {
    items.push({ text: await renderText(item.text, ctx), weight: item.weight, checks: item.checks });
  }
  // At natural and goal level an open file is "this spreadsheet", not its name (openFileMentions.ts).
  const instruction = referToOpenFiles((await renderText(spec.instruction, ctx)).trim(), prepares, level);
  return {
    instruction,
    prepares,
    edits,
    checks,
    items,
    wrong,
    right,
    free,
    expected: spec.expected,
    invariantsOff: spec.rubric.invariants?.off,
    genericOk: spec.rubric.generic_ok.map((g) => g.name),
    genericRightOff: spec.rubric.generic_right_off.map((g) => g.name),
  };
}
