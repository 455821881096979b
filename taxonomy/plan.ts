import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { expansionRuns, roundSkills, rounds } from '../infra/db/schema.ts';
import { RoundRequestError } from '../infra/requestError.ts';
import { type AllocationEntry, type AllocationInput, allocate, allocationDefaults } from './allocate.ts';
import { roundStats } from './stats.ts';
import { getTaxonomy, latestTaxonomy } from './store.ts';
import { skillIndex } from './tree.ts';

export interface AllocationPlan {
  fromRoundId: string;
  taxonomyVersion: number;
  totalTasks: number;
  entries: AllocationEntry[];
  /** What startRound takes: tasks per skill id (zero-task skills left out). */
  allocation: Record<string, number>;
}

/**
 * The taxonomy version a plan from round R is for: the newest completed expansion run from R, else
 * the version R itself ran on, else the newest version.
 */
export async function planTaxonomyVersion(database: Database, roundId: string): Promise<number> {
  const { db } = database;
  const run = (
    await db
      .select({ v: expansionRuns.taxonomyVersion })
      .from(expansionRuns)
      .where(and(eq(expansionRuns.fromRoundId, roundId), eq(expansionRuns.status, 'completed')))
      .orderBy(desc(expansionRuns.finishedAt))
      .limit(1)
  )[0];
  if (run?.v) return run.v;
  const round = (
    await db.select({ v: rounds.taxonomyVersion }).from(rounds).where(eq(rounds.id, roundId))
  )[0];
  if (!round) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
  if (round.v) return round.v;
  const latest = await latestTaxonomy(database);
  if (!latest) throw new Error('no taxonomy version is recorded yet: run forge taxonomy show once');
  return latest.version;
}

/**
 * The next round's tasks per skill from round R's student feedback: the skills R ran (by their
 * class and pass rate, none for those the taxonomy now retires) plus the taxonomy's new candidates.
 * Nothing is spent: it reads Postgres only.
 */
export async function planFromFeedback(
  database: Database,
  roundId: string,
  opts: {
    taxonomyVersion?: number;
    totalTasks?: number;
    candidateShare?: number;
    minCandidateTasks?: number;
  } = {},
): Promise<AllocationPlan> {
  const stats = await roundStats(database, roundId);
  const taxonomyVersion = opts.taxonomyVersion ?? (await planTaxonomyVersion(database, roundId));
  const index = skillIndex((await getTaxonomy(database, taxonomyVersion)).tree);
  const planned = await database.db
    .select({ skillId: roundSkills.skillId, tasks: roundSkills.tasks })
    .from(roundSkills)
    .where(eq(roundSkills.roundId, roundId));
  const previous = new Map(planned.map((p) => [p.skillId, p.tasks]));
  const totalTasks = opts.totalTasks ?? planned.reduce((a, p) => a + p.tasks, 0);
  const ran = new Set(stats.skills.map((s) => s.skillId));
  const inputs: AllocationInput[] = stats.skills.map((s) => ({
    skillId: s.skillId,
    status: index.get(s.skillId)?.status ?? 'active',
    class: s.class,
    passRate: s.passRate,
    previousTasks: previous.get(s.skillId),
  }));
  for (const s of index.values())
    if (s.status === 'candidate' && !ran.has(s.id)) inputs.push({ skillId: s.id, status: 'candidate' });
  const entries = allocate(inputs, totalTasks, {
    candidateShare: opts.candidateShare ?? allocationDefaults.candidateShare,
    minCandidateTasks: opts.minCandidateTasks ?? allocationDefaults.minCandidateTasks,
  });
  const allocation = Object.fromEntries(entries.filter((e) => e.tasks > 0).map((e) => [e.skillId, e.tasks]));
  return { fromRoundId: roundId, taxonomyVersion, totalTasks, entries, allocation };
}
