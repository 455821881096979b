import { z } from 'zod';
import { APPS } from '../preparers/types.ts';
import { generateSpecSchema } from './generate.ts';
import { outputDeclSchema } from './outputTypes.ts';
import { paramSpecSchema } from './params.ts';

/**
 * The skill spec: one YAML file per atomic skill. A spec is data, not code: the generic skill
 * workflow runs it. Strings anywhere below may hold `{{ … }}` templates over the task context
 * (`params`, and each earlier node's output under its id).
 */
const nodeId = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'node ids are lowercase identifiers (letters, digits, _)')
  .refine((id) => !['params', 'task', 'skill'].includes(id), 'reserved name');

/**
 * Offline templates: per output field (dotted path, `*` for array items), candidate values. A
 * field may instead give candidates per instruction level (`{explicit: [...], natural: [...],
 * goal: [...]}`); the task's level picks the list.
 */
const candidates = z.array(z.unknown()).min(1);
export const levelledCandidatesSchema = z
  .object({ explicit: candidates, natural: candidates, goal: candidates })
  .strict()
  .describe('candidates per instruction level');
const offlineSchema = z
  .record(z.string(), z.union([candidates, levelledCandidatesSchema]))
  .describe('candidates the offline model picks from, per output field path');

/** True when an llm node phrases the instruction per level (one of its fields is levelled). */
export function isLevelledNode(node: { offline: Record<string, unknown> }): boolean {
  return Object.values(node.offline).some((v) => !Array.isArray(v));
}

export const llmNodeSchema = z
  .object({
    tier: z.enum(['default', 'judge']).default('default'),
    system: z
      .string()
      .optional()
      .describe('stable instructions sent first so provider prompt caching applies'),
    prompt: z.string().min(1),
    output: outputDeclSchema,
    offline: offlineSchema,
  })
  .strict();

const templated = z.unknown().describe('a value whose strings may hold {{ … }} templates');

export const nodeSchema = z.union([
  z.object({ id: nodeId, llm: llmNodeSchema }).strict(),
  z.object({ id: nodeId, generate: generateSpecSchema }).strict(),
  z
    .object({ id: nodeId, values: z.record(z.string(), z.string()).describe('name → JSONata expression') })
    .strict(),
  z
    .object({
      id: nodeId,
      prepare: z
        .object({
          app: z.enum(APPS),
          target: z.string().min(1).describe('home-relative file path (or profile name for thunderbird)'),
          doc: templated,
          open: z.boolean().default(true).describe('open this file when the task starts'),
        })
        .strict(),
    })
    .strict(),
  z
    .object({ id: nodeId, solve: z.array(templated).min(1).describe('oracle edits, applied in order') })
    .strict(),
]);
export type SkillNode = z.infer<typeof nodeSchema>;

export const rubricSchema = z
  .object({
    checks: z.array(templated).min(1),
    items: z
      .array(z.union([z.string(), z.object({ text: z.string(), weight: z.number().positive() }).strict()]))
      .min(1),
  })
  .strict();

export const skillSpecSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(\.[a-z0-9-]+)+$/, 'ids look like app.category.name (lowercase, dots, dashes)'),
    title: z.string().min(3),
    apps: z.array(z.enum(APPS)).min(1),
    category: z.string().min(1),
    description: z.string().min(10),
    difficulty: z.number().int().min(1).max(5),
    channel: z.enum(['gui', 'terminal', 'either']),
    params: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), paramSpecSchema).default({}),
    nodes: z.array(nodeSchema).min(1),
    instruction: z
      .string()
      .min(1)
      .describe('template producing the final instruction, e.g. {{instruction.text}}'),
    rubric: rubricSchema,
    launch: z.array(z.array(z.string())).default([]).describe('extra programs to launch at setup'),
  })
  .strict()
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    spec.nodes.forEach((node, i) => {
      if (seen.has(node.id))
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `duplicate node id ${node.id}` });
      seen.add(node.id);
    });
    const prepared = spec.nodes.flatMap((n) => ('prepare' in n ? [n.prepare.app] : []));
    if (prepared.length === 0)
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'a skill needs at least one prepare node' });
    if (!spec.nodes.some((n) => 'solve' in n))
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'a skill needs a solve node (the oracle)' });
    const levelled = spec.nodes.filter((n) => 'llm' in n && isLevelledNode(n.llm));
    if (levelled.length !== 1)
      ctx.addIssue({
        code: 'custom',
        path: ['nodes'],
        message: `exactly one llm node phrases the instruction per level (offline {explicit, natural, goal}); found ${levelled.length}`,
      });
    for (const app of new Set(prepared)) {
      if (!spec.apps.includes(app))
        ctx.addIssue({
          code: 'custom',
          path: ['apps'],
          message: `prepare node uses app ${app} not listed in apps`,
        });
    }
  });

export type SkillSpec = z.infer<typeof skillSpecSchema>;
