import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * What a round's verification proved about its rubrics, from `tasks.rubric_stats`: wrong solutions
 * tried and killed per task (the kill rate must be 100% on accepted tasks), the share of checks
 * that are "nothing else changed" invariants, and the share of infeasible tasks.
 */
export interface RubricRoundReport {
  tasks: number;
  proved: number;
  accepted: number;
  acceptedWrongTried: number;
  acceptedWrongKilled: number;
  wrongTried: number;
  wrongKilled: number;
  rejectedForWrong: number;
  checks: number;
  invariantChecks: number;
  infeasible: number;
  skills: {
    skillId: string;
    tasks: number;
    accepted: number;
    wrongPerTask: number;
    declaredPerTask: number;
    killRate: number | null;
    invariantShare: number | null;
    /** The export gate: tasks it graded in their shipped form and passed, and tasks it rejected. */
    exportPassed: number;
    exportMismatch: number;
  }[];
  exportPassed: number;
  exportMismatch: number;
  survivors: { name: string; skillId: string; tasks: number }[];
}

const num = (v: unknown) => Number(v ?? 0);

export async function rubricReport(db: Database['db'], roundId: string): Promise<RubricRoundReport> {
  const totals = (
    await db.execute<Record<string, unknown>>(sql`
    SELECT count(*) AS tasks,
           count(rubric_stats) AS proved,
           count(*) FILTER (WHERE status = 'accepted') AS accepted,
           coalesce(sum((rubric_stats->>'wrongTried')::int) FILTER (WHERE status = 'accepted'), 0) AS accepted_tried,
           coalesce(sum((rubric_stats->>'wrongKilled')::int) FILTER (WHERE status = 'accepted'), 0) AS accepted_killed,
           coalesce(sum((rubric_stats->>'wrongTried')::int), 0) AS tried,
           coalesce(sum((rubric_stats->>'wrongKilled')::int), 0) AS killed,
           count(*) FILTER (WHERE reject_reason = 'rubric_accepts_wrong') AS rejected_for_wrong,
           coalesce(sum((rubric_stats->>'checks')::int), 0) AS checks,
           coalesce(sum((rubric_stats->>'invariantChecks')::int), 0) AS invariant_checks,
           count(*) FILTER (WHERE rubric_stats->>'expected' = 'infeasible') AS infeasible,
           count(*) FILTER (WHERE rubric_stats ? 'exportStates') AS export_passed,
           count(*) FILTER (WHERE reject_reason = 'export_mismatch') AS export_mismatch
    FROM tasks WHERE round_id = ${roundId}`)
  ).rows[0]!;
  const skills = await db.execute<Record<string, unknown>>(sql`
    SELECT skill_id, count(*) AS tasks, count(*) FILTER (WHERE status = 'accepted') AS accepted,
           avg((rubric_stats->>'wrongTried')::int) AS wrong_per_task,
           avg((rubric_stats->>'wrongDeclared')::int) AS declared_per_task,
           sum((rubric_stats->>'wrongKilled')::int)::float8 / nullif(sum((rubric_stats->>'wrongTried')::int), 0) AS kill_rate,
           sum((rubric_stats->>'invariantChecks')::int)::float8 / nullif(sum((rubric_stats->>'checks')::int), 0) AS invariant_share,
           count(*) FILTER (WHERE rubric_stats ? 'exportStates') AS export_passed,
           count(*) FILTER (WHERE reject_reason = 'export_mismatch') AS export_mismatch
    FROM tasks WHERE round_id = ${roundId}
    GROUP BY skill_id ORDER BY skill_id`);
  const survivors = await db.execute<Record<string, unknown>>(sql`
    SELECT w->>'name' AS name, t.skill_id, count(*) AS tasks
    FROM tasks t, jsonb_array_elements(t.rubric_stats->'wrong') w
    WHERE t.round_id = ${roundId} AND (w->>'killed')::boolean = false
    GROUP BY 1, 2 ORDER BY 3 DESC, 2, 1 LIMIT 50`);
  return {
    tasks: num(totals.tasks),
    proved: num(totals.proved),
    accepted: num(totals.accepted),
    acceptedWrongTried: num(totals.accepted_tried),
    acceptedWrongKilled: num(totals.accepted_killed),
    wrongTried: num(totals.tried),
    wrongKilled: num(totals.killed),
    rejectedForWrong: num(totals.rejected_for_wrong),
    checks: num(totals.checks),
    invariantChecks: num(totals.invariant_checks),
    infeasible: num(totals.infeasible),
    exportPassed: num(totals.export_passed),
    exportMismatch: num(totals.export_mismatch),
    skills: skills.rows.map((r) => ({
      skillId: String(r.skill_id),
      tasks: num(r.tasks),
      accepted: num(r.accepted),
      wrongPerTask: num(r.wrong_per_task),
      declaredPerTask: num(r.declared_per_task),
      killRate: r.kill_rate === null ? null : num(r.kill_rate),
      invariantShare: r.invariant_share === null ? null : num(r.invariant_share),
      exportPassed: num(r.export_passed),
      exportMismatch: num(r.export_mismatch),
    })),
    survivors: survivors.rows.map((r) => ({
      name: String(r.name),
      skillId: String(r.skill_id),
      tasks: num(r.tasks),
    })),
  };
}
