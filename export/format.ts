import type { TaskPackage } from '../taskpack/taskPackage.ts';
import type { CheckEvaluator } from './osworld/task.ts';
import type { PackSink } from './sink.ts';

/** What a format may add to the export report besides the shared counts. */
export interface FormatReport {
  /** Tasks left out of the pack, each with the reason. */
  excluded: { taskId: string; checkKind: string; reason: string }[];
  /** OSWorld packs: how many checks each evaluator grades, and which evaluator graded each check. */
  byEvaluator?: Record<string, number>;
  evaluators?: { taskId: string; checks: CheckEvaluator[] }[];
}

/** What the pack writer lends a format for each task: where its artifacts go, by key. */
export interface FormatTools {
  /** The folder or archive being written; undefined when the output is a single .jsonl file. */
  sink: PackSink | undefined;
  /** Copies an artifact into the pack at `packPath` once (its bytes checked against `sha256`). */
  ship(packPath: string, key: string, sha256: string): Promise<void>;
  /** Adds a file the format writes itself (counted in the manifest). */
  file(packPath: string, bytes: Uint8Array): Promise<void>;
  /** Where an artifact is fetched from when the pack refers to it by URL. */
  url(key: string): Promise<string>;
  /** The object store's bucket (JSONL names each artifact's s3:// URI too). */
  bucket: string;
  files: 'ship' | 'url';
  /** The output path the user asked for. */
  out: string;
}

/** One pack being written in a format: a task at a time, then the format's own index files. */
export interface FormatWriter {
  /** Adds one task; false when the format leaves it out (the reason is in the report). */
  add(pkg: TaskPackage): Promise<boolean>;
  /** Writes what the format keeps besides its tasks (an index, a spooled file) before the manifest. */
  finish(): Promise<void>;
  /** Frees what `open` took (temp files), whether the export finished or failed. */
  cleanup(): Promise<void>;
}

/**
 * An export format (OSWorld, JSONL, …): the pack writer (export/exportPack.ts) reads the packages,
 * verifies and ships their artifacts, and writes the report and manifest; a format decides what one
 * task becomes in the pack. Adding a format is a file implementing this and a line in FORMATS.
 */
export interface PackFormat {
  name: string;
  /** Whether the format writes a folder or archive (OSWorld), or may write one .jsonl file. */
  needsFolder: boolean;
  /** Why the format cannot write `out` with this file mode (checked before anything is written), or null. */
  optionsProblem?(out: string, files: 'ship' | 'url'): string | null;
  open(tools: FormatTools, report: FormatReport): Promise<FormatWriter>;
}
