import jsonata from 'jsonata';
import { z } from 'zod';
import { APPS } from '../preparers/types.ts';
import { paramSpecSchema } from './params.ts';
import {
  isLevelledNode,
  nodeSchema,
  rubricItemSchema,
  type SkillNode,
  type SkillSpec,
  wrongSolutionSchema,
} from './schema.ts';
import { markScope, unmarkScope } from './template.ts';

/**
 * Composite skills: a spec with `compose:` chains 2–8 existing skills (a long workflow: 6 or more
 * over three or more applications). Each step keeps its own nodes in its own scope (`ctx.<as>`: its
 * params, task and node outputs), so its templates and JSONata expressions — `$$` included — mean
 * exactly what they mean in the step's own spec. A step's inputs can be bound to values of earlier
 * steps. The composite adds its own nodes (one
 * levelled instruction node, hand-off values), hand-off checks and wrong solutions. A composite is
 * expanded into an ordinary SkillSpec when it is loaded, so everything downstream sees one.
 */
const stepAlias = z
  .string()
  .regex(/^[a-z][a-z0-9]*$/, 'a step name is a lowercase word (letters and digits)')
  .refine((s) => !['params', 'task', 'skill', 'content', 'steps'].includes(s), 'reserved name');

const templated = z.unknown();

/** The longest chain: past eight steps one instruction can no longer name every hand-off. */
export const MAX_STEPS = 8;

export const compositeStepSchema = z
  .object({
    as: stepAlias.describe("the step's name: its context is ctx.<as>"),
    skill: z.string().min(1).describe('the id of an existing (non-composite) skill'),
    bind: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'params.<name> or <node>.<field> of this step ← a template over earlier steps (ctx.<as>…) and the composite params',
      ),
  })
  .strict();

const compositeWrongSchema = z
  .object({
    name: wrongSolutionSchema.shape.name,
    steps: z
      .record(stepAlias, z.string().min(1))
      .default({})
      .describe('per step: "solve" (default), "skip", or the name of one of its wrong solutions'),
    edits: z.array(templated).default([]).describe('root-scope edits applied after the steps’ edits'),
  })
  .strict();

export const compositeSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(\.[a-z0-9-]+)+$/, 'ids look like app.category.name (lowercase, dots, dashes)'),
    title: z.string().min(3),
    apps: z.array(z.enum(APPS)).default([]).describe("added to the steps' apps"),
    category: z.string().min(1),
    description: z.string().min(10),
    difficulty: z.number().int().min(1).max(5),
    channel: z.enum(['gui', 'terminal', 'either']),
    params: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), paramSpecSchema).default({}),
    compose: z
      .object({
        steps: z
          .array(compositeStepSchema)
          .min(2, 'a composite has 2 to 8 steps')
          .max(MAX_STEPS, `a composite has 2 to ${MAX_STEPS} steps`),
      })
      .strict(),
    nodes: z.array(nodeSchema).min(1).describe("the composite's own nodes, run after the steps"),
    instruction: z.string().min(1),
    rubric: z
      .object({
        checks: z.array(templated).min(1, 'a composite checks at least one hand-off'),
        items: z.array(rubricItemSchema).min(1),
        invariants: z
          .object({ off: z.string().min(10) })
          .strict()
          .optional(),
        generic_ok: z.array(z.unknown()).default([]),
        generic_right_off: z.array(z.unknown()).default([]),
      })
      .strict(),
    wrong: z.array(compositeWrongSchema).min(3, 'a composite declares at least 3 wrong solutions of its own'),
    launch: z.array(z.array(z.string())).default([]),
    discovery: z
      .array(z.enum(['explicit', 'natural', 'goal']))
      .default([])
      .describe('levels at which the agent finds the target itself (see the skill schema)'),
  })
  .strict();
export type CompositeSpec = z.infer<typeof compositeSchema>;

/** True when a parsed YAML value is a composite (has a top-level `compose:`). */
export function isComposite(value: unknown): boolean {
  return !!value && typeof value === 'object' && 'compose' in value;
}

