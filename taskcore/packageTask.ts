import { OS_MANIFEST_PATH, type OsManifest } from '../preparers/home/manifest.ts';
import { archivedProfileOf, profileArchivePath } from '../preparers/registry.ts';
import type { DatasetAttribution } from '../skills/datasets.ts';
import { depthOf } from '../skills/depth.ts';
import { nodeOutput, nodeQualifiedId, type SkillSpec } from '../skills/schema.ts';
import type { Context } from '../skills/template.ts';
import { type BuiltTaskPackage, buildTaskPackage, type TaskArtifact } from '../taskpack/taskPackage.ts';
import { setupStepsFor } from './setupSteps.ts';
import type { TaskState } from './taskState.ts';
import { minhash, paramSignature } from './verify/dedup.ts';

/**
 * What a task's package is made of — its artifacts, its task.json and setup.sh, and the signature
 * near-duplicates are found by — written once for the packaging activity and the in-process floor
 * (bench/floor.ts), so the benchmark measures the code that runs.
 */

/** The instruction's minhash and the drawn params and authored values (a composite's steps' params too). */
export function dedupSignature(spec: SkillSpec, instruction: string, ctx: Context) {
  const authored = Object.fromEntries(
    spec.nodes.flatMap((n) =>
      'llm' in n
        ? [[nodeQualifiedId(n), nodeOutput(ctx, n)]]
        : 'step' in n
          ? [[`${n.id}.params`, (ctx[n.id] as { params?: unknown } | undefined)?.params]]
          : [],
    ),
  );
  return { minhash: minhash(instruction), paramSignature: paramSignature({ params: ctx.params, authored }) };
}

export interface PackageProvenance {
  roundId: string;
  taxonomyVersion: number | null;
  specSha: string;
  models: string[];
  costUsd: number;
  tokens: number;
  createdAt: string;
}

/** The real data sets a task's generate nodes read (their outputs carry the attribution), once each. */
export function datasetsOf(ctx: Context): DatasetAttribution[] {
  const found = new Map<string, DatasetAttribution>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 3) return;
    const o = v as Record<string, unknown>;
    const source = o.source as DatasetAttribution | undefined;
    if (Array.isArray(o.records) && source && typeof source.package === 'string')
      found.set(source.name, source);
    else for (const x of Object.values(o)) walk(x, depth + 1);
  };
  walk(ctx, 0);
  return [...found.values()];
}

export function packageFor(a: {
  task: { taskId: string; taskSeed: number };
  version: number;
  spec: SkillSpec;
  state: TaskState;
  ctx: Context;
  manifest: OsManifest;
  provenance: PackageProvenance;
}): { built: BuiltTaskPackage; artifacts: TaskArtifact[] } {
  const { spec, state, ctx } = a;
  const artifacts = packageArtifacts(state);
  const built = buildTaskPackage({
    id: a.task.taskId,
    skill: {
      id: spec.id,
      version: a.version,
      title: spec.title,
      category: spec.category,
      channel: spec.channel,
    },
    apps: spec.apps,
    instruction: state.instruction,
    ...levelOf(ctx),
    difficulty: spec.difficulty,
    depth: depthOf(spec),
    seed: a.task.taskSeed,
    params: ctx.params as Record<string, unknown>,
    artifacts,
    setup: setupStepsFor(state, artifacts, a.manifest, spec.launch),
    ...(state.expected === 'infeasible' ? { expected: 'infeasible' as const } : {}),
    rubric: {
      checks: state.checks,
      items: state.items,
      ...guardsOf(state.verdicts.initial),
      ...(state.offGold?.length ? { offGold: state.offGold } : {}),
    },
    oracle: { edits: state.edits },
    provenance: { ...a.provenance, ...withDatasets(datasetsOf(ctx)) },
  });
  return { built, artifacts };
}

const withDatasets = (datasets: DatasetAttribution[]) => (datasets.length > 0 ? { datasets } : {});

/** The checks the untouched state passes (none recorded: no guards field, as before verdicts were kept). */
function guardsOf(initial: boolean[]): { guards?: number[] } {
  return initial.length === 0 ? {} : { guards: initial.flatMap((pass, i) => (pass ? [i] : [])) };
}

export function packageArtifacts(state: TaskState): TaskArtifact[] {
  const out: TaskArtifact[] = [];
  for (const [vmPath, f] of Object.entries(state.initial)) {
    if (vmPath === OS_MANIFEST_PATH || archivedProfileOf(vmPath)) continue;
    out.push({ role: 'initial', app: f.app, vmPath, key: f.key, sha256: f.sha256, size: f.size });
  }
  if (state.profileArchive) {
    const { key, sha256, size, app } = state.profileArchive;
    const vmPath = profileArchivePath(app);
    out.push({ role: 'initial', app, vmPath, key, sha256, size });
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
