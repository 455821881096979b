import type { z } from 'zod';
import type { OsworldMapper } from './osworld.ts';

/** The applications a task can involve. `os` covers plain files and directories. */
export const APPS = ['calc', 'writer', 'impress', 'thunderbird', 'os'] as const;
export type AppId = (typeof APPS)[number];

/**
 * Files of one task state, keyed by path relative to the VM user's home (`/home/user`),
 * e.g. `Desktop/sales.xlsx` or `.thunderbird/forge.default/prefs.js`. Never absolute, never `..`.
 */
export type FileMap = Record<string, Uint8Array>;

export interface ProbeResult {
  pass: boolean;
  /** What the probe saw, small and JSON-serialisable, so a failed check explains itself. */
  observed: unknown;
}

/**
 * One preparer per application (see shared/DESIGN.md): build initial files from a doc spec,
 * apply oracle edits, probe rubric checks on real files. Doc specs, edits and checks are
 * validated by the schemas before these functions see them.
 */
export interface Preparer<
  Doc = unknown,
  Edit extends { op: string } = { op: string },
  Check extends { kind: string } = { kind: string },
> {
  app: AppId;
  docSchema: z.ZodType<Doc>;
  editSchema: z.ZodType<Edit>;
  checkSchema: z.ZodType<Check>;
  /** `target` is the file's (or, for Thunderbird, the profile's) path relative to home. */
  build(target: string, doc: Doc): Promise<FileMap>;
  apply(files: FileMap, edits: Edit[]): Promise<FileMap>;
  probe(files: FileMap, check: Check): Promise<ProbeResult>;
  /**
   * This app's part of the portable in-VM checker (preparers/checker/): a standard-library Python
   * file registering one `@kind('<app>.…')` function per check kind, with the same verdicts as `probe`.
   */
  checkerPart: URL;
  /**
   * This app's mapping of check kinds to OSWorld metrics (preparers/osworld.ts). A kind left out, or
   * mapped to `unmapped(reason)`, is graded in the VM by `checkerPart`.
   */
  osworld: Record<string, OsworldMapper>;
}