/** A component the composite names, resolved from the library. */
export type Component =
  | { spec: SkillSpec; sha256: string; composite?: false }
  /** The component is itself a composite (not supported as a step). */
  | { composite: true };

export interface ComposeProblem {
  path: (string | number)[];
  message: string;
}

export class ComposeError extends Error {
  override name = 'ComposeError';
  constructor(readonly problems: ComposeProblem[]) {
    super(problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; '));
  }
}

/** Root names an expression reads (the first step of each top-level path). */
function rootNames(expr: string): string[] {
  let ast: unknown;
  try {
    ast = jsonata(unmarkScope(expr).expr).ast();
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; value?: unknown; steps?: unknown[] };
    if (n.type === 'name' && typeof n.value === 'string') {
      out.push(n.value);
      return;
    }
    if (n.type === 'path' && Array.isArray(n.steps)) {
      // Later steps (and predicates) are relative to the path, not to the task context.
      walk(n.steps[0]);
      return;
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'position') walk(v);
  };
  walk(ast);
  return out;
}

const TEMPLATE = /\{\{\s*([\s\S]+?)\s*\}\}/g;

function templateExprs(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((m) => m[1]!);
}

/** What a `bind` target may name in a step: its params, llm answer fields and values entries. */
function bindTargets(spec: SkillSpec, levelled: SkillNode | undefined): Set<string> {
  const out = new Set(Object.keys(spec.params).map((p) => `params.${p}`));
  for (const node of spec.nodes) {
    if (node === levelled) continue;
    if ('llm' in node) for (const f of Object.keys(node.llm.output)) out.add(`${node.id}.${f}`);
    if ('values' in node) for (const f of Object.keys(node.values)) out.add(`${node.id}.${f}`);
  }
  return out;
}

/**
 * Expands a validated composite into the value of an ordinary skill spec (to be validated by
 * skillSpecSchema). `resolve` finds a component by id. Problems name the step and what is wrong.
 */
