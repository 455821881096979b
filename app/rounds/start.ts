import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { roundSettingsSchema } from '../../activities/roundSettings.ts';
import { roundSkills, rounds, skills } from '../../infra/db/schema.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import { globProblem, isGlob, matchGlob } from '../../infra/skillGlob.ts';
import { type DepthPlanRow, depthMixSchema } from '../../skills/depth.ts';
import { levelMixSchema } from '../../skills/levels.ts';
import { readSkillLibrary } from '../../skills/load.ts';
import { SpecStore } from '../../skills/store.ts';
import { roundWorkflowId } from '../../workflows/round.ts';
import type { RoundDeps } from './deps.ts';
import { applyDepthChoice } from './depthPlan.ts';
import { launchRoundWorkflow } from './launch.ts';

export type { RoundDeps };

export const roundIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'round ids are lowercase letters, digits and dashes, at most 48');

/**
 * How many skill workflows run at once and how many tasks each has in flight, unless a round says
 * otherwise. Measured on 2 cores (BENCHMARKS.md, session 8): 16 × 6 gave 45 accepted tasks/s where
 * 8 × 2 gave 36–40 (batches of two cost Temporal 7.3 ms of CPU per task, batches of six 4.3), and
 * 40 × 6 was no faster with three times the task latency.
 */
export const ROUND_DEFAULTS = { window: 16, taskConcurrency: 6 } as const;

export const startRoundInputSchema = z
  .object({
    roundId: roundIdSchema.optional(),
    /** Skill ids or globs (`calc.*`); empty = every active skill. */
    skills: z.array(z.string().min(1)).default([]),
    /** Per-skill task counts (an allocation plan); overrides tasksPerSkill for those skills. */
    allocation: z.record(z.string(), z.number().int().min(0)).optional(),
    tasksPerSkill: z.number().int().min(1).max(10_000).default(3),
    budgetUsd: z.number().positive().optional(),
    window: z.number().int().min(1).max(1000).default(ROUND_DEFAULTS.window),
    taskConcurrency: z.number().int().min(1).max(64).default(ROUND_DEFAULTS.taskConcurrency),
    seed: z.number().int().min(0).default(1),
    reservationUsd: z.number().min(0).optional(),
    pauseWindow: z.number().int().min(5).optional(),
    pauseRejectRate: z.number().min(0).max(1).optional(),
    taxonomyVersion: z.number().int().min(1).optional(),
    fromFeedbackRound: z.string().optional(),
    kind: z.enum(['generation', 'dry_run']).default('generation'),
    maxHistoryEvents: z.number().int().min(100).optional(),
    /** Shares of instruction levels (explicit / natural / goal); default 20 / 50 / 30. */
    levelMix: levelMixSchema.optional(),
    /**
     * Shares of the round's tasks by depth, e.g. {"1": 50, "2-3": 35, "4+": 15}: the total stays,
     * the tasks move between skills (skills/depth.ts). Default: every skill its own count.
     */
    depthMix: depthMixSchema.optional(),
    /** Only skills whose tasks need at least this many distinct features. */
    minDepth: z.number().int().min(1).max(64).optional(),
  })
  .strict();
export type StartRoundInput = z.input<typeof startRoundInputSchema>;

/**
 * Picks skills by exact id (any status: naming a skill is deliberate) or by glob (active skills
 * only); no selector = every active skill. An unmatched selector is an error, not silence.
 */
export function selectSkills(known: { id: string; status: string }[], selectors: string[]): string[] {
  const active = known.filter((s) => s.status === 'active').map((s) => s.id);
  if (selectors.length === 0) return [...active].sort();
  const picked = new Set<string>();
  for (const sel of selectors) {
    const problem = isGlob(sel) ? globProblem(sel) : null;
    if (problem) throw new RoundRequestError(`skill glob "${sel.slice(0, 200)}" ${problem}`, 'invalid');
    const hits = isGlob(sel)
      ? active.filter((id) => matchGlob(sel, id))
      : known.some((s) => s.id === sel)
        ? [sel]
        : [];
    if (hits.length === 0) throw new RoundRequestError(`no skill matches "${sel}"`, 'invalid');
    for (const h of hits) picked.add(h);
  }
  return [...picked].sort();
}

