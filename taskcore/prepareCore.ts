import { mergeOsManifests, OS_MANIFEST_PATH } from '../preparers/home/manifest.ts';
import { assertSafeRelativePath } from '../preparers/paths.ts';
import { applyEdits, appOfPath, PreparerInputError, preparers } from '../preparers/registry.ts';
import { withSandboxScope } from '../preparers/sandbox/workerPool.ts';
import { untrustedPathProblems, untrustedPrepareProblems } from '../preparers/sensitivePaths.ts';
import type { AppId, FileMap, ProbeResult } from '../preparers/types.ts';
import { type MaterializedTask, materializeTask } from '../skills/run/materialize.ts';
import { nodeQualifiedId, type SkillSpec } from '../skills/schema.ts';
import { type Context, TemplateError } from '../skills/template.ts';
import type { NodeRun } from './nodeRun.ts';
import { coherenceProblems } from './verify/coherence.ts';
import { discoveryProblem } from './verify/discovery.ts';
import { draftTask, exportGate, type GateTask, type GateTaskFields } from './verify/exportGate.ts';
import { instructionProblems } from './verify/instruction.ts';
import { comparisonsOffGold } from './verify/offGold.ts';
import { referenceProblems } from './verify/references.ts';
import { proveRubric, type RubricStats } from './verify/rubricProof.ts';

export type PreparedTask =
  | {
      ok: true;
      m: MaterializedTask;
      level: string | undefined;
      initial: FileMap;
      solved: FileMap;
      appOf: Map<string, AppId>;
      checks: { kind: string; file?: string }[];
      items: { text: string; weight: number; checks: number[] }[];
      before: ProbeResult[];
      after: ProbeResult[];
      stats: RubricStats;
      runs: NodeRun[];
      /** The task state's own fields (what is not files or verdicts), as the prepare stage stores them. */
      fields: GateTaskFields;
      /**
       * The task as the export gate graded it: its state with every file described by content key,
       * the packed profile among the bytes (stored from here, never packed twice).
       */
      draft: GateTask;
    }
  | { ok: false; reason: string; node: string; detail: string; runs: NodeRun[]; stats?: RubricStats };

/**
 * The prepare stage's work, in memory and free of records: materialize, instruction rules, build
 * the initial files, apply the oracle, references, and the rubric proof (states, wrong solutions,
 * invariants). The prepare activity persists what this returns; the in-process floor benchmark
 * (bench/floor.ts) runs the same function, so both measure the same work.
 */
export function prepareInMemory(spec: SkillSpec, source: string, ctx: Context): Promise<PreparedTask> {
  // One task's untrusted regexes share the sandbox pool fairly with other tasks' (workerPool.ts).
  return withSandboxScope(() => prepareTask(spec, source, ctx));
}

