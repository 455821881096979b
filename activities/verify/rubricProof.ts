import { OS_MANIFEST_PATH } from '../../preparers/os/manifest.ts';
import { preparers, probeCheck } from '../../preparers/registry.ts';
import type { AppId, FileMap, ProbeResult } from '../../preparers/types.ts';
import type { MaterializedTask } from '../../skills/run/materialize.ts';
import { type RightVerdict, rightSolutions } from './rightSolutions.ts';
import { type WrongVerdict, wrongSolutions } from './wrongSolutions.ts';

/** What verification proved about a task's rubric (tasks.rubric_stats). */
export interface RubricStats {
  wrongTried: number;
  wrongKilled: number;
  wrongDeclared: number;
  checks: number;
  invariantChecks: number;
  expected: 'feasible' | 'infeasible';
  wrong: WrongVerdict[];
  /** Correct alternatives tried (declared + generic) and how many passed; absent on rows before them. */
  rightTried?: number;
  rightPassed?: number;
  right?: RightVerdict[];
  /** States the export gate graded in the task's shipped form (set when it passed them all). */
  exportStates?: number;
}

export type RubricProof =
  | {
      ok: true;
      checks: { kind: string; file?: string }[];
      /** Items with their checks resolved to indices (the derived invariants included). */
      items: { text: string; weight: number; checks: number[] }[];
      before: ProbeResult[];
      after: ProbeResult[];
      stats: RubricStats;
      /** Verification steps passed, in order (node ids for the task's node runs). */
      passed: string[];
      /** Every wrong solution tried, with its files and the probes' verdicts (for the export gate). */
      wrongStates: { name: string; files: FileMap; probes: ProbeResult[] }[];
      /** Every correct alternative tried, with its files and the probes' verdicts (all passing). */
      rightStates: { name: string; files: FileMap; probes: ProbeResult[] }[];
    }
  | { ok: false; reason: string; node: string; detail: string; stats?: RubricStats };

function probeAll(files: FileMap, checks: { kind: string }[]): Promise<ProbeResult[]> {
  return Promise.all(checks.map((c) => probeCheck(files, c)));
}

/**
 * A rubric is proved twice: the untouched state fails it and the oracle's state passes it; and
 * every wrong solution (the skill's own and the generic ones) fails it, and every correct
 * alternative (the skill's `right:` and the preparers' generic ones) passes it. Before that, each app
 * adds its "nothing else changed" checks for its own files (`owner`: path → app), unless the
 * skill turns them off with a reason.
 */
