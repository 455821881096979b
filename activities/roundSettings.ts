import { z } from 'zod';
import { depthMixSchema } from '../skills/depth.ts';
import { DEFAULT_LEVEL_MIX, levelMixSchema } from '../skills/levels.ts';

/** Per-round settings, stored with the round and read by the gate and the workflows. */
export const roundSettingsSchema = z.object({
  tasksPerSkill: z.number().int().min(1).max(10_000),
  window: z.number().int().min(1).max(1000).describe('skill workflows running at once'),
  taskConcurrency: z.number().int().min(1).max(64).describe('tasks in flight per skill workflow'),
  /** What one task in flight may still cost, held back from the budget until it finishes. */
  reservationUsd: z.number().min(0).default(0.01),
  pauseWindow: z
    .number()
    .int()
    .min(5)
    .default(50)
    .describe('the last N finished tasks the error rate is taken over'),
  pauseRejectRate: z.number().min(0).max(1).default(0.6),
  models: z.record(z.string(), z.string()).default({}),
  /** Shares of instruction levels explicit / natural / goal, in percent. */
  levelMix: levelMixSchema.default(DEFAULT_LEVEL_MIX),
  /** The depth mix and minimum depth the round was planned with (absent: none; skills/depth.ts). */
  depthMix: depthMixSchema.optional(),
  minDepth: z.number().int().min(1).optional(),
});
export type RoundSettings = z.infer<typeof roundSettingsSchema>;
