import { createHash, randomUUID } from 'node:crypto';
import type { TaskState } from '../../activities/taskState.ts';
import { OS_MANIFEST_PATH, osManifestOf } from '../../preparers/home/manifest.ts';
import { appOfPath, archivedProfileOf, packArchivedProfile, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { setupStepsFor } from '../../taskcore/setupSteps.ts';
import { comparisonsOffGold } from '../../taskcore/verify/offGold.ts';
import { correctAlternatives } from '../../taskcore/verify/rubricProof.ts';
import { buildTaskPackage, type TaskArtifact, type TaskPackage } from '../../taskpack/taskPackage.ts';
import type { OfflineTask } from './offlineTasks.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * The task package the prepare activity would write for an offline task (same artifacts and setup
 * steps), with artifact bytes by key instead of an object store.
 */
export async function packageOffline(task: OfflineTask): Promise<{
  pkg: TaskPackage;
  bytes: Map<string, Uint8Array>;
  /** The task's correct alternatives (the comparisons with gold they would fail are in `rubric.offGold`). */
  rights: { name: string; files: FileMap }[];
}> {
  const bytes = new Map<string, Uint8Array>();
  const artifacts: TaskArtifact[] = [];
  const add = (role: 'initial' | 'solved', vmPath: string, data: Uint8Array, app = appOfPath(vmPath)) => {
    const key = `artifacts/${sha(data)}`;
    bytes.set(key, data);
    artifacts.push({ role, app, vmPath, key, sha256: sha(data), size: data.byteLength });
  };
  for (const [vmPath, data] of Object.entries(task.initial)) {
    if (vmPath !== OS_MANIFEST_PATH && !archivedProfileOf(vmPath)) add('initial', vmPath, data);
  }
  const profile = await packArchivedProfile(task.initial);
  if (profile) add('initial', profile.archivePath, profile.bytes, profile.app);
  for (const [vmPath, data] of Object.entries(task.solved)) {
    if (vmPath === OS_MANIFEST_PATH || (task.initial[vmPath] && sha(task.initial[vmPath]) === sha(data)))
      continue;
    add('solved', vmPath, data);
  }
  const state = { prepares: task.prepares } as unknown as TaskState;
  // As the prepare stage records them: the checks the untouched state already passes.
  const initially = await Promise.all(task.checks.map((c) => probeCheck(task.initial, c)));
  const guards = initially.flatMap((r, i) => (r.pass ? [i] : []));
  const rights = (
    await correctAlternatives(await materializeTask(task.spec, task.context), {
      initial: task.initial,
      solved: task.solved,
    })
  ).flatMap((r) => (r.files ? [{ name: r.name, files: r.files }] : []));
  const offGold = await comparisonsOffGold(task.checks, task.solved, rights);
  const built = buildTaskPackage({
    id: randomUUID(),
    skill: { id: task.spec.id, version: 1, title: task.spec.title, channel: task.spec.channel },
    apps: task.spec.apps,
    instruction: task.instruction,
    difficulty: task.spec.difficulty,
    seed: task.seed,
    params: {},
    artifacts,
    setup: setupStepsFor(state, artifacts, osManifestOf(task.initial), task.spec.launch),
    rubric: {
      checks: task.checks,
      items: [{ text: 'as instructed', weight: 1 }],
      guards,
      ...(offGold.length > 0 ? { offGold } : {}),
    },
    ...(task.spec.expected === 'infeasible' ? { expected: 'infeasible' as const } : {}),
    oracle: { edits: task.edits },
    provenance: {
      roundId: 'offline',
      taxonomyVersion: null,
      specSha: sha(new TextEncoder().encode(task.spec.id)),
      models: ['offline'],
      costUsd: 0,
      tokens: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  });
  return { pkg: built.taskJson, bytes, rights };
}