export async function proveRubric(
  m: MaterializedTask,
  initial: FileMap,
  solved: FileMap,
  owner: Map<string, AppId>,
): Promise<RubricProof> {
  const declared = m.checks.length;
  const checks: { kind: string; file?: string }[] = [...m.checks];
  if (m.invariantsOff === undefined) {
    for (const app of new Set(m.prepares.map((p) => p.app))) {
      const own = Object.keys(initial).filter((p) => owner.get(p) === app && p !== OS_MANIFEST_PATH);
      try {
        checks.push(...((await preparers[app].invariants(initial, solved, own)) as { kind: string }[]));
      } catch (err) {
        return {
          ok: false,
          reason: 'oracle_failed',
          node: 'verify_invariants',
          detail: (err as Error).message,
        };
      }
    }
  }
  // Items that promise "nothing else changed" point at the derived checks; without any such item
  // the derived checks get one of their own, so every check backs a promise and vice versa.
  const derived = checks.slice(declared).map((_, i) => declared + i);
  const items = m.items.map((item) => ({
    ...item,
    checks: item.checks.flatMap((c) => (c === 'invariants' ? derived : [c])),
  }));
  if (derived.length > 0 && !m.items.some((i) => i.checks.includes('invariants')))
    items.push({
      text: 'Everything the task does not ask to change is left as it was.',
      weight: 1,
      checks: derived,
    });

  const before = await probeAll(initial, checks);
  if (before.every((r) => r.pass))
    return {
      ok: false,
      reason: 'already_solved',
      node: 'verify_initial_fails',
      detail: 'the untouched initial state passes every check',
    };
  const after = await probeAll(solved, checks);
  const failing = after.flatMap((r, i) =>
    r.pass ? [] : [`${checks[i]!.kind}: ${JSON.stringify(r.observed).slice(0, 300)}`],
  );
  if (failing.length > 0)
    return {
      ok: false,
      reason: 'oracle_fails_rubric',
      node: 'verify_solved_passes',
      detail: failing.join('; '),
    };

  const verdicts: WrongVerdict[] = [];
  const wrongStates: { name: string; files: FileMap; probes: ProbeResult[] }[] = [];
  const tried = (await wrongSolutions(initial, m.edits, m.wrong, m.prepares)).filter(
    (w) => !(w.generic && m.genericOk.includes(w.name)),
  );
  for (const w of tried) {
    if (w.error !== undefined || w.files === undefined)
      return {
        ok: false,
        reason: 'invalid_task_spec',
        node: 'verify_wrong_fails',
        detail: `wrong solution "${w.name}" cannot be applied: ${w.error}`,
      };
    const results = await probeAll(w.files, checks);
    wrongStates.push({ name: w.name, files: w.files, probes: results });
    const caught = results.flatMap((r, i) => (r.pass ? [] : [checks[i]!.kind]));
    verdicts.push({
      name: w.name,
      generic: w.generic,
      killed: caught.length > 0,
      failing: [...new Set(caught)],
    });
  }
  const rights: RightVerdict[] = [];
  const rightStates: { name: string; files: FileMap; probes: ProbeResult[] }[] = [];
  for (const r of await rightSolutions(initial, m.edits, m.right, m.genericRightOff)) {
    if (r.error !== undefined || r.files === undefined)
      return {
        ok: false,
        reason: 'invalid_task_spec',
        node: 'verify_right_passes',
        detail: `correct alternative "${r.name}" cannot be applied: ${r.error}`,
      };
    const results = await probeAll(r.files, checks);
    rightStates.push({ name: r.name, files: r.files, probes: results });
    const failing = results.flatMap((res, i) =>
      res.pass ? [] : [`${checks[i]!.kind}: ${JSON.stringify(res.observed).slice(0, 200)}`],
    );
    rights.push({ name: r.name, generic: r.generic, passed: failing.length === 0, failing });
  }
  const stats: RubricStats = {
    wrongTried: verdicts.length,
    wrongKilled: verdicts.filter((v) => v.killed).length,
    wrongDeclared: m.wrong.length,
    checks: checks.length,
    invariantChecks: checks.length - declared,
    expected: m.expected,
    wrong: verdicts,
    rightTried: rights.length,
    rightPassed: rights.filter((r) => r.passed).length,
    right: rights,
  };
  const rejected = rights.filter((r) => !r.passed);
  if (rejected.length > 0)
    return {
      ok: false,
      reason: 'rubric_rejects_right',
      node: 'verify_right_passes',
      detail: rejected
        .map((r) => `the rubric fails the correct alternative "${r.name}" (${r.failing.join('; ')})`)
        .join('; '),
      stats,
    };
  const survivors = verdicts.filter((v) => !v.killed);
  if (survivors.length > 0)
    return {
      ok: false,
      reason: 'rubric_accepts_wrong',
      node: 'verify_wrong_fails',
      detail: `the rubric passes the wrong solution${survivors.length > 1 ? 's' : ''} ${survivors.map((v) => `"${v.name}"`).join(', ')}`,
      stats,
    };
  return {
    ok: true,
    checks,
    items,
    before,
    after,
    stats,
    passed: ['verify_initial_fails', 'verify_solved_passes', 'verify_wrong_fails', 'verify_right_passes'],
    wrongStates,
    rightStates,
  };
}
