import { proseKindsOf } from '../generate.ts';
import type { ParamSpec } from '../params.ts';
import type { SkillSpec } from '../schema.ts';
import { renderString } from '../template.ts';

/**
 * How many lines one task of a spec may draw at most: each generate node's sentence fields, and
 * three for each paragraph field (a paragraph the set's own have run out for is made of three of
 * its lines), times the node's largest record count over the spec's params (numbers at their top,
 * each pick's choices in turn, the others at their first). A count that reads other nodes is left
 * out: the content quota's floor covers it. The answer depends on the spec alone, so every task of
 * a content pool asks for the same set size (one request, one cache entry).
 */
export async function lineDemand(spec: SkillSpec): Promise<number> {
  const known = demands.get(spec);
  if (known !== undefined) return known;
  // A composite's step nodes read their own params (ctx.<step>.params); its bound ones are unknown.
  const scopes = new Map<string | undefined, Record<string, unknown>[]>([
    [undefined, paramVariants(spec.params)],
  ]);
  for (const node of spec.nodes) if ('step' in node) scopes.set(node.id, paramVariants(node.step.params));
  let total = 0;
  for (const node of spec.nodes) {
    if (!('generate' in node)) continue;
    const contexts = (scopes.get(node.scope) ?? []).map((params) => ({ params }));
    const fields = node.generate.fields as Record<string, unknown>;
    const kinds = Object.values(fields).flatMap((f) => proseKindsOf({ f }));
    const lines =
      kinds.filter((k) => k === 'sentence').length +
      LINES_PER_PARAGRAPH * kinds.filter((k) => k === 'paragraph').length;
    if (lines === 0) continue;
    let most = 0;
    for (const ctx of contexts) {
      const n = await recordCount(node.generate.records, ctx);
      if (n !== undefined) most = Math.max(most, n);
    }
    total += lines * most;
  }
  demands.set(spec, total);
  return total;
}

const demands = new WeakMap<SkillSpec, number>();

/** The most lines a paragraph takes when the engine makes one of a set's lines. */
export const LINES_PER_PARAGRAPH = 3;

async function recordCount(
  records: number | string,
  ctx: Record<string, unknown>,
): Promise<number | undefined> {
  if (typeof records === 'number') return records;
  try {
    const n = Number(await renderString(records, ctx));
    return Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined;
  } catch {
    return undefined;
  }
}

function top(rule: ParamSpec): unknown {
  if ('int' in rule) return rule.int[1];
  if ('number' in rule) return rule.number[1];
  if ('pick' in rule) return rule.pick[0];
  if ('sample' in rule)
    return rule.sample.slice(0, typeof rule.count === 'number' ? rule.count : rule.count[1]);
  if ('bool' in rule) return true;
  return rule.const;
}

/** Params at their top, then once with each other choice of each pick. */
function paramVariants(rules: Record<string, ParamSpec>): Record<string, unknown>[] {
  const base = Object.fromEntries(Object.entries(rules).map(([k, r]) => [k, top(r)]));
  const out = [base];
  for (const [k, r] of Object.entries(rules))
    if ('pick' in r) for (const choice of r.pick.slice(1)) out.push({ ...base, [k]: choice });
  return out;
}
