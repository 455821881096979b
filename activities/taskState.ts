import { ObjectStore } from '../infra/objectStore.ts';
import type { AppId, FileMap } from '../preparers/types.ts';
import type { Context } from '../skills/template.ts';

import type { StoredFile, TaskState } from '../taskcore/taskState.ts';

export type { StoredFile, TaskState };

export const contextKey = (taskId: string) => `tasks/${taskId}/context.json`;
const stateKey = (taskId: string) => `tasks/${taskId}/state.json`;

export async function saveContext(store: ObjectStore, taskId: string, ctx: Context): Promise<void> {
  await store.putObject(contextKey(taskId), JSON.stringify(ctx), 'application/json');
}

export async function loadContext(store: ObjectStore, taskId: string): Promise<Context> {
  return JSON.parse((await store.getObject(contextKey(taskId))).toString('utf8')) as Context;
}

export async function saveState(store: ObjectStore, taskId: string, state: TaskState): Promise<void> {
  await store.putObject(stateKey(taskId), JSON.stringify(state), 'application/json');
}

export async function loadState(store: ObjectStore, taskId: string): Promise<TaskState> {
  return JSON.parse((await store.getObject(stateKey(taskId))).toString('utf8')) as TaskState;
}

const contentTypes: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  gz: 'application/gzip',
  json: 'application/json',
  txt: 'text/plain',
};

export function contentTypeOf(path: string): string {
  return contentTypes[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * Files of a task state, content-addressed. `write` says which are written: the others are only
 * described (key, hash, size), for files no later stage reads back.
 */
export async function storeFiles(
  store: ObjectStore,
  files: FileMap,
  appOfPath: (path: string) => AppId,
  write: (path: string) => boolean = () => true,
): Promise<Record<string, StoredFile>> {
  const out: Record<string, StoredFile> = {};
  const entries = Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1));
  await Promise.all(
    entries.map(async ([path, bytes]) => {
      const stored = write(path)
        ? await store.putArtifact(bytes, contentTypeOf(path))
        : ObjectStore.describeArtifact(bytes);
      out[path] = { ...stored, app: appOfPath(path) };
    }),
  );
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function fetchFiles(store: ObjectStore, files: Record<string, StoredFile>): Promise<FileMap> {
  const out: FileMap = {};
  await Promise.all(
    Object.entries(files).map(async ([path, f]) => {
      out[path] = new Uint8Array(await store.getObject(f.key));
    }),
  );
  return out;
}

/**
 * Both states of a task, each distinct content written once (most files are alike in both), and
 * only the files `write` names for their state; the rest are described.
 */
export async function storeStates(
  store: ObjectStore,
  files: { initial: FileMap; solved: FileMap },
  appOfPath: (path: string) => AppId,
  write: (state: 'initial' | 'solved', path: string) => boolean = () => true,
): Promise<{ initial: Record<string, StoredFile>; solved: Record<string, StoredFile> }> {
  const initial = await storeFiles(store, files.initial, appOfPath, (p) => write('initial', p));
  const changed: FileMap = {};
  const solved: Record<string, StoredFile> = {};
  for (const [path, bytes] of Object.entries(files.solved)) {
    const before = files.initial[path];
    if (before && initial[path] && sameBytes(before, bytes)) solved[path] = initial[path];
    else changed[path] = bytes;
  }
  Object.assign(solved, await storeFiles(store, changed, appOfPath, (p) => write('solved', p)));
  return { initial, solved: Object.fromEntries(Object.entries(solved).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || Buffer.compare(a, b) === 0;
}
