import { jsonEqual } from './deepEqual.ts';

/**
 * A near miss of an app's oracle edits (Preparer.mutants): one edit replaced, named by it. With
 * `also`, the oracle's edits are kept and these follow edit `edit`: the task done, plus a
 * collateral change beside it — the damage only an invariant can see, so a kill of it is
 * discriminating.
 */
export type EditMutant<Edit> = { name: string; edit: number; edits: Edit[]; also?: Edit[] };

/**
 * Collects single-edit mutants: `add(i, name, edit)` keeps the oracle's edits with edit `i`
 * replaced, unless the replacement is the oracle's own edit; `also(i, name, edit)` keeps them all
 * and makes `edit` as well, right after edit `i`; `moved(i, name, edit)`, for an edit made on the
 * wrong target, does both: on that target instead, and on it as well as on its own.
 */
export function editMutants<Edit extends { op: string }>(
  edits: Edit[],
): {
  out: EditMutant<Edit>[];
  add(i: number, name: string, edit: Edit): void;
  also(i: number, name: string, edit: Edit): void;
  moved(i: number, name: string, edit: Edit): void;
} {
  const out: EditMutant<Edit>[] = [];
  const add = (i: number, name: string, edit: Edit) => {
    if (jsonEqual(edit, edits[i])) return;
    const next = [...edits];
    next[i] = edit;
    out.push({ name: `${edits[i]!.op} #${i + 1} ${name}`, edit: i, edits: next });
  };
  const also = (i: number, name: string, edit: Edit) => {
    if (jsonEqual(edit, edits[i])) return;
    out.push({ name: `${edits[i]!.op} #${i + 1} ${name}`, edit: i, edits: [...edits], also: [edit] });
  };
  return {
    out,
    add,
    also,
    moved(i, name, edit) {
      add(i, name, edit);
      also(i, `${name}, as well as its own`, edit);
    },
  };
}

/** The name a second copy of `path` gets beside it ("report (1).pdf"): an output made twice. */
export function twinPath(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? `${path.slice(0, dot)} (1)${path.slice(dot)}` : `${path} (1)`;
}
