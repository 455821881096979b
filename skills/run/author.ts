import type { z } from 'zod';
import { classifyDomain } from '../../llm/offline/content/kit.ts';
import { type LlmNodeRequest, structuredOutput, type Validation } from '../../llm/types.ts';
import { lineDemand } from '../content/demand.ts';
import { DocumentTypeError } from '../content/documentTypes.ts';
import {
  CONTENT_NODE_ID,
  CONTENT_POOL_SIZE,
  contentPoolSchema,
  contentPrompt,
  offlineAnswer,
  poolKeyFor,
  proseSourceFor,
  quotaFor,
} from '../content/pool.ts';
import { DatasetError } from '../datasets.ts';
import { generateRecords, type ProseSource, proseKindsOf, resolvedGenerateSchema } from '../generate.ts';
import { type InstructionLevel, LEVEL_GUIDANCE } from '../levels.ts';
import { compileOutput } from '../outputTypes.ts';
import { type Stratum, sampleParams } from '../params.ts';
import { deriveSeed } from '../random.ts';
import { isLevelledNode, nodeQualifiedId, type SkillNode, type SkillSpec } from '../schema.ts';
import { stringsOf } from '../stringsOf.ts';
import {
  type Context,
  evaluate,
  render,
  renderString,
  renderText,
  scopeContext,
  TemplateError,
} from '../template.ts';

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
export interface AuthorOptions {
  level?: InstructionLevel;
  /**
   * Where the task sits in its skill run: tasks of one pool share one content call, and the
   * skill's tasks of one round share out their picks by index (so one round id with index 0 draws
   * the same picks whatever the seed).
   */
  roundId?: string;
  taskIndex?: number;
  /**
   * The day the task is authored (UTC, YYYY-MM-DD), as `task.today` in templates: state that an
   * application ages out (Chromium drops history older than 90 days when it starts) is dated from it.
   */
  today?: string;
}

export async function authorTask(
  spec: SkillSpec,
  taskSeed: number,
  llm: LlmCaller,
  options: AuthorOptions = {},
): Promise<AuthorResult> {
  const level = options.level ?? 'natural';
  let prose: ProseSource | undefined;
  // In a round, the skill's tasks share out their picks (see Stratum); a lone try draws freely.
  const stratumOf = (stream: string): Stratum | undefined =>
    options.roundId === undefined
      ? undefined
      : { seed: deriveSeed(options.roundId, spec.id, stream), index: options.taskIndex ?? 0 };
  const ctx: Context = {
    params: sampleParams(spec.params, deriveSeed(taskSeed, 'params'), stratumOf('params')),
    task: { seed: taskSeed, level, today: options.today ?? new Date().toISOString().slice(0, 10) },
  };
  const nodeMs: Record<string, number> = {};
  const binds = new Map<string, Record<string, string>>();
  for (const node of spec.nodes) {
    const started = performance.now();
    const qid = nodeQualifiedId(node);
    try {
      if ('step' in node) {
        // A composite's step: its own params (sampled from its own stream), then the bound inputs.
        const params = sampleParams(
          node.step.params,
          deriveSeed(taskSeed, `${node.id}.params`),
          stratumOf(`${node.id}.params`),
        );
        ctx[node.id] = { params, task: ctx.task };
        binds.set(node.id, node.step.bind);
        for (const [target, tmpl] of Object.entries(node.step.bind))
          if (target.startsWith('params.')) params[target.slice(7)] = await renderString(tmpl, ctx);
        nodeMs[qid] = Math.round(performance.now() - started);
        continue;
      }
      const scope = 'scope' in node ? node.scope : undefined;
      const view = scopeContext(ctx, scope);
      const bind = scope === undefined ? {} : (binds.get(scope) ?? {});
      if ('llm' in node) {
        const out = compileOutput(node.llm.output, `${node.id}.output`);
        const offline: Record<string, unknown[]> = {};
        for (const [field, candidates] of Object.entries(node.llm.offline)) {
          const list = Array.isArray(candidates) ? candidates : candidates[level];
          const rendered = (await render(list, view)) as unknown[];
          // A title as a person types it, capitalised even when built from a lower-case param
          // ("town hall agenda"); a real model writes it so unasked.
          offline[field] = /(^|_)(title|heading)$/.test(field) ? rendered.map(capitalised) : rendered;
        }
        const levelled = isLevelledNode(node.llm);
        const prompt = await renderText(node.llm.prompt, view);
        const result = await llm({
          nodeId: qid,
          tier: node.llm.tier,
          messages: [
            { role: 'system', content: systemPrompt(spec, node.llm.system) },
            { role: 'user', content: levelled ? `${prompt}\n\n${LEVEL_GUIDANCE[level]}` : prompt },
          ],
          schemaName: `${qid.replace('.', '_')}_output`,
          jsonSchema: out.json,
          validate: zodValidator(out.zod),
          seed: deriveSeed(taskSeed, qid),
          offlineHint: { fields: offline },
        });
        if (!result.ok) return { ok: false, reason: result.reason, node: qid, detail: result.detail };
        view[node.id] = result.value;
        await applyBinds(view, node, bind, ctx);
      } else if ('generate' in node) {
        if (!prose && proseKindsOf(node.generate.fields).length > 0) {
          const content = await writeContent(spec, ctx, taskSeed, llm, options);
          if (!content.ok)
            return { ok: false, reason: content.reason, node: CONTENT_NODE_ID, detail: content.detail };
          prose = content.prose;
        }
        const resolved = resolvedGenerateSchema.safeParse(await render(node.generate, view));
        if (!resolved.success) {
          return {
            ok: false,
            reason: 'spec_error',
            node: qid,
            detail: resolved.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          };
        }
        try {
          view[node.id] = generateRecords(resolved.data, deriveSeed(taskSeed, qid), prose);
        } catch (err) {
          // A data set or document type the spec names wrongly is the spec's error, not the worker's.
          if (!(err instanceof DatasetError || err instanceof DocumentTypeError)) throw err;
          return { ok: false, reason: 'spec_error', node: qid, detail: err.message };
        }
      } else if ('values' in node) {
        const values: Record<string, unknown> = {};
        view[node.id] = values;
        // Later values may use earlier ones of the same node, so a bound value is set as soon as it exists.
        for (const [name, expr] of Object.entries(node.values)) {
          const bound = bind[`${node.id}.${name}`];
          values[name] = bound === undefined ? await evaluate(expr, view) : await renderString(bound, ctx);
        }
      } else {
        continue;
      }
    } catch (err) {
      if (err instanceof TemplateError)
        return { ok: false, reason: 'spec_error', node: qid, detail: err.message };
      throw err;
    }
    nodeMs[qid] = Math.round(performance.now() - started);
  }
  return { ok: true, context: ctx, nodeMs };
}

