import { eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { roundSkills, skills, studentResults, tasks } from '../infra/db/schema.ts';
import { type Classification, classify } from './classify.ts';
import { placeOf } from './library.ts';
import { wilsonInterval } from './wilson.ts';

export interface GroupStats {
  key: string;
  attempts: number;
  successSum: number;
  passRate: number;
  wilsonLow: number;
  wilsonHigh: number;
  meanSteps: number | null;
}

export interface SkillStats extends GroupStats, Classification {
  skillId: string;
  app: string;
  category: string;
  difficulty: number;
  /** Tasks of this skill in the round that the oracle solved (accepted). */
  acceptedTasks: number;
  /** Distinct tasks the student attempted. */
  tasksAttempted: number;
}

export interface RoundStats {
  roundId: string;
  skills: SkillStats[];
  categories: GroupStats[];
  apps: GroupStats[];
}

export interface ResultRow {
  taskId: string;
  skillId: string;
  success: number;
  steps: number | null;
}

export interface SkillInfo {
  skillId: string;
  apps: string[];
  category: string;
  difficulty: number;
  acceptedTasks: number;
}

class Acc {
  attempts = 0;
  successSum = 0;
  stepSum = 0;
  stepCount = 0;
  add(r: ResultRow) {
    this.attempts++;
    this.successSum += r.success;
    if (r.steps !== null) {
      this.stepSum += r.steps;
      this.stepCount++;
    }
  }
  stats(key: string): GroupStats {
    const ci = wilsonInterval(this.successSum, this.attempts);
    return {
      key,
      attempts: this.attempts,
      successSum: this.successSum,
      passRate: this.attempts ? this.successSum / this.attempts : 0,
      wilsonLow: ci.low,
      wilsonHigh: ci.high,
      meanSteps: this.stepCount ? this.stepSum / this.stepCount : null,
    };
  }
}

/** Per skill, category and app: attempts, pass rate with its Wilson interval, mean steps; skills classified. */
export function computeStats(roundId: string, info: SkillInfo[], rows: ResultRow[]): RoundStats {
  const bySkill = new Map<string, { acc: Acc; perTask: Map<string, { runs: number; successSum: number }> }>();
  for (const s of info) bySkill.set(s.skillId, { acc: new Acc(), perTask: new Map() });
  for (const r of rows) {
    const s = bySkill.get(r.skillId);
    if (!s) continue;
    s.acc.add(r);
    const t = s.perTask.get(r.taskId) ?? { runs: 0, successSum: 0 };
    t.runs++;
    t.successSum += r.success;
    s.perTask.set(r.taskId, t);
  }
  const cats = new Map<string, Acc>();
  const apps = new Map<string, Acc>();
  const skillStats: SkillStats[] = [];
  for (const s of info) {
    const place = placeOf(s);
    const { acc, perTask } = bySkill.get(s.skillId)!;
    const catKey = `${place.app}/${place.category}`;
    for (const [map, key] of [
      [cats, catKey],
      [apps, place.app],
    ] as const) {
      const a = map.get(key) ?? new Acc();
      a.attempts += acc.attempts;
      a.successSum += acc.successSum;
      a.stepSum += acc.stepSum;
      a.stepCount += acc.stepCount;
      map.set(key, a);
    }
    const c = classify({
      attempts: acc.attempts,
      successSum: acc.successSum,
      difficulty: s.difficulty,
      acceptedTasks: s.acceptedTasks,
      perTask: [...perTask.values()],
    });
    skillStats.push({
      ...acc.stats(s.skillId),
      ...c,
      skillId: s.skillId,
      app: place.app,
      category: place.category,
      difficulty: s.difficulty,
      acceptedTasks: s.acceptedTasks,
      tasksAttempted: perTask.size,
    });
  }
  const groups = (m: Map<string, Acc>) =>
    [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, a]) => a.stats(k));
  return {
    roundId,
    skills: skillStats.sort((a, b) => a.skillId.localeCompare(b.skillId)),
    categories: groups(cats),
    apps: groups(apps),
  };
}

/** Statistics of one round's student results, over every skill the round ran. */
export async function roundStats(database: Database, roundId: string): Promise<RoundStats> {
  const { db } = database;
  const planned = await db
    .select({
      skillId: roundSkills.skillId,
      apps: skills.apps,
      category: skills.category,
      difficulty: skills.difficulty,
    })
    .from(roundSkills)
    .innerJoin(skills, eq(skills.id, roundSkills.skillId))
    .where(eq(roundSkills.roundId, roundId));
  if (planned.length === 0) throw new Error(`round ${roundId} does not exist or ran no skills`);
  const taskRows = await db
    .select({ skillId: tasks.skillId, status: tasks.status })
    .from(tasks)
    .where(eq(tasks.roundId, roundId));
  const accepted = new Map<string, number>();
  for (const t of taskRows)
    if (t.status === 'accepted') accepted.set(t.skillId, (accepted.get(t.skillId) ?? 0) + 1);
  const info: SkillInfo[] = planned.map((p) => ({
    skillId: p.skillId,
    apps: p.apps,
    category: p.category ?? 'general',
    difficulty: p.difficulty,
    acceptedTasks: accepted.get(p.skillId) ?? 0,
  }));
  const rows = await db
    .select({
      taskId: studentResults.taskId,
      skillId: tasks.skillId,
      success: studentResults.success,
      steps: studentResults.steps,
    })
    .from(studentResults)
    .innerJoin(tasks, eq(tasks.id, studentResults.taskId))
    .where(eq(studentResults.roundId, roundId));
  return computeStats(roundId, info, rows);
}
