import { officeFormatOf, roundTripOfficeSettled } from '../preparers/office/index.ts';
import type { FileMap } from '../preparers/types.ts';
import { type MaterializedTask, materializeTask } from '../skills/run/materialize.ts';
import type { SkillSpec } from '../skills/schema.ts';
import type { Context } from '../skills/template.ts';
import { exportGate } from '../taskcore/verify/exportGate.ts';
import { comparisonsOffGold, unionOffGold } from '../taskcore/verify/offGold.ts';
import { correctAlternatives } from '../taskcore/verify/rubricProof.ts';
import type { ActivityDeps } from './deps.ts';
import { probeAll } from './prepare.ts';
import { recordNodeRuns, rejectTask } from './taskRecords.ts';
import {
  contentTypeOf,
  fetchFiles,
  loadContext,
  loadState,
  type StoredFile,
  saveState,
  type TaskState,
} from './taskState.ts';
import type { StepResult, TaskRef } from './types.ts';

/**
 * Verification step 4, on the office queue (hosts with LibreOffice): the initial and solved office
 * files are saved through the real LibreOffice (batched with other tasks' files into one soffice
 * call) and every check, with no exemption, must give the same verdict on the saved files as
 * before; the export gate then grades the saved states with the shipped Python checker too. A
 * check LibreOffice's own save cannot keep is a wrong check, not one to skip.
 */

/** Office files of both states saved through LibreOffice, and every verdict that changed because of it. */
export async function officeRoundTrip(
  files: { initial: FileMap; solved: FileMap },
  checks: { kind: string }[],
  verdicts: { initial: boolean[]; solved: boolean[] },
): Promise<{
  problems: string[];
  saved: { initial: FileMap; solved: FileMap };
  office: { role: 'initial' | 'solved'; path: string }[];
}> {
  const problems: string[] = [];
  const roles = ['initial', 'solved'] as const;
  // Both states in one request, so they share a LibreOffice batch with other tasks' files.
  const office = roles.flatMap((role) =>
    Object.keys(files[role])
      .filter((p) => officeFormatOf(p) !== undefined)
      .map((path) => ({ role, path })),
  );
  const outcomes = await roundTripOfficeSettled(
    office.map(({ role, path }) => ({
      name: `${role}:${path}`,
      bytes: files[role][path]!,
      format: officeFormatOf(path)!,
    })),
  );
  const saved = { initial: { ...files.initial }, solved: { ...files.solved } };
  outcomes.forEach((o, i) => {
    const { role, path } = office[i]!;
    if (o.ok) saved[role][path] = o.bytes;
    else problems.push(`LibreOffice could not save ${role} ${path}: ${o.error}`);
  });
  for (const role of problems.length === 0 ? roles : []) {
    const now = await probeAll(saved[role], checks);
    now.forEach((v, i) => {
      if (v.pass !== verdicts[role][i]) {
        problems.push(
          `${role} ${checks[i]!.kind} was ${verdicts[role][i] ? 'pass' : 'fail'} before LibreOffice and ${v.pass ? 'pass' : 'fail'} after: ${JSON.stringify(v.observed).slice(0, 300)}`,
        );
      }
    });
  }
  return { problems, saved, office };
}

/** A correct alternative as LibreOffice saved it, and its verdicts there. */
interface ResavedRight {
  name: string;
  files: FileMap;
  probes: Awaited<ReturnType<typeof probeAll>>;
}

/**
 * The task's correct alternatives in the agent's world: each one's office files that differ from
 * the oracle's are saved through LibreOffice too (one batch), the rest are the oracle's as
 * LibreOffice saved them, and every check must still pass. A right that passes on our bytes but
 * not once the application has saved it would be rejected in the VM.
 */
export async function rightsResaved(
  m: MaterializedTask,
  files: { initial: FileMap; solved: FileMap },
  savedSolved: FileMap,
  checks: { kind: string }[],
): Promise<{ problems: string[]; unsaved: string[]; states: ResavedRight[] }> {
  const rights = (await correctAlternatives(m, files)).filter((r) => r.files !== undefined);
  const changed = rights.map((r) =>
    Object.keys(r.files!).filter(
      (p) => officeFormatOf(p) !== undefined && !sameBytes(r.files![p]!, files.solved[p]),
    ),
  );
  const jobs = changed.flatMap((paths, k) => paths.map((path) => ({ k, path })));
  const outcomes = await roundTripOfficeSettled(
    jobs.map(({ k, path }) => ({
      name: `right ${k}:${path}`,
      bytes: rights[k]!.files![path]!,
      format: officeFormatOf(path)!,
    })),
  );
  const problems: string[] = [];
  const unsaved: string[] = [];
  const states: ResavedRight[] = [];
  for (const [k, r] of rights.entries()) {
    if (changed[k]!.length === 0) continue;
    const state: FileMap = { ...r.files! };
    for (const p of Object.keys(state))
      if (officeFormatOf(p) !== undefined && savedSolved[p]) state[p] = savedSolved[p]!;
    let saved = true;
    jobs.forEach((job, i) => {
      if (job.k !== k) return;
      const o = outcomes[i]!;
      if (o.ok) state[job.path] = o.bytes;
      else {
        saved = false;
        unsaved.push(`LibreOffice could not save ${job.path} of correct alternative "${r.name}": ${o.error}`);
      }
    });
    if (!saved) continue;
    const probes = await probeAll(state, checks);
    const failing = probes.flatMap((v, i) =>
      v.pass ? [] : [`${checks[i]!.kind}: ${JSON.stringify(v.observed).slice(0, 200)}`],
    );
    if (failing.length > 0)
      problems.push(`correct alternative "${r.name}" as LibreOffice saved it fails ${failing.join('; ')}`);
    else states.push({ name: r.name, files: state, probes });
  }
  return { problems, unsaved, states };
}

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  return b !== undefined && a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

