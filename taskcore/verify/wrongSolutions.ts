import JSZip from 'jszip';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { officeFormatOf } from '../../preparers/office/formats.ts';
import { applyEdits, appOf, preparers } from '../../preparers/registry.ts';
import type { AppId, FileMap } from '../../preparers/types.ts';

/**
 * Wrong solutions: states a careless agent could leave, each of which the rubric must fail. The
 * skill declares its own (`wrong:` next to `solve:`); four generic ones apply to every task:
 * - `no-op`: nothing done;
 * - `save-unchanged`: every office file opened and saved again, unchanged;
 * - `delete-target`: the task's files deleted;
 * - `bulk-everything`: the oracle's edits as a select-all (every message of the folder, every
 *   paragraph, every slide, whole columns), where the app has such a form.
 */
export interface WrongSolution {
  name: string;
  generic: boolean;
  /** The state it leaves, or why it could not be built (declared ones only: a spec error). */
  files?: FileMap;
  error?: string;
  /** It leaves the untouched state (saved again, or not at all): failing it is no kill. */
  sameAsInitial?: boolean;
}

export interface WrongVerdict {
  name: string;
  generic: boolean;
  killed: boolean;
  /** Kinds of the checks that failed (the ones that caught it). */
  failing: string[];
  /** It leaves the untouched state: failed, but not counted as a kill (absent on older rows). */
  sameAsInitial?: boolean;
  /** A check the untouched state passes failed it (absent on older rows). */
  discriminating?: boolean;
}

async function resave(files: FileMap): Promise<FileMap | undefined> {
  const out: FileMap = { ...files };
  let any = false;
  for (const [path, bytes] of Object.entries(files)) {
    if (officeFormatOf(path) === undefined) continue;
    const zip = await JSZip.loadAsync(bytes);
    out[path] = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    any = true;
  }
  return any ? out : undefined;
}

function withoutTargets(files: FileMap, targets: { app: string; target: string }[]): FileMap | undefined {
  const out: FileMap = { ...files };
  let any = false;
  for (const { app, target } of targets) {
    // A profile is not a file a person would delete to start over.
    if (preparers[app as AppId].profile?.targetIsName) continue;
    for (const path of Object.keys(out)) {
      if (path === target || path.startsWith(`${target}/`)) {
        delete out[path];
        any = true;
      }
    }
  }
  return any ? out : undefined;
}

/** The oracle's edits in their select-all form, app by app, or undefined when no app has one. */
export function bulkEdits(edits: { op: string }[]): { op: string }[] | undefined {
  const out: { op: string }[] = [];
  let any = false;
  for (let i = 0; i < edits.length; ) {
    const app = appOf(edits[i]!.op);
    let j = i;
    while (j < edits.length && appOf(edits[j]!.op) === app) j++;
    const group = edits.slice(i, j);
    const bulk = preparers[app].bulk(group);
    if (bulk) any = true;
    for (const e of bulk ?? group) {
      // The same select-all twice (rm -r of one folder for two files) is one action.
      if (!out.some((o) => jsonEqual(o, e))) out.push(e);
    }
    i = j;
  }
  return any ? out : undefined;
}

export async function wrongSolutions(
  initial: FileMap,
  oracle: { op: string }[],
  declared: { name: string; edits: { op: string }[] }[],
  targets: { app: string; target: string }[],
): Promise<WrongSolution[]> {
  const out: WrongSolution[] = [{ name: 'no-op', generic: true, files: initial, sameAsInitial: true }];
  const saved = await resave(initial);
  if (saved) out.push({ name: 'save-unchanged', generic: true, files: saved, sameAsInitial: true });
  const deleted = withoutTargets(initial, targets);
  if (deleted) out.push({ name: 'delete-target', generic: true, files: deleted });
  const bulk = bulkEdits(oracle);
  if (bulk) {
    try {
      out.push({ name: 'bulk-everything', generic: true, files: await applyEdits(initial, bulk) });
    } catch {
      // A select-all that the app refuses (nothing left to act on) is not a state an agent can leave.
    }
  }
  for (const w of declared) {
    try {
      out.push({ name: w.name, generic: false, files: await applyEdits(initial, w.edits) });
    } catch (err) {
      out.push({ name: w.name, generic: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}
