import type { z } from 'zod';

/**
 * An app's mapping from its rubric check kinds to OSWorld's own metrics (desktop_env/evaluators/
 * metrics/*.py), owned by its preparer (`Preparer.osworld`). A kind is mapped when the OSWorld metric
 * passes exactly when our probe passes, or, for checks that pin down what a document now contains,
 * when OSWorld's whole-document comparison with the gold (oracle-solved) file reads the property the
 * check tests — the gold passes the check, so a result equal to it does too; that is how OSWorld's own
 * document tasks grade. A kind mapped to `unmapped(reason)`, or absent, is graded in the VM by the
 * portable checker (preparers/checker/), and the export report gives the reason.
 */

/** The OSWorld VM user's home; task paths are relative to it. */
export const VM_HOME = '/home/user';

/**
 * The only shell scripts a mapped check may run: fixed text, the file's path passed as `$1` so
 * nothing of it reaches the shell's parser. `forge pack validate` (export/packRules.ts) admits these
 * and no other `sh -c`.
 */
export const FIXED_SCRIPTS = {
  /** The file's bytes as base64 and a closing dot (exact_match compares the whole output, so an empty file still prints). */
  base64: 'base64 -w0 -- "$1" && printf .',
  /** The file's SHA-256 as bare hex, no newline; a missing file prints nothing. */
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  sha256: 'h=$(sha256sum -- "$1") && printf %s "${h%% *}"',
} as const;

/** A vm_command_line command running one of the fixed scripts on a file. */
export const fixedScript = (script: keyof typeof FIXED_SCRIPTS, vmPath: string): string[] => [
  'sh',
  '-c',
  FIXED_SCRIPTS[script],
  'sh',
  vmPath,
];

export function vmAbsolute(homeRelative: string): string {
  return `${VM_HOME}/${homeRelative}`;
}

/** A rubric check as the mapping sees it: its kind, its document (if any) and its fields. */
export type MappedCheck = { kind: string; file?: string } & Record<string, unknown>;

/** An OSWorld getter config (`vm_file`, `cloud_file`, `cache_file`, `vm_command_line`, `rule`). */
export type Getter = Record<string, unknown> & { type: string };

/** One entry of the evaluator's `func` list. */
export interface MetricCall {
  func: string;
  result: Getter;
  expected?: Getter;
  options?: Record<string, unknown>;
}

/** A compare_table rule, merged with the other rules of the same workbook into one call. */
export interface TableRule {
  file: string;
  rule: Record<string, unknown>;
  /** True when the rule reads the gold (oracle-solved) workbook. */
  needsGold: boolean;
}

/** A comparison of the saved document with its gold copy: `func(result, gold, **options)`. */
export interface GoldComparison {
  file: string;
  func: string;
  options: Record<string, unknown>;
}

/**
 * One expectation of a metric that takes `{expect, unexpect}` rules over one file (OSWorld's
 * check_thunderbird_prefs, check_json_settings, …): expectations on the same file and metric merge
 * into one call.
 */
export interface Expectation {
  func: string;
  /** The home-relative file the metric reads. */
  file: string;
  name: string;
  rule: { method: string; ref: unknown };
}

/** How a check reaches OSWorld: merged table rules, a gold comparison, a merged expectation, or a call of its own. */
export type Mapped =
  | { ok: true; shape: 'table'; rules: TableRule[] }
  | { ok: true; shape: 'gold'; comparisons: GoldComparison[] }
  | { ok: true; shape: 'expect'; expect: Expectation }
  | { ok: true; shape: 'call'; call: MetricCall }
  | { ok: false; reason: string };

export type OsworldMapper = (check: MappedCheck) => Mapped;

export const unmapped = (reason: string): Mapped => ({ ok: false, reason });

export const gold = (file: string, func: string, options: Record<string, unknown> = {}): GoldComparison => ({
  file,
  func,
  options,
});

/**
 * What one of OSWorld's gold comparisons reads of a file, as plain data (`options`: the comparison's
 * own): two files read alike score alike against the same gold. A reading may see more than the
 * metric (then a correct alternative that differs only there loses the comparison to the checker,
 * no harm done) but never less. Keyed by the comparison's function, or `compare_table/<rule type>`
 * for a table rule that reads the gold.
 */
export type GoldReading = (bytes: Uint8Array, options: Record<string, unknown>) => Promise<unknown>;

/** The key a gold-reading table rule's reading is registered under. */
export const tableRuleReading = (rule: { type?: unknown }): string => `compare_table/${String(rule.type)}`;

/** Parses a check's fields for a mapping (the check schema already validated them). */
export function fields<T>(schema: z.ZodType<T>, check: MappedCheck): T {
  return schema.parse(check);
}
