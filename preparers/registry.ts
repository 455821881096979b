import { calcPreparer } from './calc/index.ts';
import { chromiumPreparer } from './chromium/index.ts';
import { gimpPreparer } from './gimp/index.ts';
import { impressPreparer } from './impress/index.ts';
import { stripXmlInvalidDeep } from './ooxml/xmlChars.ts';
import { osPreparer } from './os/index.ts';
import { thunderbirdPreparer } from './thunderbird/index.ts';
import {
  APPS,
  type AppId,
  type ArchivedProfile,
  type FileMap,
  type Preparer,
  type ProbeResult,
} from './types.ts';
import { vlcPreparer } from './vlc/index.ts';
import { vscodePreparer } from './vscode/index.ts';
import { writerPreparer } from './writer/index.ts';

/** Routes doc specs, edits (`op: "<app>.…"`) and checks (`kind: "<app>.…"`) to their app's preparer. */
export const preparers: Record<AppId, Preparer> = {
  calc: calcPreparer as unknown as Preparer,
  writer: writerPreparer as unknown as Preparer,
  impress: impressPreparer as unknown as Preparer,
  thunderbird: thunderbirdPreparer as unknown as Preparer,
  os: osPreparer as unknown as Preparer,
  chromium: chromiumPreparer as unknown as Preparer,
  gimp: gimpPreparer as unknown as Preparer,
  vscode: vscodePreparer as unknown as Preparer,
  vlc: vlcPreparer as unknown as Preparer,
};

/** The app that owns the home itself: files no other app claims (`Preparer.owns`), and the folders' listings. */
export const HOME_APP: AppId = 'os';

/** The app a home-relative file belongs to: the first whose `owns` claims it, else the files app. */
export function appOfPath(path: string): AppId {
  return APPS.find((app) => preparers[app].owns?.(path)) ?? HOME_APP;
}

/** The archived profile a home-relative file belongs to, with its app, if one holds it. */
export function archivedProfileOf(path: string): { app: AppId; profile: ArchivedProfile } | undefined {
  for (const app of APPS) {
    const profile = preparers[app].profile;
    if (profile && path.startsWith(`${profile.root}/`)) return { app, profile };
  }
  return undefined;
}

/** Whether a download at `vmPath` is an archived profile the setup unpacks into ~. */
export const isProfileArchivePath = (vmPath: string) =>
  APPS.some((app) => preparers[app].profile?.archivePath === vmPath);

/** Where the app's archived profile is downloaded to in the VM. */
export function profileArchivePath(app: AppId): string {
  const profile = preparers[app].profile;
  if (!profile) throw new Error(`${app} keeps no archived profile`);
  return profile.archivePath;
}

/**
 * The initial profile files of a task packed as their app's one archive, or undefined when the task
 * has none. A task holds one archived profile at most (its state has one archive slot).
 */
export async function packArchivedProfile(
  initial: FileMap,
): Promise<{ app: AppId; archivePath: string; bytes: Uint8Array } | undefined> {
  const byApp = new Map<AppId, FileMap>();
  for (const [path, bytes] of Object.entries(initial)) {
    const owner = archivedProfileOf(path);
    if (owner) byApp.set(owner.app, { ...byApp.get(owner.app), [path]: bytes });
  }
  if (byApp.size > 1)
    throw new PreparerInputError(
      `a task holds profiles of ${[...byApp.keys()].join(' and ')}; at most one is supported`,
    );
  const [entry] = byApp;
  if (!entry) return undefined;
  const [app, files] = entry;
  const profile = preparers[app].profile!;
  return { app, archivePath: profile.archivePath, bytes: await profile.pack(files) };
}

export class PreparerInputError extends Error {
  override name = 'PreparerInputError';
}

export function appOf(kindOrOp: string): AppId {
  const app = kindOrOp.split('.')[0] as AppId;
  if (!(app in preparers))
    throw new PreparerInputError(`"${kindOrOp}" names no known app (${APPS.join(', ')})`);
  return app;
}

function issues(err: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return err.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** The apps whose files are OOXML: their text is stripped of what XML cannot hold, in one place. */
const OOXML: ReadonlySet<AppId> = new Set(['calc', 'writer', 'impress']);
const clean = (app: AppId, value: unknown) => (OOXML.has(app) ? stripXmlInvalidDeep(value) : value);

export function parseDoc(app: AppId, doc: unknown): unknown {
  const r = preparers[app].docSchema.safeParse(clean(app, doc));
  if (!r.success) throw new PreparerInputError(`${app} doc spec: ${issues(r.error)}`);
  return r.data;
}

export function parseEdit(edit: unknown): { op: string } {
  const op = (edit as { op?: unknown })?.op;
  if (typeof op !== 'string')
    throw new PreparerInputError(`edit without an "op": ${JSON.stringify(edit).slice(0, 200)}`);
  const r = preparers[appOf(op)].editSchema.safeParse(clean(appOf(op), edit));
  if (!r.success) throw new PreparerInputError(`edit ${op}: ${issues(r.error)}`);
  return r.data;
}

export function parseCheck(check: unknown): { kind: string; file?: string } {
  const kind = (check as { kind?: unknown })?.kind;
  if (typeof kind !== 'string')
    throw new PreparerInputError(`check without a "kind": ${JSON.stringify(check).slice(0, 200)}`);
  const r = preparers[appOf(kind)].checkSchema.safeParse(clean(appOf(kind), check));
  if (!r.success) throw new PreparerInputError(`check ${kind}: ${issues(r.error)}`);
  return r.data as { kind: string; file?: string };
}

/** Applies edits in order; consecutive edits of one app go to that app's preparer together. */
export async function applyEdits(files: FileMap, edits: { op: string }[]): Promise<FileMap> {
  let current = files;
  for (let i = 0; i < edits.length; ) {
    const app = appOf(edits[i]!.op);
    let j = i;
    while (j < edits.length && appOf(edits[j]!.op) === app) j++;
    current = await preparers[app].apply(current, edits.slice(i, j));
    i = j;
  }
  return current;
}

export async function probeCheck(files: FileMap, check: { kind: string }): Promise<ProbeResult> {
  try {
    return await preparers[appOf(check.kind)].probe(files, check);
  } catch (err) {
    // A probe that cannot read the file is a failed check with the reason, not a crash.
    return { pass: false, observed: { error: err instanceof Error ? err.message : String(err) } };
  }
}
