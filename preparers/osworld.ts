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
  app: 'writer' | 'impress';
  func: string;
  options: Record<string, unknown>;
}

export type Mapped =
  | { ok: true; app: 'calc'; rules: TableRule[] }
  | { ok: true; app: 'gold'; comparisons: GoldComparison[] }
  | {
      ok: true;
      app: 'thunderbird';
      prefs: { profile: string; name: string; value: string | number | boolean };
    }
  | { ok: true; app: 'os'; call: MetricCall }
  | { ok: false; reason: string };

export type OsworldMapper = (check: MappedCheck) => Mapped;

export const unmapped = (reason: string): Mapped => ({ ok: false, reason });

export const gold = (
  file: string,
  app: GoldComparison['app'],
  func: string,
  options: Record<string, unknown> = {},
): GoldComparison => ({ file, app, func, options });

/** Parses a check's fields for a mapping (the check schema already validated them). */
export function fields<T>(schema: z.ZodType<T>, check: MappedCheck): T {
  return schema.parse(check);
}
