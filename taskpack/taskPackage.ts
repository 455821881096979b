import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../infra/canonicalJson.ts';
import { APPS } from '../preparers/types.ts';
import { renderSetupScript } from './setupScript.ts';
import { objectKey, type SetupStep, setupStepSchema, sha256 } from './setupStep.ts';
import { vmRelativePath } from './vmPath.ts';

export { type SetupStep, setupStepSchema };

export const TASK_FORMAT = 'cua-forge/task@1';

const uuidV4 = z.uuidv4();
const app = z.enum(APPS);

export const artifactSchema = z.strictObject({
  role: z.enum(['initial', 'solved']),
  app,
  vmPath: vmRelativePath.describe('Where the file lives in the VM, relative to the home directory.'),
  key: objectKey.describe('Object-store key of the bytes.'),
  sha256,
  size: z.number().int().min(0),
});
export type TaskArtifact = z.infer<typeof artifactSchema>;

/**
 * Check schemas live with each preparer; here only the envelope: a kind and, for document and
 * Thunderbird checks, the home-relative `file` (the document, or the profile directory).
 */
export const rubricCheckSchema = z.looseObject({ kind: z.string().min(1), file: vmRelativePath.optional() });

/**
 * A comparison with a file's gold copy that OSWorld would fail a proven correct alternative on (the
 * alternative reads differently from the oracle's file to it): which file, which metric, and the
 * alternative named in the export report.
 */
export const offGoldSchema = z.strictObject({
  file: vmRelativePath,
  func: z.string().min(1),
  right: z.string().min(1),
});
export type OffGold = z.infer<typeof offGoldSchema>;
/** One comparison per file and metric: the key an `OffGold` entry is found by. */
export const offGoldKey = (o: { file: string; func: string }): string => JSON.stringify([o.file, o.func]);
export type RubricCheck = z.infer<typeof rubricCheckSchema>;

export const taskPackageInputSchema = z.strictObject({
  id: uuidV4,
  skill: z.strictObject({
    id: z.string().min(1),
    version: z.number().int().min(1),
    title: z.string().min(1),
    category: z.string().min(1).optional(),
    channel: z.enum(['gui', 'terminal', 'either']),
  }),
  apps: z.array(app).min(1),
  instruction: z.string().min(1),
  /** How much of the target the instruction names: explicit | natural | goal (older packs: absent). */
  instructionLevel: z.enum(['explicit', 'natural', 'goal']).optional(),
  difficulty: z.number().int().min(1).max(5),
  /** Distinct features or steps the task needs, its skill's `features` (older packs: absent, read as 1). */
  depth: z.number().int().min(1).max(64).optional(),
  seed: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  artifacts: z.array(artifactSchema).min(1),
  setup: z.array(setupStepSchema).min(1),
  /**
   * `infeasible`: the right outcome is to change nothing and report that the task cannot be done
   * (an OSWorld export uses OSWorld's `infeasible` evaluator). Absent means feasible.
   */
  expected: z.enum(['feasible', 'infeasible']).optional(),
  rubric: z.strictObject({
    checks: z.array(rubricCheckSchema).min(1),
    items: z.array(
      z.strictObject({
        text: z.string().min(1),
        weight: z.number().positive(),
        checks: z
          .array(z.number().int().min(0))
          .optional()
          .describe('0-based indices of the checks that keep this promise'),
      }),
    ),
    guards: z
      .array(z.number().int().min(0))
      .optional()
      .describe(
        '0-based indices of the checks the untouched state already passes: they catch collateral damage, not the change',
      ),
    offGold: z
      .array(offGoldSchema)
      .optional()
      .describe(
        'comparisons with a gold copy that a proven correct alternative fails: the export leaves them to the checker',
      ),
  }),
  oracle: z.strictObject({ edits: z.array(z.looseObject({ op: z.string().min(1) })) }),
  provenance: z.strictObject({
    roundId: z.string().min(1),
    taxonomyVersion: z.number().int().min(0).nullable(),
    specSha: sha256,
    models: z.array(z.string().min(1)),
    costUsd: z.number().min(0),
    tokens: z.number().int().min(0),
    createdAt: z.iso.datetime(),
    /** Real data sets the task's files were seeded from: where the figures come from, and their licence. */
    datasets: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          source: z.string().min(1),
          sourceUrl: z.string().optional(),
          license: z.string().min(1),
          licenseUrl: z.string().optional(),
          package: z.string().min(1),
        }),
      )
      .optional(),
  }),
});
export type TaskPackageInput = z.input<typeof taskPackageInputSchema>;