/**
 * The export gate on the states LibreOffice saved: the shipped evaluator must fail the resaved
 * initial state and pass the resaved oracle and correct alternatives, as it does on our own files
 * (prepare stage).
 */
async function gateResaved(
  deps: ActivityDeps,
  task: { spec: SkillSpec; ctx: Context },
  state: TaskState,
  files: { initial: FileMap; solved: FileMap },
  saved: { initial: FileMap; solved: FileMap },
  checks: { kind: string }[],
  rights: ResavedRight[],
): Promise<string[]> {
  const { spec, ctx } = task;
  const archive = state.profileArchive ? await deps.store.getObject(state.profileArchive.key) : undefined;
  const bytes = new Map<string, Uint8Array>();
  for (const role of ['initial', 'solved'] as const)
    for (const [p, f] of Object.entries(state[role])) bytes.set(f.key, files[role][p]!);
  if (state.profileArchive && archive) bytes.set(state.profileArchive.key, archive);
  const [initialNow, solvedNow] = await Promise.all([
    probeAll(saved.initial, checks),
    probeAll(saved.solved, checks),
  ]);
  const gate = await exportGate({ spec, ctx, state, bytes }, [
    { name: 'initial as LibreOffice saved it', files: saved.initial, expect: 'fail', probes: initialNow },
    { name: 'oracle as LibreOffice saved it', files: saved.solved, expect: 'pass', probes: solvedNow },
    ...rights.map((r) => ({
      name: `correct alternative "${r.name}" as LibreOffice saved it`,
      files: r.files,
      expect: 'pass' as const,
      probes: r.probes,
    })),
  ]);
  return gate.ok ? [] : [gate.detail];
}

export function createOfficeActivities(deps: ActivityDeps) {
  async function officeVerify(task: TaskRef): Promise<StepResult> {
    const started = performance.now();
    const state = await loadState(deps.store, task.taskId);
    const [initial, solved] = await Promise.all([
      fetchFiles(deps.store, state.initial),
      fetchFiles(deps.store, state.solved),
    ]);
    const { problems, saved, office } = await officeRoundTrip(
      { initial, solved },
      state.checks,
      state.verdicts,
    );
    // The spec and context are read only when the round trip kept every verdict: the rights and
    // the gate on the saved states need them, a failed round trip does not.
    const loaded =
      problems.length === 0
        ? await Promise.all([
            deps.specs.get(task.skillId, task.specVersion),
            loadContext(deps.store, task.taskId),
          ])
        : undefined;
    const rights = loaded
      ? await rightsResaved(
          await materializeTask(loaded[0].spec, loaded[1]),
          { initial, solved },
          saved.solved,
          state.checks,
        )
      : { problems: [], unsaved: [], states: [] };
    // A file LibreOffice could not save is the round trip's failure, not the rubric's.
    problems.push(...rights.unsaved);
    if (rights.problems.length > 0)
      return rejectTask(deps.database, task, {
        reason: 'rubric_rejects_right',
        node: 'verify_office',
        detail: rights.problems.join('; '),
        kind: 'verify',
        durationMs: performance.now() - started,
      });
    const mismatch =
      loaded && problems.length === 0
        ? await gateResaved(
            deps,
            { spec: loaded[0].spec, ctx: loaded[1] },
            state,
            { initial, solved },
            saved,
            state.checks,
            rights.states,
          )
        : [];
    if (mismatch.length > 0) {
      const durationMs = performance.now() - started;
      return rejectTask(deps.database, task, {
        reason: 'export_mismatch',
        node: 'verify_export',
        detail: mismatch.join('; '),
        kind: 'verify',
        durationMs,
      });
    }
    const durationMs = performance.now() - started;
    if (problems.length > 0) {
      const detail = problems.join('; ');
      return rejectTask(deps.database, task, {
        reason: 'office_roundtrip',
        node: 'verify_office',
        detail,
        kind: 'verify',
        durationMs,
      });
    }
    // Writer and Impress gold files are compared run by run (OSWorld's compare_pptx_files, line
    // spacing), so they must be what LibreOffice writes; Calc's gold stays ours, the
    // workbook the exported compare_table rules were written against.
    const solvedByOffice: Record<string, StoredFile> = {};
    const gold: FileMap = { ...solved };
    for (const { role, path } of office) {
      if (role !== 'solved' || officeFormatOf(path) === 'xlsx') continue;
      const stored = await deps.store.putArtifact(saved.solved[path]!, contentTypeOf(path));
      solvedByOffice[path] = { ...stored, app: state.solved[path]!.app };
      gold[path] = saved.solved[path]!;
    }
    // The rights as LibreOffice saved them, against the gold the export ships.
    const offGold = unionOffGold(
      state.offGold ?? [],
      await comparisonsOffGold(state.checks, gold, rights.states),
    );
    await saveState(deps.store, task.taskId, {
      ...state,
      solvedByOffice,
      ...(offGold.length > 0 ? { offGold } : {}),
    });
    await recordNodeRuns(deps.database, task.taskId, [
      { nodeId: 'verify_office', kind: 'verify', status: 'ok', durationMs },
    ]);
    return { ok: true };
  }

  return { officeVerify };
}