async function prepareTask(spec: SkillSpec, source: string, ctx: Context): Promise<PreparedTask> {
  const runs: NodeRun[] = [];
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - t;
    t = now;
    return ms;
  };
  const reject = (reason: string, node: string, detail: string, stats?: RubricStats): PreparedTask => ({
    ok: false,
    reason,
    node,
    detail,
    runs,
    ...(stats ? { stats } : {}),
  });
  let m: MaterializedTask;
  try {
    m = await materializeTask(spec, ctx);
    for (const p of m.prepares) {
      // A profile app's target is the profile's name, which its own build validates.
      if (!preparers[p.app].profile?.targetIsName)
        assertSafeRelativePath(p.target, `prepare ${p.nodeId} target`);
    }
  } catch (err) {
    if (err instanceof PreparerInputError || err instanceof TemplateError || err instanceof Error) {
      return reject('invalid_task_spec', 'materialize', err.message);
    }
    throw err;
  }
  if (source !== 'file') {
    // Paths computed by templates, checked before anything is built; the built bytes are checked below.
    const unsafe = untrustedPrepareProblems(m.prepares);
    if (unsafe.length > 0) return reject('unsafe_spec', 'materialize', unsafe.join('; '));
  }
  const level = (ctx.task as { level?: string } | undefined)?.level;
  const wording = instructionProblems({
    instruction: m.instruction,
    level,
    checks: m.checks as Record<string, unknown>[],
    prepares: m.prepares,
  });
  if (wording.length > 0) {
    return reject(
      'instruction_invalid',
      'verify_instruction',
      wording.map((p) => `${p.rule}: ${p.detail}`).join('; '),
    );
  }
  // At a level where the skill promises discovery, the instruction may describe its target, not name it.
  const hidden = spec.discovery.some((l) => l === level)
    ? discoveryProblem({
        instruction: m.instruction,
        level,
        checks: m.checks as Record<string, unknown>[],
        prepares: m.prepares,
      })
    : undefined;
  if (hidden) return reject('instruction_invalid', 'verify_instruction', `discovery: ${hidden}`);
  runs.push({ nodeId: 'verify_instruction', kind: 'verify', status: 'ok', durationMs: lap() });
  // Before anything is built: a task whose files contradict each other is not worth proving.
  const incoherent = coherenceProblems({
    instruction: m.instruction,
    docs: m.prepares.map((p) => p.doc),
    changes: [m.edits, m.checks],
  });
  if (incoherent.length > 0)
    return reject('content_incoherent', 'verify_coherence', incoherent.slice(0, 5).join('; '));
  runs.push({ nodeId: 'verify_coherence', kind: 'verify', status: 'ok', durationMs: lap() });
  const initial: FileMap = {};
  const appOf = new Map<string, AppId>();
  for (const p of m.prepares) {
    const built = await preparers[p.app].build(p.target, p.doc);
    for (const [path, bytes] of Object.entries(built)) {
      if (path in initial && path !== OS_MANIFEST_PATH) {
        return reject('invalid_task_spec', p.nodeId, `two prepare nodes write ${path}`);
      }
      if (path === OS_MANIFEST_PATH && initial[path]) {
        try {
          initial[path] = mergeOsManifests(initial[path], bytes);
        } catch (err) {
          return reject('invalid_task_spec', p.nodeId, (err as Error).message);
        }
        continue;
      }
      initial[path] = bytes;
      appOf.set(path, p.app);
    }
    runs.push({ nodeId: p.nodeId, kind: 'prepare', status: 'ok', durationMs: lap() });
  }
  if (source !== 'file') {
    const unsafe = untrustedPathProblems(initial);
    if (unsafe.length > 0) return reject('unsafe_spec', 'materialize', unsafe.join('; '));
  }
  const solveNode = spec.nodes.flatMap((n) => ('solve' in n ? [nodeQualifiedId(n)] : [])).join('+');
  let solved: FileMap;
  try {
    solved = await applyEdits(initial, m.edits);
  } catch (err) {
    return reject('oracle_failed', solveNode, (err as Error).message);
  }
  runs.push({ nodeId: solveNode, kind: 'solve', status: 'ok', durationMs: lap() });

  // A declining task names what is not there on purpose: only its checks' files must exist.
  const refs = referenceProblems(m.expected === 'infeasible' ? '' : m.instruction, m.checks, initial, solved);
  if (refs.length > 0) return reject('missing_reference', 'verify_references', refs.join('; '));
  runs.push({ nodeId: 'verify_references', kind: 'verify', status: 'ok', durationMs: lap() });

  const proof = await proveRubric(m, initial, solved, appOf);
  if (!proof.ok) return reject(proof.reason, proof.node, proof.detail, proof.stats);
  for (const nodeId of proof.passed) runs.push({ nodeId, kind: 'verify', status: 'ok', durationMs: 0 });
  runs[runs.length - 1]!.durationMs = lap();
  const { checks, items, before, after, stats } = proof;

  // The task as it will ship, graded as the harness grades it (taskcore/verify/exportGate.ts).
  // OSWorld's comparisons with the oracle's file that a correct alternative would fail are left to the checker.
  const offGold = await comparisonsOffGold(checks, solved, proof.rightStates);
  const fields: GateTaskFields = {
    instruction: m.instruction,
    items,
    checks,
    expected: m.expected,
    edits: m.edits,
    prepares: m.prepares.map((p) => ({ app: p.app, target: p.target, open: p.open })),
    ...(offGold.length > 0 ? { offGold } : {}),
  };
  const draft = await draftTask({
    spec,
    ctx,
    fields,
    initial,
    solved,
    appOf: (path) => appOf.get(path) ?? appOfPath(path),
    verdicts: { initial: before.map((r) => r.pass), solved: after.map((r) => r.pass) },
  });
  const gate = await exportGate(draft, [
    { name: 'initial', files: initial, expect: 'fail', probes: before, played: true },
    { name: 'oracle', files: solved, expect: 'pass', probes: after },
    ...proof.wrongStates.map((w) => ({
      name: `wrong solution "${w.name}"`,
      files: w.files,
      expect: 'fail' as const,
      probes: w.probes,
    })),
    // Mutants the probes kill must be killed as shipped (a survivor is rejected by the proof itself).
    ...proof.mutantStates
      .filter((w) => w.probes.some((p) => !p.pass))
      .map((w) => ({ ...w, expect: 'fail' as const })),
    // The shipped checker must pass every correct alternative too, not only our probes.
    ...proof.rightStates.map((r) => ({
      name: `correct alternative "${r.name}"`,
      files: r.files,
      expect: 'pass' as const,
      probes: r.probes,
    })),
  ]);
  if (!gate.ok) return reject('export_mismatch', 'verify_export', gate.detail, stats);
  stats.exportStates = gate.states;
  runs.push({ nodeId: 'verify_export', kind: 'verify', status: 'ok', durationMs: lap() });
  return {
    ok: true,
    m,
    level,
    initial,
    solved,
    appOf,
    checks,
    items,
    before,
    after,
    stats,
    runs,
    fields,
    draft,
  };
}