export function expandComposite(c: CompositeSpec, resolve: (id: string) => Component | undefined): unknown {
  const problems: ComposeProblem[] = [];
  const aliases = c.compose.steps.map((s) => s.as);
  const ownIds = new Set(c.nodes.map((n) => n.id));
  const steps: { as: string; bind: Record<string, string>; comp: { spec: SkillSpec; sha256: string } }[] = [];
  c.compose.steps.forEach((step, i) => {
    const at = ['compose', 'steps', i];
    if (aliases.indexOf(step.as) !== i)
      problems.push({ path: [...at, 'as'], message: `step name "${step.as}" is used twice` });
    if (ownIds.has(step.as))
      problems.push({
        path: [...at, 'as'],
        message: `step name "${step.as}" is also a node id of the composite`,
      });
    const comp = resolve(step.skill);
    if (!comp) {
      problems.push({ path: [...at, 'skill'], message: `step ${step.as}: unknown skill id "${step.skill}"` });
      return;
    }
    if (comp.composite) {
      problems.push({
        path: [...at, 'skill'],
        message: `step ${step.as}: ${step.skill} is itself a composite; composites of composites are not supported`,
      });
      return;
    }
    if (comp.spec.expected === 'infeasible') {
      problems.push({
        path: [...at, 'skill'],
        message: `step ${step.as}: ${step.skill} is an infeasible skill; a composite chains feasible work`,
      });
      return;
    }
    const levelled = comp.spec.nodes.find((n) => 'llm' in n && isLevelledNode(n.llm));
    const targets = bindTargets(comp.spec, levelled);
    for (const [target, tmpl] of Object.entries(step.bind)) {
      const where = [...at, 'bind', target];
      if (
        !targets.has(target) &&
        !(target.split('.').length > 2 && targets.has(target.split('.').slice(0, 2).join('.')))
      )
        problems.push({
          path: where,
          message: `step ${step.as}: ${step.skill} has no param or node value "${target}" to bind (it has ${[...targets].join(', ')})`,
        });
      for (const expr of templateExprs(tmpl))
        for (const name of rootNames(expr)) {
          const j = aliases.indexOf(name);
          if (j >= i)
            problems.push({
              path: where,
              message: `step ${step.as}: the binding reads step ${name}, which ${j === i ? 'is this step (a cycle)' : 'runs later (a cycle)'}`,
            });
          else if (ownIds.has(name))
            problems.push({
              path: where,
              message: `step ${step.as}: the binding reads the composite's node ${name}, which runs after the steps`,
            });
        }
      if (templateExprs(tmpl).length === 0)
        problems.push({
          path: where,
          message: `step ${step.as}: a binding is a {{ }} template over earlier steps`,
        });
    }
    steps.push({ as: step.as, bind: step.bind, comp });
  });
  const levelledOwn = c.nodes.filter((n) => 'llm' in n && isLevelledNode(n.llm));
  if (levelledOwn.length !== 1)
    problems.push({
      path: ['nodes'],
      message: `a composite has exactly one levelled instruction node of its own (found ${levelledOwn.length}); the steps' instruction nodes are not used`,
    });
  c.nodes.forEach((n, i) => {
    if ('step' in n || ('scope' in n && n.scope !== undefined))
      problems.push({
        path: ['nodes', i],
        message: 'step and scope belong to the expansion, not to a composite file',
      });
    if ('solve' in n && n.wrong.length > 0)
      problems.push({
        path: ['nodes', i, 'wrong'],
        message: "a composite's wrong solutions go under wrong:",
      });
    if ('solve' in n && n.right.length > 0)
      problems.push({
        path: ['nodes', i, 'right'],
        message: "a composite's correct alternatives come from its steps' right:",
      });
  });
  if (problems.length > 0) throw new ComposeError(problems);

  const solveEdits = (s: (typeof steps)[number]): unknown[] =>
    s.comp.spec.nodes.flatMap((n) => ('solve' in n ? (markScope(n.solve, s.as) as unknown[]) : []));
  const stepWrongs = (s: (typeof steps)[number]) =>
    s.comp.spec.nodes.flatMap((n) => ('solve' in n ? n.wrong : []));

  // Each step's wrong solution stays wrong in the composite: that step done its wrong way, the others right.
  const wrong: { name: string; edits: unknown[] }[] = [];
  for (const s of steps)
    for (const w of stepWrongs(s))
      wrong.push({
        name: `${s.as}-${w.name}`,
        edits: steps.flatMap((t) => (t === s ? (markScope(w.edits, s.as) as unknown[]) : solveEdits(t))),
      });
  c.wrong.forEach((w, i) => {
    const edits: unknown[] = [];
    for (const name of Object.keys(w.steps))
      if (!aliases.includes(name))
        problems.push({
          path: ['wrong', i, 'steps', name],
          message: `wrong ${w.name}: no step named ${name}`,
        });
    for (const s of steps) {
      const how = w.steps[s.as] ?? 'solve';
      if (how === 'solve') edits.push(...solveEdits(s));
      else if (how !== 'skip') {
        const sw = stepWrongs(s).find((x) => x.name === how);
        if (!sw)
          problems.push({
            path: ['wrong', i, 'steps', s.as],
            message: `wrong ${w.name}: step ${s.as} (${s.comp.spec.id}) has no wrong solution "${how}" (use solve, skip or one of: ${stepWrongs(
              s,
            )
              .map((x) => x.name)
              .join(', ')})`,
          });
        else edits.push(...(markScope(sw.edits, s.as) as unknown[]));
      }
    }
    edits.push(...w.edits);
    if (wrong.some((x) => x.name === w.name))
      problems.push({ path: ['wrong', i, 'name'], message: `wrong solution name ${w.name} is used twice` });
    wrong.push({ name: w.name, edits });
  });
  if (problems.length > 0) throw new ComposeError(problems);
  // Each step's correct alternative stays correct in the composite: that step done its other way, the others as the oracle.
  const right: { name: string; edits: unknown[]; levels?: string[] }[] = [];
  for (const s of steps)
    for (const r of s.comp.spec.nodes.flatMap((n) => ('solve' in n ? n.right : [])))
      right.push({
        name: `${s.as}-${r.name}`,
        edits: steps.flatMap((t) => (t === s ? (markScope(r.edits, s.as) as unknown[]) : solveEdits(t))),
        ...(r.levels ? { levels: r.levels } : {}),
      });

  const nodes: unknown[] = [];
  const checks: unknown[] = [];
  const items: unknown[] = [];
  const off: string[] = [];
  const genericOk: unknown[] = [];
  const rightOff: unknown[] = [];
  const launch: unknown[] = [];
  const apps: string[] = [];
  for (const s of steps) {
    const spec = s.comp.spec;
    const bound = new Set(
      Object.keys(s.bind)
        .filter((t) => t.startsWith('params.'))
        .map((t) => t.slice(7)),
    );
    nodes.push({
      id: s.as,
      step: {
        skill: spec.id,
        sha256: s.comp.sha256,
        params: Object.fromEntries(Object.entries(spec.params).filter(([k]) => !bound.has(k))),
        bind: s.bind,
      },
    });
    for (const n of spec.nodes) {
      if ('llm' in n && isLevelledNode(n.llm)) continue;
      // The step's solve edits are the oracle's; its wrong solutions were lifted to the composite's.
      nodes.push('solve' in n ? { ...n, scope: s.as, wrong: [], right: [] } : { ...n, scope: s.as });
    }
    const base = checks.length;
    checks.push(...(markScope(spec.rubric.checks, s.as) as unknown[]));
    for (const item of spec.rubric.items)
      items.push({
        text: markScope(item.text, s.as),
        weight: item.weight,
        checks: item.checks.map((k) => (k === 'invariants' ? k : k + base)),
      });
    if (spec.rubric.invariants?.off) off.push(`${s.as}: ${spec.rubric.invariants.off}`);
    genericOk.push(...spec.rubric.generic_ok);
    rightOff.push(...spec.rubric.generic_right_off);
    launch.push(...spec.launch);
    for (const a of spec.apps) if (!apps.includes(a)) apps.push(a);
  }
  const base = checks.length;
  checks.push(...c.rubric.checks);
  for (const item of c.rubric.items)
    items.push({ ...item, checks: item.checks.map((k) => (k === 'invariants' ? k : k + base)) });
  if (c.rubric.invariants?.off) off.push(c.rubric.invariants.off);
  genericOk.push(...c.rubric.generic_ok);
  rightOff.push(...c.rubric.generic_right_off);
  for (const a of c.apps) if (!apps.includes(a)) apps.push(a);

  nodes.push(...c.nodes);
  // The composite's wrong solutions ride on the last solve node; they render in the root scope.
  const carrier = [...nodes].reverse().find((n) => 'solve' in (n as object)) as
    | { wrong: unknown[]; right: unknown[] }
    | undefined;
  if (carrier) {
    carrier.wrong = wrong;
    carrier.right = right;
  }

  const invariantsOff = off.length > 0;
  return {
    id: c.id,
    title: c.title,
    apps,
    category: c.category,
    description: c.description,
    difficulty: c.difficulty,
    channel: c.channel,
    params: c.params,
    nodes,
    instruction: c.instruction,
    rubric: {
      checks,
      // With a step's invariants off, "nothing else changed" is not derived for the composite either.
      items: invariantsOff
        ? (items as { checks: unknown[] }[])
            .map((it) => ({ ...it, checks: it.checks.filter((k) => k !== 'invariants') }))
            .filter((it) => it.checks.length > 0)
        : items,
      ...(invariantsOff ? { invariants: { off: off.join('; ') } } : {}),
      generic_ok: [...new Map(genericOk.map((g) => [(g as { name: string }).name, g])).values()],
      generic_right_off: [...new Map(rightOff.map((g) => [(g as { name: string }).name, g])).values()],
    },
    launch: [...new Map(launch.map((l) => [JSON.stringify(l), l])).values()],
    expected: 'feasible',
    features: steps.reduce((n, s) => n + (s.comp.spec.features ?? 1), 0),
    discovery: c.discovery,
  };
}
