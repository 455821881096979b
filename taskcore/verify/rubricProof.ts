import { OS_MANIFEST_PATH } from '../../preparers/home/manifest.ts';
import { HOME_APP, preparers, probeCheck } from '../../preparers/registry.ts';
import type { AppId, FileMap, ProbeResult } from '../../preparers/types.ts';
import type { MaterializedTask } from '../../skills/run/materialize.ts';
import { attackRubric, deriveMutants, type MutantReport, sameFiles } from './mutants.ts';
import { type RightSolution, type RightVerdict, rightSolutions } from './rightSolutions.ts';
import { type WrongVerdict, wrongSolutions } from './wrongSolutions.ts';

/** What verification proved about a task's rubric (tasks.rubric_stats). */
export interface RubricStats {
  wrongTried: number;
  /** Wrong solutions failed by the rubric, not counting those that leave the untouched state. */
  wrongKilled: number;
  /** Wrong solutions that leave the untouched state (no-op, save-unchanged): failed, but no kill. */
  wrongSameAsInitial?: number;
  /** Kills by a check the untouched state passes, and kills only by checks it fails too. */
  wrongDiscriminating?: number;
  wrongUndone?: number;
  wrongDeclared: number;
  checks: number;
  invariantChecks: number;
  expected: 'feasible' | 'infeasible';
  wrong: WrongVerdict[];
  /** Correct alternatives tried (declared + generic) and how many passed; absent on rows before them. */
  rightTried?: number;
  rightPassed?: number;
  /** Alternatives that leave the oracle's own files (another order of the same steps): no new state proved. */
  rightSameAsOracle?: number;
  right?: RightVerdict[];
  /** The mutation adversary's findings (absent on rows before it). */
  mutants?: MutantReport;
  /** States the export gate graded in the task's shipped form (set when it passed them all). */
  exportStates?: number;
}

/** An end state and what every check says of it. */
export type ProbedState = { name: string; files: FileMap; probes: ProbeResult[] };

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
      wrongStates: ProbedState[];
      /** Every correct alternative tried, with its files and the probes' verdicts (all passing). */
      rightStates: ProbedState[];
      /** Every mutant tried, with its files and the probes' verdicts (all failing). */
      mutantStates: ProbedState[];
    }
  | { ok: false; reason: string; node: string; detail: string; stats?: RubricStats };

function probeAll(files: FileMap, checks: { kind: string }[]): Promise<ProbeResult[]> {
  return Promise.all(checks.map((c) => probeCheck(files, c)));
}

/**
 * The "nothing else changed" checks each app derives for its own files (`owner`: path → app). The
 * home's invariant joins every task: a file left in one of its folders (an export made twice, a
 * snapshot on the Desktop) is collateral whichever app made it.
 */
export async function deriveInvariants(
  apps: AppId[],
  initial: FileMap,
  solved: FileMap,
  owner: Map<string, AppId>,
): Promise<{ kind: string }[]> {
  const out: { kind: string }[] = [];
  for (const app of new Set<AppId>([...apps, HOME_APP])) {
    const own = Object.keys(initial).filter((p) => owner.get(p) === app && p !== OS_MANIFEST_PATH);
    out.push(...((await preparers[app].invariants(initial, solved, own)) as { kind: string }[]));
  }
  return out;
}

/**
 * A rubric is proved twice: the untouched state fails it and the oracle's state passes it; and
 * every wrong solution (the skill's own and the generic ones) fails it, and every correct
 * alternative (the skill's `right:` and the preparers' generic ones) passes it. Before that, each app
 * adds its "nothing else changed" checks for its own files (`owner`: path → app), unless the
 * skill turns them off with a reason.
 */
/**
 * The task's correct alternatives: its declared rights, the variants of the fields it declares
 * free (`freeRights`, from the oracle's near misses) and each app's generic ones.
 */
export async function correctAlternatives(
  m: MaterializedTask,
  files: { initial: FileMap; solved: FileMap },
  freeRights?: { name: string; edits: { op: string }[] }[],
): Promise<RightSolution[]> {
  const free = freeRights ?? (await deriveMutants(m.edits, files.initial, m.free)).freeRights;
  return rightSolutions(files.initial, files.solved, m.edits, [...m.right, ...free], m.genericRightOff);
}

