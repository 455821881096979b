import type { OsManifest } from '../preparers/home/manifest.ts';
import type { AppId } from '../preparers/types.ts';
import type { OffGold } from '../taskpack/taskPackage.ts';

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
  /**
   * Comparisons with a gold copy a proven correct alternative fails (taskcore/verify/offGold.ts),
   * found on our files by the prepare stage and on LibreOffice's saves by the office stage.
   */
  offGold?: OffGold[];
  /** The initial OS manifest (dirs, modes, links), kept here so packaging need not fetch it back. */
  osManifest?: OsManifest;
}
