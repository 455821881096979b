import { z } from 'zod';
import { deriveSeed, Rng } from './random.ts';

/** Parameter sampling rules; every task draws its own values from its seed. */
const range = z.tuple([z.number(), z.number()]).refine(([a, b]) => a <= b, 'range min exceeds max');

export const paramSpecSchema = z.union([
  z.object({ int: range }).strict(),
  z.object({ number: range, decimals: z.number().int().min(0).max(6).default(2) }).strict(),
  z.object({ pick: z.array(z.unknown()).min(1) }).strict(),
  z
    .object({ sample: z.array(z.unknown()).min(1), count: z.union([z.number().int().min(1), range]) })
    .strict(),
  z.object({ bool: z.number().min(0).max(1) }).strict(),
  z.object({ const: z.unknown() }).strict(),
]);
export type ParamSpec = z.infer<typeof paramSpecSchema>;

export function sampleParam(spec: ParamSpec, rng: Rng): unknown {
  if ('int' in spec) return rng.int(Math.ceil(spec.int[0]), Math.floor(spec.int[1]));
  if ('number' in spec) {
    const f = 10 ** spec.decimals;
    return Math.round((spec.number[0] + rng.next() * (spec.number[1] - spec.number[0])) * f) / f;
  }
  if ('pick' in spec) return rng.pick(spec.pick);
  if ('sample' in spec) {
    const n = typeof spec.count === 'number' ? spec.count : rng.int(spec.count[0], spec.count[1]);
    return rng.sample(spec.sample, n);
  }
  if ('bool' in spec) return rng.next() < spec.bool;
  return spec.const;
}

/**
 * Where a task sits among its skill's tasks in a round: `seed` is the skill's in that round, `index`
 * the task's. Tasks of one stratum draw a `pick` without replacement — each run of n tasks (n the
 * number of choices) takes every choice once, in an order of its own — so a skill's three tasks of
 * a round never share the scenario a short list picks (independent draws gave the same files to
 * two of them about once in a few hundred skills).
 */
export interface Stratum {
  seed: number;
  index: number;
}

export function sampleParams(
  specs: Record<string, ParamSpec>,
  seed: number,
  stratum?: Stratum,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // One stream per name, so adding a parameter to a spec does not change the values of the others.
  for (const [name, spec] of Object.entries(specs))
    out[name] =
      stratum && 'pick' in spec
        ? stratifiedPick(spec.pick, stratum, name)
        : sampleParam(spec, new Rng(deriveSeed(seed, name)));
  return out;
}

function stratifiedPick(items: readonly unknown[], { seed, index }: Stratum, name: string): unknown {
  const run = Math.floor(index / items.length);
  const order = new Rng(deriveSeed(seed, name, run)).shuffle(items);
  return order[index % items.length];
}
