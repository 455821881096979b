import { eq } from 'drizzle-orm';
import { rounds, tasks } from '../infra/db/schema.ts';
import { OS_MANIFEST_PATH, osManifestOf } from '../preparers/home/manifest.ts';
import { officeFormatOf } from '../preparers/office/formats.ts';
import { appOfPath, archivedProfileOf, probeCheck, profileArchivePath } from '../preparers/registry.ts';
import type { FileMap } from '../preparers/types.ts';
import { depthOf, isDiscovery } from '../skills/depth.ts';
import type { Context } from '../skills/template.ts';
import { dedupSignature, packageFor } from '../taskcore/packageTask.ts';
import { prepareInMemory } from '../taskcore/prepareCore.ts';
import { isNearDuplicate } from '../taskcore/verify/dedup.ts';
import { profileArchiveOf } from '../taskcore/verify/exportGate.ts';
import type { ActivityDeps } from './deps.ts';
import { acceptTask, type PreparedFields, readForPackaging } from './packageStatements.ts';
import { type NodeRun, recordNodeRuns, rejectTask } from './taskRecords.ts';
import {
  contentTypeOf,
  fetchFiles,
  loadContext,
  loadState,
  saveState,
  storeStates,
  type TaskState,
} from './taskState.ts';
import type { PrepareResult, StepResult, TaskRef } from './types.ts';

export type { RubricStats } from '../taskcore/verify/rubricProof.ts';

export async function probeAll(
  files: FileMap,
  checks: { kind: string }[],
): Promise<{ pass: boolean; observed: unknown }[]> {
  return Promise.all(checks.map((c) => probeCheck(files, c)));
}

/**
 * The prepare and package stages, as functions other activities compose (segments.ts runs a whole
 * task in one activity with them).
 */
