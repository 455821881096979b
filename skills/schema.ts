import { z } from 'zod';
import { APPS, GENERIC_RIGHTS, INFEASIBLE_REPORT_KIND } from '../preparers/types.ts';
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

/**
 * Size caps on a spec: a model-written spec is untrusted, and a 10 MB string would otherwise be
 * stored, rendered and shipped with every task. The library's longest string is far below these.
 */
export const MAX_SPEC_STRING = 20_000;
export const MAX_SPEC_BYTES = 256 * 1024;

/** Every string (and key) longer than MAX_SPEC_STRING, with its path; at most `limit` of them. */
export function oversizedStrings(value: unknown, limit = 5): { path: (string | number)[]; length: number }[] {
  const found: { path: (string | number)[]; length: number }[] = [];
  const walk = (v: unknown, at: (string | number)[]): void => {
    if (found.length >= limit) return;
    if (typeof v === 'string') {
      if (v.length > MAX_SPEC_STRING) found.push({ path: at, length: v.length });
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, [...at, i]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.length > MAX_SPEC_STRING) found.push({ path: [...at, `${k.slice(0, 40)}…`], length: k.length });
        walk(x, [...at, k]);
      }
    }
  };
  walk(value, []);
  return found;
}

export const oversizedMessage = (length: number): string =>
  `a string of ${length} characters; a spec string holds at most ${MAX_SPEC_STRING}`;

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

/**
 * A composite's step, as expanded from `compose:` (skills/compose.ts): the node opens the step's
 * scope — `ctx.<id>` holds the step's params and, once they run, its nodes' outputs — and
 * `bind` sets inputs from earlier steps (root-scope templates) on `params.<name>` or
 * `<node>.<field>` of the step. `sha256` is the component spec's hash, so a composite's version
 * changes whenever a component does.
 */
export const stepNodeSchema = z
  .object({
    skill: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    params: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), paramSpecSchema).default({}),
    bind: z.record(z.string(), z.string()).default({}),
  })
  .strict();

/** The step a node belongs to: its templates evaluate in `ctx.<scope>` and its output is stored there. */
const scope = z
  .string()
  .regex(/^[a-z][a-z0-9]*$/)
  .optional();

/** A named wrong solution, in the oracle's edit language; `[]` edits is "did nothing". */
export const wrongSolutionSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'wrong-solution names are lowercase words with dashes'),
    edits: z.array(templated).describe('edits applied to the initial state, in order'),
  })
  .strict();

/**
 * A named correct alternative (`right:`): a way a competent person could do the task that differs
 * from the oracle; applied to the initial state, it must pass the whole rubric. Same shape as a
 * wrong solution, plus the levels it is correct at when an explicit instruction fixes the detail
 * it varies (the cells to format, the exact width).
 */
export const rightSolutionSchema = z
  .object({
    name: wrongSolutionSchema.shape.name,
    edits: z.array(templated).min(1).describe('edits applied to the initial state, in order'),
    levels: z
      .array(z.enum(['explicit', 'natural', 'goal']))
      .min(1)
      .optional()
      .describe('the instruction levels at which this alternative is correct; all when omitted'),
  })
  .strict();

/**
 * A declared freedom (`free:` beside `solve:`): a field of the oracle's edits that the instruction
 * leaves to the person (where the page number sits when it asks only for page numbers, the title
 * of a table of contents), at every level or only at the ones named (an explicit instruction may
 * fix it). `field` is an edit field's name or its dotted path (`filter.name`).
 */
const freedomSchema = z
  .object({
    field: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/)
      .max(200),
    levels: z
      .array(z.enum(['explicit', 'natural', 'goal']))
      .min(1)
      .optional(),
    why: z.string().min(10).max(500).describe('what in the instruction leaves it free'),
  })
  .strict();