export const taskPackageSchema = taskPackageInputSchema
  .extend({ format: z.literal(TASK_FORMAT) })
  .superRefine((pkg, ctx) => {
    for (const problem of referenceProblems(pkg)) ctx.addIssue({ code: 'custom', message: problem });
  });
export type TaskPackage = z.infer<typeof taskPackageSchema>;

/** Cross-field consistency: every file setup names is an artifact (or was unpacked from one). */
function referenceProblems(pkg: z.infer<typeof taskPackageInputSchema>): string[] {
  const problems: string[] = [];
  // Content-addressed keys: a solved file equal to an initial one (a copy, a move) shares its key,
  // so the initial artifact is the one a download refers to.
  const byKey = new Map<string, (typeof pkg.artifacts)[number]>();
  for (const a of pkg.artifacts) if (!byKey.has(a.key) || a.role === 'initial') byKey.set(a.key, a);
  const seen = new Set<string>();
  for (const a of pkg.artifacts) {
    const id = `${a.role}:${a.vmPath}`;
    if (seen.has(id)) problems.push(`artifact ${a.role} ${a.vmPath} is listed twice`);
    seen.add(id);
  }
  const downloaded = new Set<string>();
  for (const step of pkg.setup) {
    if (step.type === 'download') {
      for (const f of step.files) {
        const a = byKey.get(f.artifactKey);
        if (!a) problems.push(`setup downloads ${f.artifactKey}, which is not among the artifacts`);
        else if (a.role !== 'initial')
          problems.push(`setup downloads ${f.artifactKey}, a ${a.role} artifact`);
        else if (a.sha256 !== f.sha256)
          problems.push(`setup download of ${f.artifactKey} has a different sha256`);
        downloaded.add(f.vmPath);
      }
    }
    if (step.type === 'extract' && !downloaded.has(step.archiveVmPath)) {
      problems.push(`setup extracts ${step.archiveVmPath}, which no earlier step downloads`);
    }
  }
  return problems;
}

export interface BuiltTaskPackage {
  taskJson: TaskPackage;
  /** task.json bytes as stored: canonical JSON, so equal packages hash equal. */
  taskJsonText: string;
  setupSh: string;
  sha256: string;
}

/**
 * Validates the package input and renders task.json and setup.sh. Pure and deterministic: the
 * same input (in any key order, artifacts in any order) gives the same bytes.
 */
export function buildTaskPackage(input: unknown): BuiltTaskPackage {
  const parsed = taskPackageInputSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid task package: ${z.prettifyError(parsed.error)}`);
  const artifacts = [...parsed.data.artifacts].sort(
    (a, b) => compare(a.role, b.role) || compare(a.vmPath, b.vmPath) || compare(a.key, b.key),
  );
  const checked = taskPackageSchema.safeParse({ ...parsed.data, artifacts, format: TASK_FORMAT });
  if (!checked.success)
    throw new Error(`invalid task package ${parsed.data.id}: ${z.prettifyError(checked.error)}`);
  const taskJson = checked.data;
  const taskJsonText = canonicalJson(taskJson);
  return {
    taskJson,
    taskJsonText,
    setupSh: renderSetupScript(taskJson),
    sha256: createHash('sha256').update(taskJsonText).digest('hex'),
  };
}

/** Parses stored task.json text, naming the source in every error. */
export function parseTaskPackage(text: string, source: string): TaskPackage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = taskPackageSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${source}: not a ${TASK_FORMAT} package: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
