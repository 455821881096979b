import { stringify } from 'yaml';
import { z } from 'zod';
import type { SkillSpec } from '../../skills/schema.ts';
import type { ExpansionTarget, ProposalKind } from './targets.ts';
import { deriveVariant } from './variant.ts';

/** The proposer's answer. The model names a suffix only; the new id is `<target id>-<name>`. */
export const proposalOutput = z
  .object({
    proposals: z
      .array(
        z
          .object({
            kind: z.enum(['split', 'sibling', 'harder', 'retire']),
            name: z
              .string()
              .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a lowercase slug')
              .max(30),
            title: z.string().min(3).max(120),
            description: z.string().min(10).max(400),
            difficulty: z.number().int().min(1).max(5),
            rationale: z.string().max(400),
          })
          .strict(),
      )
      .max(4),
  })
  .strict();
export type ProposalAnswer = z.infer<typeof proposalOutput>['proposals'][number];

export const proposalSystem = [
  'You extend the skill taxonomy of a factory of training tasks for desktop computer-use agents.',
  'A student model was trained and evaluated on tasks of one atomic skill; you get its results and the skill spec.',
  'Kinds: "split" = finer, easier sub-skills of a skill the student cannot do yet;',
  '"sibling" = new skills next to one the student can learn but is weak at;',
  '"harder" = a harder variant of a skill the student has saturated; "retire" = stop generating it.',
  'Only use the kinds you are allowed. Each proposal needs a short slug name, a title, a one-paragraph',
  'description, a difficulty 1-5 and a rationale. Propose at most 3 new skills.',
].join('\n');

const pct = (p: number) => `${(100 * p).toFixed(0)}%`;

export function proposalPrompt(target: ExpansionTarget, spec: SkillSpec, existing: string[]): string {
  return [
    `Skill ${spec.id}: ${spec.title} (apps ${spec.apps.join(', ')}, category ${spec.category}, difficulty ${spec.difficulty}).`,
    spec.description,
    `Student results: ${target.attempts} attempts, pass rate ${pct(target.passRate)}, class ${target.class}.`,
    `Parameters: ${JSON.stringify(spec.params)}`,
    `Allowed kinds: ${target.allowed.join(', ')}.`,
    existing.length ? `Already in the taxonomy, do not propose again: ${existing.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function freeName(base: string, target: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(`${target}-${name}`)) {
      taken.add(`${target}-${name}`);
      return name;
    }
  }
}

/** The offline model's complete answer, by the rule the system prompt states. */
export function offlineProposals(
  target: ExpansionTarget,
  spec: SkillSpec,
  existing: Set<string>,
): { proposals: ProposalAnswer[] } {
  const taken = new Set(existing);
  const d = spec.difficulty;
  const make = (
    kind: ProposalKind,
    name: string,
    title: string,
    description: string,
    difficulty: number,
    rationale: string,
  ): ProposalAnswer => ({
    kind,
    name: kind === 'retire' ? 'retire' : freeName(name, spec.id, taken),
    title,
    description,
    difficulty: Math.min(5, Math.max(1, difficulty)),
    rationale,
  });
  const rate = pct(target.passRate);
  if (target.action === 'split') {
    return {
      proposals: ['a', 'b'].map((part) =>
        make(
          'split',
          `focus-${part}`,
          `${spec.title} (smaller cases, part ${part.toUpperCase()})`,
          `A finer sub-skill of ${spec.id}: ${spec.description} Restricted to smaller inputs and half of the scenarios (part ${part.toUpperCase()}).`,
          d - 1,
          `the student passes ${rate}: learn it on smaller, narrower cases first`,
        ),
      ),
    };
  }
  if (target.action === 'sibling') {
    return {
      proposals: [
        make(
          'sibling',
          'variant',
          `${spec.title} (other scenarios)`,
          `A sibling of ${spec.id} over different scenarios: ${spec.description}`,
          d,
          `the student passes ${rate}: more practice on related cases`,
        ),
      ],
    };
  }
  const harder = make(
    'harder',
    'advanced',
    `${spec.title} (larger inputs)`,
    `A harder variant of ${spec.id} with larger inputs: ${spec.description}`,
    d + 1,
    `the student passes ${rate}: it needs a harder version`,
  );
  return {
    proposals: target.allowed.includes('retire')
      ? [
          harder,
          make(
            'retire',
            'retire',
            `Retire ${spec.id}`,
            `The student solves ${spec.id} reliably; stop generating it.`,
            d,
            `pass rate ${rate}`,
          ),
        ]
      : [harder],
  };
}

/** The author's answer: a whole skill spec as YAML text (untrusted: parsed with parseSpec, then gated). */
export const authorOutput = z.object({ spec_yaml: z.string().min(50).max(100_000) }).strict();

export const authorSystem = [
  'You write skill specs for a factory of training tasks for desktop computer-use agents.',
  'A skill spec is YAML with: id, title, apps, category, description, difficulty (1-5), channel (gui|terminal|either),',
  'params (sampling rules: {int: [a, b]}, {number: [a, b]}, {pick: [...]}, {sample: [...], count}, {bool: p}, {const: v}),',
  'nodes (llm with prompt/output/offline templates, generate, values (JSONata), prepare, solve), instruction and rubric',
  '(machine checks plus plain-language items). Follow the exemplar closely: use only node kinds, output types, document',
  'shapes, oracle operations and rubric checks the exemplar uses. Return the whole spec as YAML in spec_yaml.',
].join('\n');

export interface AuthorRequest {
  id: string;
  kind: string;
  title: string;
  description: string;
  difficulty: number;
  rationale: string;
}

export function authorPrompt(req: AuthorRequest, exemplar: SkillSpec): string {
  return [
    `Write the skill spec with id ${req.id} (${req.kind} of ${exemplar.id}).`,
    `Title: ${req.title}`,
    `Description: ${req.description}`,
    `Difficulty: ${req.difficulty}. Why: ${req.rationale}`,
    'Exemplar spec:',
    stringify(exemplar, { lineWidth: 0 }),
  ].join('\n');
}

/** The offline model's answer: the exemplar turned into the variant (see deriveVariant). */
export function offlineAuthor(
  req: AuthorRequest & { part: number },
  exemplar: SkillSpec,
): { spec_yaml: string } {
  const kind = req.kind === 'split' || req.kind === 'sibling' || req.kind === 'harder' ? req.kind : 'sibling';
  return { spec_yaml: stringify(deriveVariant(exemplar, { ...req, kind }), { lineWidth: 0 }) };
}
