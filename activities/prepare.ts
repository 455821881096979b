import { and, eq, or, sql } from 'drizzle-orm';
import { taskSpend } from '../infra/db/queries/spend.ts';
import { packages, rounds, taskArtifacts, taskSignatures, tasks } from '../infra/db/schema.ts';
import { officeFormatOf } from '../preparers/office/formats.ts';
import { OS_MANIFEST_PATH, osManifestOf } from '../preparers/os/manifest.ts';
import { probeCheck } from '../preparers/registry.ts';
import { packProfile } from '../preparers/thunderbird/index.ts';
import type { FileMap } from '../preparers/types.ts';
import { nodeOutput, nodeQualifiedId } from '../skills/schema.ts';
import { buildTaskPackage, type TaskArtifact } from '../taskpack/taskPackage.ts';
import type { ActivityDeps } from './deps.ts';
import { prepareInMemory } from './prepareCore.ts';
import { isProfilePath, PROFILE_ARCHIVE_PATH, setupStepsFor } from './setupSteps.ts';
import { type NodeRun, recordNodeRuns, rejectTask, upsertNodeRuns } from './taskRecords.ts';
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
import { isNearDuplicate, minhash, paramSignature } from './verify/dedup.ts';
import { appOfPath } from './verify/references.ts';

export type { RubricStats } from './verify/rubricProof.ts';

export async function probeAll(
  files: FileMap,
  checks: { kind: string }[],
): Promise<{ pass: boolean; observed: unknown }[]> {
  return Promise.all(checks.map((c) => probeCheck(files, c)));
}

