import { preparers } from '../registry.ts';
import { APPS } from '../types.ts';

interface ZodDefLike {
  _zod: { def: { options?: ZodDefLike[]; shape?: { kind?: { _zod: { def: { values?: unknown[] } } } } } };
}

/** Every rubric check kind the preparers' check schemas accept, e.g. "calc.formula". */
export function checkKinds(): string[] {
  const kinds: string[] = [];
  for (const app of APPS) {
    const union = preparers[app].checkSchema as unknown as ZodDefLike;
    for (const option of union._zod.def.options ?? []) {
      for (const v of option._zod.def.shape?.kind?._zod.def.values ?? []) kinds.push(String(v));
    }
  }
  return kinds.sort();
}