export function newRoundId(): string {
  const d = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  return `r${d}-${randomBytes(3).toString('hex')}`;
}

/**
 * Records the round and its skill plan in Postgres (file specs synced in as versions first), then
 * starts the round workflow. The plan lives in Postgres so rounds of 10,000 skills stay cheap.
 */
export async function startRound(
  deps: RoundDeps,
  raw: StartRoundInput,
): Promise<{
  roundId: string;
  workflowId: string;
  skills: number;
  tasks: number;
  depthPlan?: DepthPlanRow[];
}> {
  const input = startRoundInputSchema.parse(raw);
  const { db } = deps.database;
  const specs = new SpecStore(deps.database);
  // A broken spec file blocks a round over the whole library; a round that names its skills goes on.
  const library = readSkillLibrary();
  if (library.errors.length > 0 && input.skills.length === 0 && !input.allocation) {
    throw new Error(library.errors.map((e) => e.message).join('\n'));
  }
  await specs.syncLibrary(library.specs);
  const active = await db
    .select({ id: skills.id, version: skills.currentVersion, status: skills.status })
    .from(skills);
  const byId = new Map(active.map((s) => [s.id, s]));
  const chosen = input.allocation
    ? Object.entries(input.allocation)
        .filter(([, n]) => n > 0)
        .map(([id]) => id)
        .sort()
    : selectSkills(active, input.skills);
  for (const id of chosen)
    if (!byId.has(id)) throw new RoundRequestError(`allocation names unknown skill "${id}"`, 'invalid');
  if (chosen.length === 0) throw new RoundRequestError('the round selects no skills', 'invalid');

  const roundId = input.roundId ?? newRoundId();
  const existing = await db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, roundId));
  if (existing.length > 0) throw new RoundRequestError(`round ${roundId} already exists`, 'conflict');
  const settings = roundSettingsSchema.parse({
    tasksPerSkill: input.tasksPerSkill,
    window: input.window,
    taskConcurrency: input.taskConcurrency,
    reservationUsd: input.reservationUsd,
    pauseWindow: input.pauseWindow,
    pauseRejectRate: input.pauseRejectRate,
    levelMix: input.levelMix,
    depthMix: input.depthMix,
    minDepth: input.minDepth,
    models: {
      default: deps.config.llmApiKey ? deps.config.FORGE_LLM_MODEL : 'offline',
      judge: deps.config.llmApiKey ? deps.config.judgeModel : 'offline',
    },
  });
  const workflowId = roundWorkflowId(roundId);
  const { entries, depthPlan } = await applyDepthChoice(
    db,
    chosen.map((skillId) => ({
      skillId,
      specVersion: byId.get(skillId)!.version,
      tasks: input.allocation?.[skillId] ?? input.tasksPerSkill,
    })),
    input,
  );
  const plan = entries.map((e, position) => ({ roundId, position, ...e }));
  await db.transaction(async (tx) => {
    await tx.insert(rounds).values({
      id: roundId,
      status: 'running',
      kind: input.kind,
      taxonomyVersion: input.taxonomyVersion ?? null,
      fromFeedbackRound: input.fromFeedbackRound ?? null,
      seed: input.seed,
      budgetUsd: input.budgetUsd ?? null,
      settings,
      workflowId,
    });
    for (let i = 0; i < plan.length; i += 1000) await tx.insert(roundSkills).values(plan.slice(i, i + 1000));
  });
  await launchRoundWorkflow(
    deps,
    { roundId, workflowId, settings },
    { maxHistoryEvents: input.maxHistoryEvents },
  );
  return {
    roundId,
    workflowId,
    skills: plan.length,
    tasks: plan.reduce((a, p) => a + p.tasks, 0),
    ...(depthPlan ? { depthPlan } : {}),
  };
}
