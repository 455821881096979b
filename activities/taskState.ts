import { ObjectStore } from '../infra/objectStore.ts';
import type { OsManifest } from '../preparers/home/manifest.ts';
import type { AppId, FileMap } from '../preparers/types.ts';
import type { Context } from '../skills/template.ts';

/** One file of a task state, keyed by content in the object store. */
export interface StoredFile {
  key: string;
  sha256: string;
  size: number;
  app: AppId;
}

/**
 * Everything later stages need, written once by the prepare stage: small JSON that points at
 * artifacts by key, so workflow payloads stay small.
 */
export interface TaskState {
  instruction: string;
  items: { text: string; weight: number; checks?: number[] }[];
  checks: { kind: string; file?: string }[];
  /** `infeasible`: the right outcome is to change nothing and say the task cannot be done. */
  expected?: 'feasible' | 'infeasible';
  edits: { op: string }[];
  prepares: { app: AppId; target: string; open: boolean }[];
  /**
   * Every file of both states. The object store holds those a later stage reads back: all of them
   * when the task has office files (the office queue fetches both states), else the package's
   * artifacts — the OS manifest and the initial profile's own files (packed in `profileArchive`)
   * are only described.
   */
  initial: Record<string, StoredFile>;
  solved: Record<string, StoredFile>;
  verdicts: { initial: boolean[]; solved: boolean[] };
  /** The initial Thunderbird profile packed as the tar.gz the setup unpacks into ~, when there is one. */
  profileArchive?: StoredFile;
  /**
   * Solved office files as LibreOffice saved them, set by the office verification: the gold files
   * of an export, since an agent's result is a LibreOffice save too.
   */
  solvedByOffice?: Record<string, StoredFile>;
  /** The initial OS manifest (dirs, modes, links), kept here so packaging need not fetch it back. */
  osManifest?: OsManifest;
}

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