export const nodeSchema = z.union([
  z.object({ id: nodeId, scope, llm: llmNodeSchema }).strict(),
  z.object({ id: nodeId, scope, generate: generateSpecSchema }).strict(),
  z
    .object({
      id: nodeId,
      scope,
      values: z.record(z.string(), z.string()).describe('name → JSONata expression'),
    })
    .strict(),
  z.object({ id: nodeId, step: stepNodeSchema }).strict(),
  z
    .object({
      id: nodeId,
      scope,
      prepare: z
        .object({
          app: z.enum(APPS),
          target: z
            .string()
            .min(1)
            .describe(
              "home-relative file path (or the profile's name, for an app whose target is its profile)",
            ),
          doc: templated,
          open: z.boolean().default(true).describe('open this file when the task starts'),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      id: nodeId,
      scope,
      solve: z.array(templated).min(1).describe('oracle edits, applied in order'),
      wrong: z
        .array(wrongSolutionSchema)
        .default([])
        .describe(
          'plausible wrong solutions: each, applied to the initial state, must fail the rubric (rendered in the root scope)',
        ),
      right: z
        .array(rightSolutionSchema)
        .default([])
        .describe(
          'correct alternatives: each, applied to the initial state, must pass the rubric (rendered in the root scope)',
        ),
      free: z
        .array(freedomSchema)
        .default([])
        .describe(
          "what a correct solution may do otherwise than this node's edits: the mutation adversary leaves these fields alone and tries their variants as correct alternatives instead",
        ),
    })
    .strict(),
]);
export type SkillNode = z.infer<typeof nodeSchema>;

/** A node's output in a task context: a composite step's nodes keep theirs in the step's scope. */
export function nodeOutput(ctx: Record<string, unknown>, node: SkillNode): unknown {
  const scope = 'scope' in node ? node.scope : undefined;
  if (scope === undefined) return ctx[node.id];
  return (ctx[scope] as Record<string, unknown> | undefined)?.[node.id];
}

/** `<scope>.<id>` for a node of a composite's step, else its id: unique within a spec, shown in node runs. */
export function nodeQualifiedId(node: SkillNode): string {
  return 'scope' in node && node.scope !== undefined ? `${node.scope}.${node.id}` : node.id;
}

/**
 * A rubric item is a promise in plain language; `checks` names the 0-based indices of the
 * `checks` entries that keep it, so no promise goes unchecked.
 */
export const rubricItemSchema = z
  .object({
    text: z.string().min(1),
    weight: z.number().positive().default(1),
    checks: z
      .array(z.union([z.number().int().min(0), z.literal('invariants')]))
      .min(1, 'an item names at least one check that backs it')
      .describe('0-based indices into checks; "invariants": the derived "nothing else changed" checks'),
  })
  .strict();

export const rubricSchema = z
  .object({
    checks: z.array(templated).min(1),
    items: z.array(rubricItemSchema).min(1),
    invariants: z
      .object({ off: z.string().min(10).describe('why this skill cannot keep everything else unchanged') })
      .strict()
      .optional()
      .describe('"nothing else changed" checks are derived for every task unless turned off, with a reason'),
    generic_ok: z
      .array(
        z
          .object({
            name: z.enum(['bulk-everything', 'save-unchanged']),
            reason: z.string().min(10).describe('why this generic wrong solution is a right one here'),
          })
          .strict(),
      )
      .default([])
      .describe('generic wrong solutions that are in fact right for this skill, each with the reason'),
    generic_right_off: z
      .array(
        z
          .object({
            name: z.enum(GENERIC_RIGHTS),
            reason: z.string().min(10).describe('why this generic correct alternative is not correct here'),
          })
          .strict(),
      )
      .default([])
      .describe("generic correct alternatives (the preparers' `rights`) that do not apply to this skill"),
  })
  .strict()
  .superRefine((rubric, ctx) => {
    rubric.items.forEach((item, i) => {
      item.checks.forEach((c, j) => {
        if (c === 'invariants') {
          if (rubric.invariants?.off !== undefined)
            ctx.addIssue({
              code: 'custom',
              path: ['items', i, 'checks', j],
              message: `item "${item.text.slice(0, 60)}" relies on the invariants, which this rubric turns off`,
            });
        } else if (c >= rubric.checks.length)
          ctx.addIssue({
            code: 'custom',
            path: ['items', i, 'checks', j],
            message: `item "${item.text.slice(0, 60)}" names check ${c}, but there are ${rubric.checks.length} checks (0-based)`,
          });
      });
    });
  });

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
    expected: z
      .enum(['feasible', 'infeasible'])
      .default('feasible')
      .describe('infeasible: the right outcome is to change nothing and report that the task cannot be done'),
    features: z
      .number()
      .int()
      .min(1)
      .max(12)
      .optional()
      .describe(
        'how many distinct features or steps a task needs (its depth); a composite sums its steps’, a plain skill defaults to 1',
      ),
    discovery: z
      .array(z.enum(['explicit', 'natural', 'goal']))
      .default([])
      .describe(
        'levels at which the instruction does not name the target (the largest, the latest, the one a memo names): the agent finds it, and the rubric checks the found one was used',
      ),
  })
  .strict()
  .superRefine((spec, ctx) => {
    // Specs that come from the store or an API, not through parseSpec's earlier check.
    for (const { path, length } of oversizedStrings(spec))
      ctx.addIssue({ code: 'custom', path, message: oversizedMessage(length) });
    const seen = new Set<string>();
    spec.nodes.forEach((node, i) => {
      const nodeScope = 'scope' in node ? node.scope : undefined;
      const key = nodeQualifiedId(node);
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `duplicate node id ${key}` });
      if (nodeScope !== undefined && !spec.nodes.slice(0, i).some((n) => 'step' in n && n.id === nodeScope))
        ctx.addIssue({
          code: 'custom',
          path: ['nodes', i, 'scope'],
          message: `scope "${nodeScope}" is not a step node before this node`,
        });
      seen.add(key);
    });
    const prepared = spec.nodes.flatMap((n) => ('prepare' in n ? [n.prepare.app] : []));
    if (prepared.length === 0)
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'a skill needs at least one prepare node' });
    if (!spec.nodes.some((n) => 'solve' in n))
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'a skill needs a solve node (the oracle)' });
    const kinds = JSON.stringify(spec.rubric.checks);
    if (spec.expected === 'infeasible' && !kinds.includes(INFEASIBLE_REPORT_KIND))
      ctx.addIssue({
        code: 'custom',
        path: ['rubric', 'checks'],
        message: `an infeasible skill checks that the agent reported it (kind ${INFEASIBLE_REPORT_KIND})`,
      });
    if (spec.expected === 'infeasible' && spec.rubric.invariants?.off !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['rubric', 'invariants'],
        message: 'an infeasible skill must keep its invariants: the right outcome changes nothing',
      });
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
