import type { z } from 'zod';
import type { DiscoveryContext } from './discovery.ts';
import type { GoldReading, OsworldMapper } from './osworld.ts';

/** The applications a task can involve. `os` covers plain files and directories. */
export const APPS = [
  'calc',
  'writer',
  'impress',
  'thunderbird',
  'os',
  'chromium',
  'gimp',
  'vscode',
  'vlc',
] as const;
export type AppId = (typeof APPS)[number];

/** The check that grades an infeasible task: the agent reported that it cannot be done (the files app's). */
export const INFEASIBLE_REPORT_KIND = 'os.reported_infeasible';

/**
 * The generic correct alternatives the preparers derive from an oracle (`Preparer.rights`), by
 * name, so a skill can turn one off with a reason (`rubric.generic_right_off`).
 */
export const GENERIC_RIGHTS = [
  'calc-formula-spelling',
  'calc-absolute-refs',
  'calc-result-label',
  'calc-autocorrect-quotes',
  'thunderbird-filter-name',
  'thunderbird-filter-run-existing',
  'thunderbird-figure-format',
  'writer-table-header-plain',
  'writer-table-header-centred',
  'writer-autocorrect-quotes',
  'impress-autocorrect-quotes',
] as const;
export type GenericRightName = (typeof GENERIC_RIGHTS)[number];

/**
 * Files of one task state, keyed by path relative to the VM user's home (`/home/user`),
 * e.g. `Desktop/sales.xlsx` or `.thunderbird/forge.default/prefs.js`. Never absolute, never `..`.
 */
export type FileMap = Record<string, Uint8Array>;

/**
 * What a spec would put at a home-relative path, as far as it is known: at the static check a
 * file's bytes are not (templates), after the build they are.
 */
export type ProfileEntry =
  | { type: 'file'; bytes?: Uint8Array }
  | { type: 'dir' }
  | { type: 'symlink'; target?: string };

/**
 * An application's configuration area as code: everything under `roots` is read by the
 * application and can make it run something (macros, extensions, plug-ins, event bindings, task
 * runners), so a spec that did not come from the repository may write there only what `allow`
 * lets through — an allowlist of files and of the settings inside them, never a denylist.
 */
export interface ProfilePolicy {
  /** The application as messages name it, e.g. "LibreOffice". */
  name: string;
  /** Home-relative directories the application reads its profile or configuration from. */
  roots: readonly string[];
  /** Directory names the application reads inside any folder it opens (a workspace's `.vscode/`). */
  anywhere?: readonly string[];
  /**
   * The rule `entry` at `path` (under one of `roots`) breaks, or null when an untrusted spec may
   * write it. A file without bytes passes when some content could: its bytes are checked once built.
   */
  allow(path: string, entry: ProfileEntry): string | null;
}

