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
}

/**
 * The oracle's edits with one app's group replaced by each of that app's generic alternatives;
 * the other apps' edits stay the oracle's, so a composite's generic right changes one thing.
 */
export function genericRights(
  edits: { op: string }[],
  off: readonly string[] = [],
): { name: string; edits: { op: string }[] }[] {
  // Runs of one app's edits, each with the alternatives its preparer derives for that run.
  const groups: { edits: { op: string }[]; rights: Map<string, { op: string }[]> }[] = [];
  for (let i = 0; i < edits.length; ) {
    const app = appOf(edits[i]!.op);
    let j = i;
    while (j < edits.length && appOf(edits[j]!.op) === app) j++;
    const group = edits.slice(i, j);
    const rights = (preparers[app].rights?.(group) ?? []).filter((r) => !off.includes(r.name));
    groups.push({ edits: group, rights: new Map(rights.map((r) => [r.name, r.edits])) });
    i = j;
  }
  // One alternative per name: every run that has it spelt that way (two Calc runs split by a
  // mail edit both respelt), every other run as the oracle did it.
  const names = [...new Set(groups.flatMap((g) => [...g.rights.keys()]))];
  return names.map((name) => ({ name, edits: groups.flatMap((g) => g.rights.get(name) ?? g.edits) }));
}

export async function rightSolutions(
  initial: FileMap,
  oracle: { op: string }[],
  declared: { name: string; edits: { op: string }[] }[],
  off: readonly string[],
): Promise<RightSolution[]> {
  const out: RightSolution[] = [];
  const all = [
    ...genericRights(oracle, off).map((r) => ({ ...r, generic: true })),
    ...declared.map((r) => ({ ...r, generic: false })),
  ];
  for (const r of all) {
    try {
      out.push({ name: r.name, generic: r.generic, files: await applyEdits(initial, r.edits) });
    } catch (err) {
      out.push({ name: r.name, generic: r.generic, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}
