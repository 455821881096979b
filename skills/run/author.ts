import type { z } from 'zod';
import type { LlmNodeRequest, Validation } from '../../llm/types.ts';
import { generateRecords, resolvedGenerateSchema } from '../generate.ts';
import { type InstructionLevel, LEVEL_GUIDANCE } from '../levels.ts';
import { compileOutput } from '../outputTypes.ts';
import { sampleParams } from '../params.ts';
import { deriveSeed } from '../random.ts';
import { isLevelledNode, type SkillSpec } from '../schema.ts';
import { type Context, evaluate, render, renderText, TemplateError } from '../template.ts';

/** The model layer (llm/) owns retries, repair, cache and ledger; authoring only asks. */
export type LlmCaller = (
  call: Pick<
    LlmNodeRequest,
    'nodeId' | 'tier' | 'messages' | 'schemaName' | 'jsonSchema' | 'validate' | 'seed' | 'offlineHint'
  >,
) => Promise<{ ok: true; value: unknown } | { ok: false; reason: string; detail: string }>;

export type AuthorResult =
  | { ok: true; context: Context; nodeMs: Record<string, number> }
  | { ok: false; reason: string; node: string; detail: string };

/** The stable part of every prompt of a skill comes first, so provider prompt caching applies. */
export function systemPrompt(spec: SkillSpec, extra?: string): string {
  return [
    'You write one part of a training task for a desktop computer-use agent.',
    `Skill: ${spec.title}. ${spec.description}`,
    'Answer with one JSON object that matches the given schema exactly; no prose.',
    extra ?? '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function zodValidator(schema: z.ZodType) {
  return (v: unknown): Validation<unknown> => {
    const r = schema.safeParse(v);
    if (r.success) return { success: true, data: r.data };
    return {
      success: false,
      error: r.error.issues
        .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
        .join('; '),
    };
  };
}

/**
 * Runs the authoring nodes of a spec (llm, generate, values) in order for one task and returns
 * the task context. Prepare and solve nodes only read the context, so they run later, elsewhere.
 */
export async function authorTask(
  spec: SkillSpec,
  taskSeed: number,
  llm: LlmCaller,
  level: InstructionLevel = 'natural',
): Promise<AuthorResult> {
  const ctx: Context = {
    params: sampleParams(spec.params, deriveSeed(taskSeed, 'params')),
    task: { seed: taskSeed, level },
  };
  const nodeMs: Record<string, number> = {};
  for (const node of spec.nodes) {
    const started = performance.now();
    try {
      if ('llm' in node) {
        const out = compileOutput(node.llm.output, `${node.id}.output`);
        const offline: Record<string, unknown[]> = {};
        for (const [field, candidates] of Object.entries(node.llm.offline)) {
          const list = Array.isArray(candidates) ? candidates : candidates[level];
          offline[field] = (await render(list, ctx)) as unknown[];
        }
        const levelled = isLevelledNode(node.llm);
        const prompt = await renderText(node.llm.prompt, ctx);
        const result = await llm({
          nodeId: node.id,
          tier: node.llm.tier,
          messages: [
            { role: 'system', content: systemPrompt(spec, node.llm.system) },
            { role: 'user', content: levelled ? `${prompt}\n\n${LEVEL_GUIDANCE[level]}` : prompt },
          ],
          schemaName: `${node.id}_output`,
          jsonSchema: out.json,
          validate: zodValidator(out.zod),
          seed: deriveSeed(taskSeed, node.id),
          offlineHint: { fields: offline },
        });
        if (!result.ok) return { ok: false, reason: result.reason, node: node.id, detail: result.detail };
        ctx[node.id] = result.value;
      } else if ('generate' in node) {
        const resolved = resolvedGenerateSchema.safeParse(await render(node.generate, ctx));
        if (!resolved.success) {
          return {
            ok: false,
            reason: 'spec_error',
            node: node.id,
            detail: resolved.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          };
        }
        ctx[node.id] = generateRecords(resolved.data, deriveSeed(taskSeed, node.id));
      } else if ('values' in node) {
        const values: Record<string, unknown> = {};
        ctx[node.id] = values;
        // Later values may use earlier ones of the same node.
        for (const [name, expr] of Object.entries(node.values)) values[name] = await evaluate(expr, ctx);
      } else {
        continue;
      }
    } catch (err) {
      if (err instanceof TemplateError)
        return { ok: false, reason: 'spec_error', node: node.id, detail: err.message };
      throw err;
    }
    nodeMs[node.id] = Math.round(performance.now() - started);
  }
  return { ok: true, context: ctx, nodeMs };
}
