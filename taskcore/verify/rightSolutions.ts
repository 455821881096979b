import { applyEdits, appOf, preparers } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';

/**
 * Correct alternatives: states a competent person could leave that differ from the oracle's, each
 * of which the rubric must pass (a rubric that fails one teaches the student to avoid the right
 * behaviour). The skill declares its own (`right:` next to `wrong:`); each app's preparer derives
 * generic ones from the oracle's edits (`Preparer.rights`), e.g. a formula spelt another way.
 */
export interface RightSolution {
  name: string;
  generic: boolean;
  /** The state it leaves, or why it could not be built (a spec error). */
  files?: FileMap;
  error?: string;
}

export interface RightVerdict {
  name: string;
  generic: boolean;
  passed: boolean;
  /** Kinds of the checks that failed it (empty when it passed). */
  failing: string[];
  /** It leaves exactly the oracle's files: it passes, but proves nothing the oracle did not. */
  sameAsOracle?: boolean;
}

/**
 * The oracle's edits with each app's edits replaced by that app's generic alternative of one name;
 * the other apps' edits stay the oracle's. An app sees all of its edits at once (a sort after a
 * mail edit still moves the cells a formula before it wrote) and answers them one for one.
 */
export function genericRights(
  edits: { op: string }[],
  off: readonly string[] = [],
): { name: string; edits: { op: string }[] }[] {
  const byName = new Map<string, { op: string }[]>();
  for (const app of new Set(edits.map((e) => appOf(e.op)))) {
    const at = edits.flatMap((e, i) => (appOf(e.op) === app ? [i] : []));
    for (const r of preparers[app].rights?.(at.map((i) => edits[i]!)) ?? []) {
      if (off.includes(r.name) || r.edits.length !== at.length) continue;
      const out = byName.get(r.name) ?? [...edits];
      at.forEach((i, k) => {
        out[i] = r.edits[k]!;
      });
      byName.set(r.name, out);
    }
  }
  return [...byName].map(([name, e]) => ({ name, edits: e }));
}

/**
 * The generic alternatives that read the task's files (`Preparer.rightsBeside`): the oracle's edits
 * and then the app's additions (`also`), read off the initial and the oracle's files.
 */
export async function genericRightsBeside(
  initial: FileMap,
  solved: FileMap,
  edits: { op: string }[],
  off: readonly string[] = [],
): Promise<{ name: string; edits: { op: string }[]; also: { op: string }[] }[]> {
  const out: { name: string; edits: { op: string }[]; also: { op: string }[] }[] = [];
  for (const app of new Set(edits.map((e) => appOf(e.op)))) {
    const own = edits.filter((e) => appOf(e.op) === app);
    for (const r of (await preparers[app].rightsBeside?.(own, initial, solved)) ?? [])
      if (!off.includes(r.name) && r.also.length > 0)
        out.push({ name: r.name, edits: [...edits, ...r.also], also: r.also });
  }
  return out;
}

export async function rightSolutions(
  initial: FileMap,
  solved: FileMap,
  oracle: { op: string }[],
  declared: { name: string; edits: { op: string }[] }[],
  off: readonly string[],
): Promise<RightSolution[]> {
  const out: RightSolution[] = [];
  // An alternative made beside the oracle's edits starts from the oracle's files, not again from the initial ones.
  const all: { name: string; generic: boolean; edits: { op: string }[]; from?: FileMap }[] = [
    ...genericRights(oracle, off).map((r) => ({ ...r, generic: true })),
    ...(await genericRightsBeside(initial, solved, oracle, off)).map((r) => ({
      name: r.name,
      generic: true,
      edits: r.also,
      from: solved,
    })),
    ...declared.map((r) => ({ ...r, generic: false })),
  ];
  for (const r of all) {
    try {
      out.push({ name: r.name, generic: r.generic, files: await applyEdits(r.from ?? initial, r.edits) });
    } catch (err) {
      out.push({ name: r.name, generic: r.generic, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}