/**
 * Sets the bound fields of an llm node's answer (`<node>.<field>` targets of the step's `bind`),
 * rendered in the root scope where earlier steps are visible.
 */
async function applyBinds(
  view: Context,
  node: SkillNode,
  bind: Record<string, string>,
  root: Context,
): Promise<void> {
  const prefix = `${node.id}.`;
  const targets = Object.entries(bind).filter(([target]) => target.startsWith(prefix));
  // The answer may be the response cache's own object: bind into a copy.
  if (targets.length > 0) view[node.id] = structuredClone(view[node.id]);
  for (const [target, tmpl] of targets) {
    const path = target.slice(prefix.length).split('.');
    let cur = view[node.id] as Record<string, unknown>;
    for (const key of path.slice(0, -1)) {
      if (!cur[key] || typeof cur[key] !== 'object')
        throw new TemplateError(`binding ${target}: ${key} is not an object in the answer of ${node.id}`);
      cur = cur[key] as Record<string, unknown>;
    }
    cur[path[path.length - 1]!] = await renderString(tmpl, root);
  }
}

/**
 * The content node: prose for every generate node of the spec, written once per pool of tasks
 * (same request, so the cache serves the pool) and conditioned on the scenario's domain. The
 * task's set goes into the context under `content`, so it is stored and exported with the task.
 */
const contentInFlight = new Map<string, Promise<unknown>>();

async function writeContent(
  spec: SkillSpec,
  ctx: Context,
  taskSeed: number,
  llm: LlmCaller,
  options: AuthorOptions,
): Promise<{ ok: true; prose: ProseSource } | { ok: false; reason: string; detail: string }> {
  const kinds = [
    ...new Set(spec.nodes.flatMap((n) => ('generate' in n ? proseKindsOf(n.generate.fields) : []))),
  ];
  const quota = quotaFor(kinds, await lineDemand(spec));
  const { task: _task, ...scenario } = ctx;
  const domain = classifyDomain(
    // Only values: keys ("file_name", "data") are the spec's vocabulary, not the task's sector.
    stringsOf(scenario).join(' | '),
    `${spec.id} ${spec.title} ${spec.description}`,
    deriveSeed(taskSeed, 'domain'),
  );
  const taskIndex = options.taskIndex ?? 0;
  // Without a round (a dry try), the task's own seed keys the pool: it pays for its own content.
  const poolKey = options.roundId ? poolKeyFor(options.roundId, spec, domain, taskIndex) : `try|${taskSeed}`;
  const schema = contentPoolSchema(quota, CONTENT_POOL_SIZE);
  // Tasks of a pool often run at once: the later ones wait for the first, whose answer the
  // response cache then gives them (a cache-hit ledger row each, no second payment).
  const earlier = contentInFlight.get(poolKey);
  if (earlier) await earlier.catch(() => undefined);
  const pending = llm({
    nodeId: CONTENT_NODE_ID,
    tier: 'default',
    messages: [
      {
        role: 'system',
        content: systemPrompt(spec, 'You write the prose an agent will read in the task files.'),
      },
      { role: 'user', content: contentPrompt(spec, domain, quota, CONTENT_POOL_SIZE) },
    ],
    ...structuredOutput('content_pool', schema),
    seed: deriveSeed(poolKey, 'content'),
    offlineHint: { value: offlineAnswer(domain, quota, poolKey) },
  });
  if (!earlier) {
    contentInFlight.set(poolKey, pending);
    void pending.finally(() => contentInFlight.delete(poolKey)).catch(() => undefined);
  }
  const result = await pending;
  if (!result.ok) return result;
  const sets = (result.value as { sets: Parameters<typeof proseSourceFor>[0][] }).sets;
  const slot = options.roundId ? taskIndex % CONTENT_POOL_SIZE : 0;
  const set = sets[slot % sets.length]!;
  ctx[CONTENT_NODE_ID] = { domain, pool: poolKey, slot, ...set };
  return { ok: true, prose: proseSourceFor(set, taskSeed) };
}

/** A text starting with a lower-case word capitalised ("iPhone" and other inner capitals kept). */
function capitalised(v: unknown): unknown {
  return typeof v === 'string' && /^[a-z][a-z]*(\W|$)/.test(v) ? v[0]!.toUpperCase() + v.slice(1) : v;
}
