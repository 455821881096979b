import { z } from 'zod';

/** Request schemas: every route validates its params, query and body with these, and /openapi.json shows them. */

export const roundIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/,
    'letters, digits, dot, dash and underscore, at most 80 characters',
  );
export const skillIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,119}$/, 'a skill id such as calc.formulas.sum-column');

export const roundParams = z.object({ roundId: roundIdSchema });
export const taskParams = z.object({ taskId: z.uuid('a task id is a UUID') });
export const versionParams = z.object({ version: z.coerce.number().int().min(0) });

const csv = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()))
  .pipe(z.array(skillIdSchema).min(1));

export const limitQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const comparisonQuery = limitQuery.extend({
  upTo: roundIdSchema.optional().describe('only this round and the rounds created before it'),
});

/** Start a generation round; the round workflow validates the finer rules (skills exist, budget vs plan). */
export const startRoundRequest = z.strictObject({
  roundId: roundIdSchema.optional(),
  skills: z.array(skillIdSchema).min(1).optional(),
  taxonomyVersion: z.number().int().min(0).optional(),
  fromFeedbackRound: roundIdSchema.optional(),
  tasksPerSkill: z.number().int().min(1).max(100_000).optional(),
  budgetUsd: z.number().positive().optional(),
  concurrency: z.number().int().min(1).max(10_000).optional(),
  seed: z.number().int().optional(),
  model: z.string().min(1).optional(),
});
export type StartRoundRequest = z.infer<typeof startRoundRequest>;

/** The same choices as a start, as query parameters (skills comma-separated); nothing is spent. */
export const planRoundQuery = z.strictObject({
  skills: csv.optional(),
  taxonomyVersion: z.coerce.number().int().min(0).optional(),
  fromFeedbackRound: roundIdSchema.optional(),
  tasksPerSkill: z.coerce.number().int().min(1).max(100_000).optional(),
  budgetUsd: z.coerce.number().positive().optional(),
  seed: z.coerce.number().int().optional(),
  model: z.string().min(1).optional(),
});
export type PlanRoundRequest = z.infer<typeof planRoundQuery>;

export const exportRequest = z.strictObject({
  roundId: roundIdSchema,
  format: z.enum(['osworld', 'jsonl']),
  skills: z.string().min(1).optional().describe('a glob over skill ids, such as calc.*'),
  status: z.enum(['accepted']).default('accepted'),
  out: z
    .string()
    .min(1)
    .optional()
    .describe('a folder or .tar.gz path on the server; a default under FORGE_HOME'),
});
export type ExportRequest = z.infer<typeof exportRequest>;

export const taskStatusSchema = z.enum(['running', 'accepted', 'rejected', 'cancelled', 'failed']);

export const taskListQuery = z.strictObject({
  round: roundIdSchema.optional(),
  skill: skillIdSchema.optional(),
  status: taskStatusSchema.optional(),
  app: z
    .string()
    .regex(/^[a-z]+$/, 'an app name such as calc')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().min(1).optional().describe('nextCursor from the previous page'),
});
export type TaskListQuery = z.infer<typeof taskListQuery>;

export const artifactQuery = z.strictObject({
  role: z.enum(['initial', 'solved']),
  path: z.string().min(1).max(1024).describe('the artifact vmPath, as listed in the task detail'),
});

export const timelineQuery = z.strictObject({
  bucketSeconds: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86400)
    .optional(),
});

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), issues: z.array(z.unknown()).optional() }),
});
