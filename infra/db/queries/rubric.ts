import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * What a round's verification proved about its rubrics, from `tasks.rubric_stats`: wrong solutions
 * tried and killed per task (the kill rate must be 100% on accepted tasks; a wrong solution that
 * leaves the untouched state is failed but is no kill), kills by a discriminating check versus
 * kills that only see the task undone, correct alternatives and mutants, the share of checks
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
  /** Wrong solutions that leave the untouched state (no-op, save-unchanged): failed, not counted as kills. */
  wrongSameAsInitial: number;
  /** Kills by a check the untouched state passes, and kills only by checks it fails as well. */
  wrongDiscriminating: number;
  wrongUndone: number;
  rightTried: number;
  rightPassed: number;
  /** Alternatives that leave exactly the oracle's files (they prove no new state). */
  rightSameAsOracle: number;
  rejectedForRight: number;
  mutantsTried: number;
  mutantsKilled: number;
  mutantsDiscriminating: number;
  mutantsUndone: number;
  rejectedForMutant: number;
  /** Proved tasks with an oracle edit whose near misses only the task's own checks caught (no guard saw them). */
  tasksWithUnguardedEdit: number;
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
    rightTried: number;
    rightPassed: number;
    mutantsTried: number;
    mutantsDiscriminating: number;
    mutantsUndone: number;
    /** Tasks rejected because a mutant passed. */
    mutantSurvived: number;
  }[];
  exportPassed: number;
  exportMismatch: number;
  survivors: { name: string; skillId: string; tasks: number }[];
  mutantSurvivors: { name: string; skillId: string; tasks: number }[];
}

const num = (v: unknown) => Number(v ?? 0);
/** A rubric_stats counter, 0 on rows written before it existed. */
const stat = (path: string) => sql.raw(`coalesce((rubric_stats${path})::int, 0)`);

export async function rubricReport(db: Database['db'], roundId: string): Promise<RubricRoundReport> {
  const totals = (
    await db.execute<Record<string, unknown>>(sql`
    SELECT count(*) AS tasks,
           count(rubric_stats) AS proved,
           count(*) FILTER (WHERE status = 'accepted') AS accepted,
           coalesce(sum(${stat("->>'wrongTried'")} - ${stat("->>'wrongSameAsInitial'")}) FILTER (WHERE status = 'accepted'), 0) AS accepted_tried,
           coalesce(sum((rubric_stats->>'wrongKilled')::int) FILTER (WHERE status = 'accepted'), 0) AS accepted_killed,
           coalesce(sum(${stat("->>'wrongSameAsInitial'")}), 0) AS wrong_same,
           coalesce(sum(${stat("->>'wrongDiscriminating'")}), 0) AS wrong_disc,
           coalesce(sum(${stat("->>'wrongUndone'")}), 0) AS wrong_undone,
           coalesce(sum(${stat("->>'rightTried'")}), 0) AS right_tried,
           coalesce(sum(${stat("->>'rightPassed'")}), 0) AS right_passed,
           coalesce(sum(${stat("->>'rightSameAsOracle'")}), 0) AS right_same,
           count(*) FILTER (WHERE reject_reason = 'rubric_rejects_right') AS rejected_for_right,
           coalesce(sum(${stat("->'mutants'->>'tried'")}), 0) AS mutants_tried,
           coalesce(sum(${stat("->'mutants'->>'killed'")}), 0) AS mutants_killed,
           coalesce(sum(${stat("->'mutants'->>'discriminating'")}), 0) AS mutants_disc,
           coalesce(sum(${stat("->'mutants'->>'undone'")}), 0) AS mutants_undone,
           count(*) FILTER (WHERE reject_reason = 'rubric_accepts_mutant') AS rejected_for_mutant,
           count(*) FILTER (WHERE jsonb_array_length(coalesce(rubric_stats->'mutants'->'editsWithoutDiscriminatingKill', '[]'::jsonb)) > 0) AS unguarded,
           coalesce(sum(${stat("->>'wrongTried'")} - ${stat("->>'wrongSameAsInitial'")}), 0) AS tried,
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
           sum((rubric_stats->>'wrongKilled')::int)::float8 / nullif(sum(${stat("->>'wrongTried'")} - ${stat("->>'wrongSameAsInitial'")}), 0) AS kill_rate,
           coalesce(sum(${stat("->>'rightTried'")}), 0) AS right_tried,
           coalesce(sum(${stat("->>'rightPassed'")}), 0) AS right_passed,
           coalesce(sum(${stat("->'mutants'->>'tried'")}), 0) AS mutants_tried,
           coalesce(sum(${stat("->'mutants'->>'discriminating'")}), 0) AS mutants_disc,
           coalesce(sum(${stat("->'mutants'->>'undone'")}), 0) AS mutants_undone,
           count(*) FILTER (WHERE reject_reason = 'rubric_accepts_mutant') AS mutant_survived,
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
  const mutantSurvivors = await db.execute<Record<string, unknown>>(sql`
    SELECT m AS name, t.skill_id, count(*) AS tasks
    FROM tasks t, jsonb_array_elements_text(t.rubric_stats->'mutants'->'survivors') m
    WHERE t.round_id = ${roundId}
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
    wrongSameAsInitial: num(totals.wrong_same),
    wrongDiscriminating: num(totals.wrong_disc),
    wrongUndone: num(totals.wrong_undone),
    rightTried: num(totals.right_tried),
    rightPassed: num(totals.right_passed),
    rightSameAsOracle: num(totals.right_same),
    rejectedForRight: num(totals.rejected_for_right),
    mutantsTried: num(totals.mutants_tried),
    mutantsKilled: num(totals.mutants_killed),
    mutantsDiscriminating: num(totals.mutants_disc),
    mutantsUndone: num(totals.mutants_undone),
    rejectedForMutant: num(totals.rejected_for_mutant),
    tasksWithUnguardedEdit: num(totals.unguarded),
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
      rightTried: num(r.right_tried),
      rightPassed: num(r.right_passed),
      mutantsTried: num(r.mutants_tried),
      mutantsDiscriminating: num(r.mutants_disc),
      mutantsUndone: num(r.mutants_undone),
      mutantSurvived: num(r.mutant_survived),
    })),
    survivors: survivors.rows.map((r) => ({
      name: String(r.name),
      skillId: String(r.skill_id),
      tasks: num(r.tasks),
    })),
    mutantSurvivors: mutantSurvivors.rows.map((r) => ({
      name: String(r.name),
      skillId: String(r.skill_id),
      tasks: num(r.tasks),
    })),
  };
}
