import { z } from 'zod';
import { FORMAT_NAMES, type FormatName } from '../export/exportPack.ts';
import { skillSortKeys } from '../infra/db/queries/costs.ts';
import { globProblem } from '../infra/skillGlob.ts';
import { depthMixSchema } from '../skills/depth.ts';
import { levelMixSchema } from '../skills/levels.ts';

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

export const limitQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const comparisonQuery = limitQuery.extend({
  upTo: roundIdSchema.optional().describe('only this round and the rounds created before it'),
});

/** A skill id or glob, capped so matching stays cheap (infra/skillGlob.ts). */
const skillGlob = z.string().superRefine((glob, ctx) => {
  const problem = globProblem(glob);
  if (problem) ctx.addIssue({ code: 'custom', message: `skill glob ${problem}` });
});

/** The round ids a round can be started with (they become Temporal workflow ids and folder names). */
export const newRoundIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'lowercase letters, digits and dashes, at most 48 characters');

/** Start a generation round: the same choices as `forge round start`. */
export const startRoundRequest = z.strictObject({
  roundId: newRoundIdSchema.optional(),
  skills: z.array(skillGlob).min(1).optional().describe('skill ids or globs such as calc.*'),
  allocation: z
    .record(skillIdSchema, z.number().int().min(0).max(10_000))
    .optional()
    .describe('tasks per skill id; overrides skills and tasksPerSkill'),
  fromFeedbackRound: roundIdSchema
    .optional()
    .describe('plan tasks per skill from that round’s student feedback (see GET /api/rounds/plan)'),
  taxonomyVersion: z.number().int().min(1).optional(),
  tasksPerSkill: z.number().int().min(1).max(10_000).optional(),
  budgetUsd: z.number().positive().optional(),
  window: z.number().int().min(1).max(1000).optional().describe('skill workflows at once'),
  taskConcurrency: z.number().int().min(1).max(64).optional().describe('tasks in flight per skill'),
  seed: z.number().int().min(0).optional(),
  levelMix: levelMixSchema
    .optional()
    .describe(
      'shares of instruction levels in percent, e.g. {explicit: 20, natural: 50, goal: 30} (the default)',
    ),
  depthMix: depthMixSchema
    .optional()
    .describe(
      'shares of the round’s tasks by depth (distinct features a task needs), e.g. {"1": 50, "2-3": 35, "4+": 15}; the total stays, tasks move between skills (default: every skill its own count)',
    ),
  minDepth: z.number().int().min(1).max(64).optional().describe('only skills of at least this depth'),
});
export type StartRoundRequest = z.infer<typeof startRoundRequest>;

/** The next round's tasks per skill from a round's student feedback; nothing is spent. */
export const planRoundQuery = z.strictObject({
  fromFeedbackRound: roundIdSchema,
  totalTasks: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe('tasks in the next round (default: as many as the feedback round)'),
  taxonomyVersion: z.coerce.number().int().min(1).optional(),
});
export type PlanRoundRequest = z.infer<typeof planRoundQuery>;

export const exportRequest = z.strictObject({
  roundId: roundIdSchema,
  format: z.enum(FORMAT_NAMES as [FormatName, ...FormatName[]]),
  skills: skillGlob.optional().describe('a glob over skill ids, such as calc.*'),
  status: z.enum(['accepted']).default('accepted'),
  files: z.enum(['ship', 'url']).default('ship'),
  archive: z.boolean().default(false).describe('write one .tar.gz instead of a folder'),
});
export type ExportRequest = z.infer<typeof exportRequest>;

export const exportParams = z.object({
  exportId: z.string().regex(/^exp-[a-z0-9-]{1,80}$/, 'an export id as returned by POST /api/exports'),
});

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

export const skillPageQuery = z.strictObject({
  sort: z.enum(skillSortKeys).default('key'),
  order: z.enum(['asc', 'desc']).default('asc'),
  q: z.string().trim().max(200).optional().describe('substring of the skill id, an app or the title'),
  limit: z.coerce.number().int().min(1).max(10_000).default(500),
  offset: z.coerce.number().int().min(0).default(0),
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