export async function proveRubric(
  m: MaterializedTask,
  initial: FileMap,
  solved: FileMap,
  owner: Map<string, AppId>,
): Promise<RubricProof> {
  const declared = m.checks.length;
  const checks: { kind: string; file?: string }[] = [...m.checks];
  if (m.invariantsOff === undefined) {
    try {
      checks.push(
        ...(await deriveInvariants(
          m.prepares.map((p) => p.app),
          initial,
          solved,
          owner,
        )),
      );
    } catch (err) {
      return {
        ok: false,
        reason: 'oracle_failed',
        node: 'verify_invariants',
        detail: (err as Error).message,
      };
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

  const tried = (await wrongSolutions(initial, m.edits, m.wrong, m.prepares)).filter(
    (w) => !(w.generic && m.genericOk.includes(w.name)),
  );
  const wrong = await probeAlternatives(tried, checks, 'wrong solution', 'verify_wrong_fails');
  if (!wrong.ok) return wrong;
  const wrongStates = wrong.states;
  const verdicts: WrongVerdict[] = wrongStates.map((w, k) => {
    const caught = w.probes.flatMap((r, i) => (r.pass ? [] : [i]));
    return {
      name: w.name,
      generic: tried[k]!.generic,
      killed: caught.length > 0,
      failing: [...new Set(caught.map((i) => checks[i]!.kind))],
      sameAsInitial: tried[k]!.sameAsInitial === true || sameFiles(w.files, initial),
      discriminating: caught.some((i) => before[i]!.pass),
    };
  });
  // The oracle's near misses; the variants of fields the spec declares free are correct alternatives.
  const nearMisses = await deriveMutants(m.edits, initial, m.free);
  const alternatives = await correctAlternatives(m, { initial, solved }, nearMisses.freeRights);
  const right = await probeAlternatives(alternatives, checks, 'correct alternative', 'verify_right_passes');
  if (!right.ok) return right;
  const rightStates = right.states;
  const rights: RightVerdict[] = rightStates.map((r, k) => {
    const failing = r.probes.flatMap((res, i) =>
      res.pass ? [] : [`${checks[i]!.kind}: ${JSON.stringify(res.observed).slice(0, 200)}`],
    );
    return {
      name: r.name,
      generic: alternatives[k]!.generic,
      passed: failing.length === 0,
      failing,
      sameAsOracle: sameFiles(r.files, solved),
    };
  });
  const attack = await attackRubric({
    edits: m.edits,
    initial,
    solved,
    checks,
    before,
    mutants: nearMisses.mutants,
  });
  const changed = verdicts.filter((v) => !v.sameAsInitial);
  const stats: RubricStats = {
    wrongTried: verdicts.length,
    wrongKilled: changed.filter((v) => v.killed).length,
    wrongSameAsInitial: verdicts.length - changed.length,
    wrongDiscriminating: changed.filter((v) => v.killed && v.discriminating).length,
    wrongUndone: changed.filter((v) => v.killed && !v.discriminating).length,
    wrongDeclared: m.wrong.length,
    checks: checks.length,
    invariantChecks: checks.length - declared,
    expected: m.expected,
    wrong: verdicts,
    rightTried: rights.length,
    rightPassed: rights.filter((r) => r.passed).length,
    rightSameAsOracle: rights.filter((r) => r.sameAsOracle).length,
    right: rights,
    mutants: attack.report,
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
  if (attack.report.survivors.length > 0)
    return {
      ok: false,
      reason: 'rubric_accepts_mutant',
      node: 'verify_mutants_fail',
      detail: `the rubric passes the near miss${attack.report.survivors.length > 1 ? 'es' : ''} ${attack.report.survivors.map((n) => `"${n}"`).join(', ')}`,
      stats,
    };
  return {
    ok: true,
    checks,
    items,
    before,
    after,
    stats,
    passed: [
      'verify_initial_fails',
      'verify_solved_passes',
      'verify_wrong_fails',
      'verify_right_passes',
      'verify_mutants_fail',
    ],
    wrongStates,
    rightStates,
    mutantStates: attack.states,
  };
}

/**
 * Every alternative end state (wrong or correct) probed with every check; the first that could not be
 * built (a spec error) rejects the task instead.
 */
async function probeAlternatives(
  alternatives: { name: string; files?: FileMap; error?: string }[],
  checks: { kind: string }[],
  what: string,
  node: string,
): Promise<
  { ok: true; states: ProbedState[] } | { ok: false; reason: string; node: string; detail: string }
> {
  const broken = alternatives.find((a) => a.error !== undefined || a.files === undefined);
  if (broken)
    return {
      ok: false,
      reason: 'invalid_task_spec',
      node,
      detail: `${what} "${broken.name}" cannot be applied: ${broken.error}`,
    };
  const states: ProbedState[] = [];
  for (const a of alternatives)
    states.push({ name: a.name, files: a.files!, probes: await probeAll(a.files!, checks) });
  return { ok: true, states };
}
