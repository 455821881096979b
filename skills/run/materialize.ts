import { parseCheck, parseDoc, parseEdit } from '../../preparers/registry.ts';
import type { AppId } from '../../preparers/types.ts';
import type { SkillSpec } from '../schema.ts';
import { type Context, render, renderText } from '../template.ts';

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
  items: { text: string; weight: number }[];
}

export async function materializeTask(spec: SkillSpec, ctx: Context): Promise<MaterializedTask> {
  const prepares: PrepareStep[] = [];
  const edits: { op: string }[] = [];
  for (const node of spec.nodes) {
    if ('prepare' in node) {
      const target = await renderText(node.prepare.target, ctx);
      const doc = parseDoc(node.prepare.app, await render(node.prepare.doc, ctx));
      prepares.push({ nodeId: node.id, app: node.prepare.app, target, doc, open: node.prepare.open });
    } else if ('solve' in node) {
      for (const edit of (await render(node.solve, ctx)) as unknown[]) edits.push(parseEdit(edit));
    }
  }
  const checks = ((await render(spec.rubric.checks, ctx)) as unknown[]).map(parseCheck);
  const items: { text: string; weight: number }[] = [];
  for (const item of spec.rubric.items) {
    if (typeof item === 'string') items.push({ text: await renderText(item, ctx), weight: 1 });
    else items.push({ text: await renderText(item.text, ctx), weight: item.weight });
  }
  const instruction = (await renderText(spec.instruction, ctx)).trim();
  return { instruction, prepares, edits, checks, items };
}
