import type { OsManifest } from '../preparers/home/manifest.ts';
import { isProfileArchivePath, preparers } from '../preparers/registry.ts';
import type { SetupStep, TaskArtifact } from '../taskpack/taskPackage.ts';
import type { TaskState } from './taskState.ts';

/**
 * Typed setup steps from a task state: download the initial files (an app's profile as one
 * archive, unpacked into ~), recreate directories and modes from the OS manifest, open the
 * documents that should be open, start what each app's staging launches.
 */
export function setupStepsFor(
  state: TaskState,
  artifacts: TaskArtifact[],
  manifest: OsManifest,
  launch: string[][],
): SetupStep[] {
  const steps: SetupStep[] = [];
  const dirs = manifest.entries.filter((e) => e.type === 'dir').map((e) => e.path);
  for (const dir of dirs) steps.push({ type: 'mkdir', vmPath: dir });
  const downloads = artifacts
    .filter((a) => a.role === 'initial')
    .map((a) => ({ artifactKey: a.key, sha256: a.sha256, vmPath: a.vmPath }));
  if (downloads.length > 0) steps.push({ type: 'download', files: downloads });
  for (const d of downloads)
    if (isProfileArchivePath(d.vmPath)) steps.push({ type: 'extract', archiveVmPath: d.vmPath, into: '~' });
  for (const e of manifest.entries) {
    if (e.mode && e.type !== 'symlink') steps.push({ type: 'chmod', vmPath: e.path, mode: e.mode });
  }
  for (const e of manifest.entries) {
    if (e.type === 'symlink' && e.target !== undefined)
      steps.push({ type: 'symlink', vmPath: e.path, target: e.target });
  }
  // What each app needs started or opened is its preparer's staging.
  for (const app of new Set(state.prepares.map((p) => p.app)))
    for (const command of preparers[app].staging.launch) steps.push({ type: 'launch', command });
  for (const command of launch) steps.push({ type: 'launch', command });
  for (const p of state.prepares) {
    if (p.open && preparers[p.app].staging.documentWindow) steps.push({ type: 'open', vmPath: p.target });
  }
  if (steps.length === 0) steps.push({ type: 'sleep', seconds: 1 });
  return steps;
}