export function createPrepareStages(deps: ActivityDeps) {
  const { db } = deps.database;

  const reject = (
    task: TaskRef,
    reason: string,
    node: string,
    detail: string,
    runs: NodeRun[],
    fields: TaskFields = {},
  ): Promise<StepResult> =>
    rejectTask(deps.database, task, { reason, node, detail, kind: 'verify' }, runs, fields);

  /**
   * Builds the initial files, applies the oracle edits, then verifies: references exist (1), the
   * untouched state fails the rubric (2), the solved state passes all of it (3). Both states are
   * stored content-addressed; what the task row and the later stages need is returned, not yet
   * written. A rejection is recorded at once, with the `earlier` stage's node runs.
   */
  async function prepareState(task: TaskRef, ctx: Context, earlier: NodeRun[] = []): Promise<Prepared> {
    const { spec, source } = await deps.specs.get(task.skillId, task.specVersion);
    const p = await prepareInMemory(spec, source, ctx);
    if (!p.ok)
      return {
        ok: false,
        result: await reject(task, p.reason, p.node, p.detail, [...earlier, ...p.runs], {
          ...(p.stats ? { rubricStats: p.stats } : {}),
        }),
      };
    const { m, level, initial, solved, appOf, before, after, runs } = p;
    const lapStart = performance.now();
    const appFor = (path: string) => appOf.get(path) ?? appOfPath(path);
    // Packed by the task core for the export gate, stored here rather than fetched back file by file
    // at packaging.
    const archive = profileArchiveOf(p.draft);
    const profileArchive = archive
      ? {
          ...(await deps.store.putArtifact(archive.bytes, contentTypeOf(profileArchivePath(archive.app)))),
          app: archive.app,
        }
      : undefined;
    const office = [...Object.keys(initial), ...Object.keys(solved)].some(
      (p) => officeFormatOf(p) !== undefined,
    );
    // Only what a later stage reads back is written: a package refers to neither the OS manifest
    // (kept in the state) nor the initial profile's files (the archive); the office queue reads all.
    const readBack = (role: 'initial' | 'solved', path: string) =>
      office || (path !== OS_MANIFEST_PATH && !(role === 'initial' && archivedProfileOf(path)));
    const state: TaskState = {
      ...p.fields,
      // Unchanged files have the same content key in both states: the store writes each key once.
      ...(await storeStates(deps.store, { initial, solved }, appFor, readBack)),
      verdicts: { initial: before.map((r) => r.pass), solved: after.map((r) => r.pass) },
      profileArchive,
      osManifest: osManifestOf(pick(initial, OS_MANIFEST_PATH)),
    };
    runs.push({
      nodeId: 'store_artifacts',
      kind: 'prepare',
      status: 'ok',
      durationMs: performance.now() - lapStart,
    });
    return {
      ok: true,
      state,
      fields: {
        apps: spec.apps,
        instruction: m.instruction,
        instructionLevel: level ?? null,
        difficulty: spec.difficulty,
        depth: depthOf(spec),
        discovery: isDiscovery(spec, level),
        rubricItems: p.items.length,
        params: ctx.params as Record<string, unknown>,
        rubricStats: p.stats,
      },
      runs: [...earlier, ...runs],
      office,
    };
  }

  /** The prepare stage as its own activity: the context from the author stage, the state for the next. */
  async function prepareTask(task: TaskRef): Promise<PrepareResult> {
    const ctx = await loadContext(deps.store, task.taskId);
    const p = await prepareState(task, ctx);
    if (!p.ok) return p.result;
    await saveState(deps.store, task.taskId, p.state);
    await db.update(tasks).set(p.fields).where(eq(tasks.id, task.taskId));
    await recordNodeRuns(deps.database, task.taskId, p.runs);
    return { ok: true, office: p.office };
  }

  // A round's taxonomy version and creation time never change: read once per process and round.
  const roundRows = new Map<string, Promise<typeof rounds.$inferSelect | undefined>>();
  const roundOf = (roundId: string) => {
    let row = roundRows.get(roundId);
    if (!row) {
      row = db
        .select()
        .from(rounds)
        .where(eq(rounds.id, roundId))
        .then((r) => r[0]);
      row.catch(() => roundRows.delete(roundId));
      if (roundRows.size > 1000) roundRows.clear();
      roundRows.set(roundId, row);
    }
    return row;
  };

  /**
   * Dedup (6), then the package: task.json + setup.sh in the object store, indexed in Postgres.
   * `earlier`: node runs of the stages that ran before in the same activity, written in the
   * accepting (or rejecting) transaction rather than in their own. `held`: the task's context and
   * state when that activity still has them, and the task row's fields it has not written yet.
   */
  async function packageTask(task: TaskRef, earlier: NodeRun[] = [], held?: Held): Promise<StepResult> {
    const started = performance.now();
    const { spec, sha256: specSha } = await deps.specs.get(task.skillId, task.specVersion);
    const [state, ctx] = held
      ? [held.state, held.ctx]
      : await Promise.all([loadState(deps.store, task.taskId), loadContext(deps.store, task.taskId)]);
    const signature = dedupSignature(spec, state.instruction, ctx);
    // The task's spend and the accepted tasks it could duplicate, in one read: a near-duplicate has
    // the same parameter signature, so only those are read (an index), not the skill's every task.
    const read = await readForPackaging(deps.database, task, signature.paramSignature);
    const dup = read.others.find((o) =>
      isNearDuplicate(
        signature,
        { ...o, paramSignature: signature.paramSignature },
        deps.config.FORGE_DEDUP_THRESHOLD,
      ),
    );
    if (dup)
      return reject(
        task,
        'near_duplicate',
        'verify_dedup',
        `near-duplicate of accepted task ${dup.taskId}`,
        earlier,
        held?.fields,
      );

    const [manifest, round] = await Promise.all([
      state.osManifest ??
        fetchFiles(deps.store, pick(state.initial, OS_MANIFEST_PATH)).then((f) => osManifestOf(f)),
      roundOf(task.roundId),
    ]);
    const { built, artifacts } = packageFor({
      task,
      version: task.specVersion,
      spec,
      state,
      ctx,
      manifest,
      provenance: {
        roundId: task.roundId,
        taxonomyVersion: round?.taxonomyVersion ?? null,
        specSha,
        models: read.models,
        costUsd: read.usd,
        tokens: read.tokens,
        createdAt: (round?.createdAt ?? new Date()).toISOString(),
      },
    });
    const prefix = `packages/${task.roundId}/${task.taskId}`;
    const packageKey = `${prefix}/task.json`;
    const setupKey = `${prefix}/setup.sh`;
    await Promise.all([
      deps.store.putObject(packageKey, built.taskJsonText, 'application/json'),
      deps.store.putObject(setupKey, built.setupSh, 'text/x-shellscript'),
    ]);
    const runsOf = (status: 'ok' | 'failed'): NodeRun[] => [
      ...earlier,
      { nodeId: 'verify_dedup', kind: 'verify', status: 'ok', durationMs: 0 },
      {
        nodeId: 'package',
        kind: 'package',
        status,
        durationMs: performance.now() - started,
        outputKey: packageKey,
      },
    ];
    // Accepting the task and indexing its package, artifacts and signature: one statement, so
    // together or not at all.
    const accepted = await acceptTask(deps.database, {
      taskId: task.taskId,
      packageKey,
      setupKey,
      packageSha256: built.sha256,
      costUsd: read.usd,
      tokens: read.tokens,
      ...(held ? { fields: held.fields } : {}),
      artifacts,
      signature,
      runs: runsOf('ok'),
    });
    if (!accepted) await recordNodeRuns(deps.database, task.taskId, runsOf('failed'));
    return accepted
      ? { ok: true }
      : { ok: false, reason: 'cancelled', node: 'package', detail: 'the task was no longer running' };
  }

  return { prepareTask, packageTask, prepareState };
}

/** Activities on the prepare queue (CPU bound): build, oracle, checks 1–3, dedup and packaging. */
export function createPrepareActivities(deps: ActivityDeps) {
  const stages = createPrepareStages(deps);
  return {
    prepareTask: (task: TaskRef) => stages.prepareTask(task),
    packageTask: (task: TaskRef) => stages.packageTask(task),
  };
}

/** Columns of the task row a stage fills in (instruction, level, params, rubric proof, …). */
export type TaskFields = Partial<typeof tasks.$inferInsert>;

/** What a stage still holds in memory for the next stage of the same activity. */
export interface Held {
  ctx: Context;
  state: TaskState;
  fields: PreparedFields;
}

export type Prepared =
  | { ok: true; state: TaskState; fields: PreparedFields; runs: NodeRun[]; office: boolean }
  | { ok: false; result: StepResult };

/** Initial files (the Thunderbird profile as its one archive) and solved files, for gold comparisons. */
function pick<T>(record: Record<string, T>, key: string): Record<string, T> {
  return key in record ? { [key]: record[key]! } : {};
}