/** Activities on the prepare queue (CPU bound): build, oracle, checks 1–3, dedup and packaging. */
export function createPrepareActivities(deps: ActivityDeps) {
  const { db } = deps.database;

  const reject = (
    task: TaskRef,
    reason: string,
    node: string,
    detail: string,
    runs: NodeRun[],
  ): Promise<StepResult> => rejectTask(deps.database, task, { reason, node, detail, kind: 'verify' }, runs);

  /**
   * Builds the initial files, applies the oracle edits, then verifies: references exist (1), the
   * untouched state fails the rubric (2), the solved state passes all of it (3). Both states are
   * stored content-addressed; the task state JSON points at them.
   */
  async function prepareTask(task: TaskRef): Promise<PrepareResult> {
    const { spec, source } = await deps.specs.get(task.skillId, task.specVersion);
    const ctx = await loadContext(deps.store, task.taskId);
    const p = await prepareInMemory(spec, source, ctx);
    if (!p.ok) {
      if (p.stats) await db.update(tasks).set({ rubricStats: p.stats }).where(eq(tasks.id, task.taskId));
      return reject(task, p.reason, p.node, p.detail, p.runs);
    }
    const { m, level, initial, solved, appOf, checks, items, before, after, runs } = p;
    const lapStart = performance.now();
    const appFor = (path: string) => appOf.get(path) ?? appOfPath(path);
    // Packed here, while the profile is in memory, rather than fetched back file by file at packaging.
    const profile = Object.fromEntries(Object.entries(initial).filter(([p]) => isProfilePath(p)));
    const profileArchive =
      Object.keys(profile).length > 0
        ? {
            ...(await deps.store.putArtifact(
              await packProfile(profile),
              contentTypeOf(PROFILE_ARCHIVE_PATH),
            )),
            app: 'thunderbird' as const,
          }
        : undefined;
    const state: TaskState = {
      instruction: m.instruction,
      items,
      checks,
      expected: m.expected,
      edits: m.edits,
      prepares: m.prepares.map((p) => ({ app: p.app, target: p.target, open: p.open })),
      // Unchanged files have the same content key in both states: the store writes each key once.
      ...(await storeStates(deps.store, { initial, solved }, appFor)),
      verdicts: { initial: before.map((r) => r.pass), solved: after.map((r) => r.pass) },
      profileArchive,
      osManifest: osManifestOf(pick(initial, OS_MANIFEST_PATH)),
    };
    await saveState(deps.store, task.taskId, state);
    await db
      .update(tasks)
      .set({
        apps: spec.apps,
        instruction: m.instruction,
        instructionLevel: level ?? null,
        difficulty: spec.difficulty,
        params: ctx.params as Record<string, unknown>,
        rubricStats: p.stats,
      })
      .where(eq(tasks.id, task.taskId));
    runs.push({
      nodeId: 'store_artifacts',
      kind: 'prepare',
      status: 'ok',
      durationMs: performance.now() - lapStart,
    });
    await recordNodeRuns(deps.database, task.taskId, runs);
    const office = [...Object.keys(initial), ...Object.keys(solved)].some(
      (p) => officeFormatOf(p) !== undefined,
    );
    return { ok: true, office };
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

  /** Dedup (6), then the package: task.json + setup.sh in the object store, indexed in Postgres. */
  /**
   * `earlier`: node runs of the stage that ran just before in the same activity (the judge), written
   * in the accepting transaction rather than in one of their own.
   */
  async function packageTask(task: TaskRef, earlier: NodeRun[] = []): Promise<StepResult> {
    const started = performance.now();
    const { spec, sha256: specSha } = await deps.specs.get(task.skillId, task.specVersion);
    const [state, ctx] = await Promise.all([
      loadState(deps.store, task.taskId),
      loadContext(deps.store, task.taskId),
    ]);
    // A composite's steps draw their own params: they belong to the signature like the task's.
    const authored = Object.fromEntries(
      spec.nodes.flatMap((n) =>
        'llm' in n
          ? [[nodeQualifiedId(n), nodeOutput(ctx, n)]]
          : 'step' in n
            ? [[`${n.id}.params`, (ctx[n.id] as { params?: unknown } | undefined)?.params]]
            : [],
      ),
    );
    const signature = {
      minhash: minhash(state.instruction),
      paramSignature: paramSignature({ params: ctx.params, authored }),
    };
    // Accepted tasks of real rounds, and of this round; a dry run's tasks never block later rounds.
    const others = await db
      .select({
        taskId: taskSignatures.taskId,
        minhash: taskSignatures.minhash,
        paramSignature: taskSignatures.paramSignature,
      })
      .from(taskSignatures)
      .innerJoin(tasks, eq(tasks.id, taskSignatures.taskId))
      .innerJoin(rounds, eq(rounds.id, tasks.roundId))
      .where(
        and(
          eq(taskSignatures.skillId, task.skillId),
          or(eq(rounds.kind, 'generation'), eq(rounds.id, task.roundId)),
        ),
      );
    const dup = others.find(
      (o) => o.taskId !== task.taskId && isNearDuplicate(signature, o, deps.config.FORGE_DEDUP_THRESHOLD),
    );
    if (dup)
      return reject(
        task,
        'near_duplicate',
        'verify_dedup',
        `near-duplicate of accepted task ${dup.taskId}`,
        earlier,
      );

    const artifacts = packageArtifacts(state);
    const [manifest, round, cost] = await Promise.all([
      state.osManifest ??
        fetchFiles(deps.store, pick(state.initial, OS_MANIFEST_PATH)).then((f) => osManifestOf(f)),
      roundOf(task.roundId),
      taskSpend(db, task.taskId),
    ]);
    const built = buildTaskPackage({
      id: task.taskId,
      skill: {
        id: spec.id,
        version: task.specVersion,
        title: spec.title,
        category: spec.category,
        channel: spec.channel,
      },
      apps: spec.apps,
      instruction: state.instruction,
      ...levelOf(ctx),
      difficulty: spec.difficulty,
      seed: task.taskSeed,
      params: ctx.params as Record<string, unknown>,
      artifacts,
      setup: setupStepsFor(state, artifacts, manifest, spec.launch),
      ...(state.expected === 'infeasible' ? { expected: 'infeasible' as const } : {}),
      rubric: { checks: state.checks, items: state.items },
      oracle: { edits: state.edits },
      provenance: {
        roundId: task.roundId,
        taxonomyVersion: round?.taxonomyVersion ?? null,
        specSha,
        models: cost.models,
        costUsd: cost.usd,
        tokens: cost.tokens,
        createdAt: (round?.createdAt ?? new Date()).toISOString(),
      },
    });
    const prefix = `packages/${task.roundId}/${task.taskId}`;
    await deps.store.putObject(`${prefix}/task.json`, built.taskJsonText, 'application/json');
    await deps.store.putObject(`${prefix}/setup.sh`, built.setupSh, 'text/x-shellscript');
    const runsOf = (status: 'ok' | 'failed'): NodeRun[] => [
      ...earlier,
      { nodeId: 'verify_dedup', kind: 'verify', status: 'ok', durationMs: 0 },
      {
        nodeId: 'package',
        kind: 'package',
        status,
        durationMs: performance.now() - started,
        outputKey: `${prefix}/task.json`,
      },
    ];
    // Accepting the task, indexing the package and its signature happen together or not at all.
    const accepted = await db.transaction(async (tx) => {
      const rows = await tx
        .update(tasks)
        .set({
          status: 'accepted',
          packageKey: `${prefix}/task.json`,
          finishedAt: new Date(),
          costUsd: cost.usd,
          tokens: cost.tokens,
        })
        .where(sql`${tasks.id} = ${task.taskId} AND ${tasks.status} = 'running'`)
        .returning({ id: tasks.id });
      if (rows.length === 0) return false;
      await tx
        .insert(packages)
        .values({
          taskId: task.taskId,
          roundId: task.roundId,
          skillId: task.skillId,
          taskJsonKey: `${prefix}/task.json`,
          setupKey: `${prefix}/setup.sh`,
          sha256: built.sha256,
        })
        .onConflictDoNothing();
      await tx
        .insert(taskArtifacts)
        .values(
          artifacts.map((a) => ({
            taskId: task.taskId,
            role: a.role,
            vmPath: a.vmPath,
            key: a.key,
            app: a.app,
          })),
        )
        .onConflictDoNothing();
      await tx
        .insert(taskSignatures)
        .values({ taskId: task.taskId, skillId: task.skillId, ...signature })
        .onConflictDoNothing();
      await upsertNodeRuns(tx, task.taskId, runsOf('ok'));
      return true;
    });
    if (!accepted) await recordNodeRuns(deps.database, task.taskId, runsOf('failed'));
    return accepted
      ? { ok: true }
      : { ok: false, reason: 'cancelled', node: 'package', detail: 'the task was no longer running' };
  }

  return { prepareTask, packageTask };
}

/** Initial files (the Thunderbird profile as its one archive) and solved files, for gold comparisons. */
export function packageArtifacts(state: TaskState): TaskArtifact[] {
  const out: TaskArtifact[] = [];
  for (const [vmPath, f] of Object.entries(state.initial)) {
    if (vmPath === OS_MANIFEST_PATH || isProfilePath(vmPath)) continue;
    out.push({ role: 'initial', app: f.app, vmPath, key: f.key, sha256: f.sha256, size: f.size });
  }
  if (state.profileArchive) {
    const { key, sha256, size } = state.profileArchive;
    out.push({ role: 'initial', app: 'thunderbird', vmPath: PROFILE_ARCHIVE_PATH, key, sha256, size });
  }
  for (const [vmPath, ours] of Object.entries(state.solved)) {
    if (vmPath === OS_MANIFEST_PATH || state.initial[vmPath]?.sha256 === ours.sha256) continue;
    // Office gold files as LibreOffice saved them, when the office verification ran.
    const f = state.solvedByOffice?.[vmPath] ?? ours;
    out.push({ role: 'solved', app: f.app, vmPath, key: f.key, sha256: f.sha256, size: f.size });
  }
  return out;
}

export function levelOf(ctx: Record<string, unknown>): {
  instructionLevel?: 'explicit' | 'natural' | 'goal';
} {
  const level = (ctx.task as { level?: unknown } | undefined)?.level;
  return level === 'explicit' || level === 'natural' || level === 'goal' ? { instructionLevel: level } : {};
}

function pick<T>(record: Record<string, T>, key: string): Record<string, T> {
  return key in record ? { [key]: record[key]! } : {};
}
