import { jsonEqual } from './deepEqual.ts';

/** A near miss of an app's oracle edits (Preparer.mutants): one edit replaced, named by it. */
export type EditMutant<Edit> = { name: string; edit: number; edits: Edit[] };

/**
 * Collects single-edit mutants: `add(i, name, edit)` keeps the oracle's edits with edit `i`
 * replaced, unless the replacement is the oracle's own edit.
 */
export function editMutants<Edit extends { op: string }>(
  edits: Edit[],
): { out: EditMutant<Edit>[]; add(i: number, name: string, edit: Edit): void } {
  const out: EditMutant<Edit>[] = [];
  return {
    out,
    add(i, name, edit) {
      if (jsonEqual(edit, edits[i])) return;
      const next = [...edits];
      next[i] = edit;
      out.push({ name: `${edits[i]!.op} #${i + 1} ${name}`, edit: i, edits: next });
    },
  };
}