/** A home-relative path a prepare node names, before anything is built; `where` is inside the node. */
export interface NamedPath {
  where: string;
  path: string;
  entry: ProfileEntry;
}

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
   * "Nothing else changed": checks (of this app's own kinds) that pin everything the oracle left
   * alone in `files` (this app's files of the task) to its initial state. The oracle's solved
   * state passes them by construction; collateral damage fails them.
   */
  invariants(initial: FileMap, solved: FileMap, files: string[]): Promise<Check[]>;
  /**
   * The careless bulk version of the oracle's edits (mark the whole folder read, format the
   * whole column, restyle every slide), or undefined when no edit has a bulk form.
   */
  bulk(edits: Edit[]): Edit[] | undefined;
  /**
   * Mechanical correct alternatives to the oracle's edits (the same result spelt another way a
   * person could leave it), each of which the rubric must pass; none when the edits have no such
   * form. `edits` are all of this app's edits of the task; each alternative answers them one for one.
   */
  rights?(edits: Edit[]): { name: GenericRightName; edits: Edit[] }[];
  /**
   * Generic correct alternatives that depend on the task's files: edits a person may make besides
   * the oracle's, read off its initial and solved files (a label typed beside a new result, only
   * where that cell is empty). `edits` are this app's edits of the task; `also` run after all of them.
   */
  rightsBeside?(
    edits: Edit[],
    initial: FileMap,
    solved: FileMap,
  ): Promise<{ name: GenericRightName; also: Edit[] }[]>;
  /**
   * Near misses of the oracle's edits that only this app can derive (a formula typed as its value,
   * the neighbouring message), beyond the generic field mutations (taskcore/verify/mutants.ts),
   * each of which the rubric must fail. `edits` are all of this app's edits of the task; each
   * mutant answers them one for one and names the edit (0-based among them) it attacks, if one;
   * `also` are edits made besides, right after that one (a collateral change beside the target).
   */
  /**
   * Ops whose repeat on a neighbouring target (the next slide, the cell below) no invariant of this
   * app sees yet: the generic collateral mutant is not made for them (a gap said, not hidden).
   */
  collateralBlind?: readonly string[];
  mutants?(
    edits: Edit[],
    initial: FileMap,
  ): Promise<{ name: string; edit?: number; edits: Edit[]; also?: Edit[] }[]>;
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
  /**
   * What each of this app's gold comparisons reads of a file (preparers/osworld.ts `GoldReading`), so
   * a correct alternative the comparison would fail is known before export (taskcore/verify/offGold.ts).
   */
  goldReadings?: Record<string, GoldReading>;
  /** How the app's files are staged in the VM and read back (setup steps, OSWorld postconfig). */
  staging: AppStaging;
  /**
   * The paths a prepare node of this app names with `target` and `doc` (not yet validated: the
   * static check passes the spec's raw doc), so they can be checked before anything is built.
   */
  namedPaths(target: string, doc: unknown): NamedPath[];
  /** This app's profile, when it has one an untrusted spec could reach (preparers/profiles/). */
  profilePolicy?: ProfilePolicy;
  /** Whether a (raw, unrendered) check or edit of this app runs a spec-written regular expression. */
  usesRegex?(item: Record<string, unknown>): boolean;
  /**
   * Whether a home-relative file belongs to this app (its documents by extension, its profile by
   * place): which app a file the rubric or the oracle names is stored and checked as. The files app
   * (`os`) takes what no other app claims.
   */
  owns?(path: string): boolean;
  /** A profile the setup unpacks from one archive (its many small files travel as one download). */
  profile?: ArchivedProfile;
  /** How the instruction checks (taskcore/verify/instruction.ts) read an instruction for this app. */
  instruction?: InstructionRules;
}

export interface ArchivedProfile {
  /** The home-relative directory every file of the profile lives under, e.g. `.thunderbird`. */
  root: string;
  /** Where the packed profile is downloaded in the VM before the setup unpacks it into ~. */
  archivePath: string;
  /** The profile's files (all under `root`) as a deterministic tar.gz unpacked with `tar -xzf … -C ~`. */
  pack(files: FileMap): Promise<Uint8Array>;
  /** A prepare node's `target` names the profile inside `root` (validated by `build`), not a path. */
  targetIsName: boolean;
}

export interface InstructionRules {
  /**
   * For an app whose state is not one file: words an instruction uses to point at the app when it
   * is not open at the start (mail, inbox, …), and the app's name for the problem message. Without
   * it the instruction must name the prepared file.
   */
  mentions?: { pattern: RegExp; name: string };
  /** Per check kind, the fields whose string values the agent has to produce exactly. */
  literalFields?: Record<string, string[]>;
  /**
   * The app's checks name cells (B12, $C$4) that a natural or goal instruction must not hand over.
   * Elsewhere the same shape is a hotkey (F12) or a model number, and saying it is the task.
   */
  cellAddresses?: true;
  /**
   * Discovery: the strings of one of the app's checks that point at what the task acts on (the
   * message, the paragraph, the files gathered), which an instruction that leaves the target to be
   * found must not name. Cells are found by `cellAddresses`.
   */
  targets?: (check: Record<string, unknown>, ctx: DiscoveryContext) => string[];
}

export interface AppStaging {
  /** The app's OSWorld domain (evaluation_examples/examples/<domain>/), e.g. "libreoffice_calc". */
  osworldDomain: string;
  /** Programs started after the files are in place (Thunderbird opens its profile). */
  launch: string[][];
  /** Further commands a skill spec may ask the setup to start for this app (`launch:`); nothing else can be started. */
  launchers?: string[][];
  /**
   * For document apps: the suffix of the window title, e.g. "LibreOffice Calc". Its documents are
   * opened at setup when the skill asks, and saved (focus "<file> - <suffix>", ctrl+s) before evaluation.
   */
  documentWindow?: string;
  /** A window to close before evaluation so the app writes its state out (Thunderbird's prefs, folders, filters). */
  closeBeforeEvaluation?: { windowName: string; byClass: boolean };
}
