import type { ParamSpec } from '../../skills/params.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import type { ExpansionAction } from './targets.ts';

export interface VariantRequest {
  kind: ExpansionAction;
  id: string;
  title: string;
  description: string;
  difficulty: number;
  /** Which part of the parameter space (split proposals of one target take parts 0, 1, …). */
  part: number;
}

type Range = [number, number];
const lowerHalf = ([a, b]: Range): Range => (b - a >= 2 ? [a, a + Math.floor((b - a) / 2)] : [a, b]);
const upperHalf = ([a, b]: Range): Range => (b - a >= 2 ? [a + Math.ceil((b - a) / 2), b] : [a, b]);

function pickPart<T>(items: T[], part: number, parts: number): T[] {
  if (items.length < 2 * parts || items.length < 4) return items;
  const size = Math.ceil(items.length / parts);
  const slice = items.slice((part % parts) * size, (part % parts) * size + size);
  return slice.length >= 2 ? slice : items;
}

function narrow(p: ParamSpec, kind: ExpansionAction, part: number): ParamSpec {
  const range = kind === 'harder' ? upperHalf : kind === 'split' ? lowerHalf : (r: Range) => r;
  if ('int' in p) return { int: range(p.int) };
  if ('number' in p) return { ...p, number: range(p.number) };
  if ('pick' in p && kind !== 'harder') return { pick: pickPart(p.pick, kind === 'sibling' ? 1 : part, 2) };
  return p;
}

/**
 * The offline model's template for authoring a proposed skill: the exemplar spec with a new id,
 * title, description and difficulty, and its parameters narrowed to a sub-space — the lower sizes
 * and one half of each choice list for a split, the upper sizes for a harder variant, the other
 * half of the choice lists for a sibling. A sub-space of a working spec's parameters keeps every
 * task valid, so these specs can pass the gate.
 */
export function deriveVariant(exemplar: SkillSpec, req: VariantRequest): SkillSpec {
  const params = Object.fromEntries(
    Object.entries(exemplar.params).map(([k, p]) => [k, narrow(p, req.kind, req.part)]),
  );
  return {
    ...structuredClone(exemplar),
    id: req.id,
    title: req.title,
    description: req.description,
    difficulty: req.difficulty,
    params,
  };
}
