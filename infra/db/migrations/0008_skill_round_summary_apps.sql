-- A task is written with no apps and updated with them once its scenario is known: the summary's
-- apps are the newest non-empty ones written, not the smallest ever seen (which was the empty list).
CREATE OR REPLACE FUNCTION forge_skill_summary_tasks() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  -- HAVING skips groups whose counts and apps did not change (an update of other columns), so no lock is taken.
  EXECUTE format($q$
    INSERT INTO skill_round_summary AS r (round_id, skill_id, apps, tasks, accepted, rejected, failed, running, cancelled)
    SELECT round_id, skill_id, min(apps) FILTER (WHERE s = 1 AND cardinality(apps) > 0), sum(s),
      coalesce(sum(s) FILTER (WHERE status = 'accepted'), 0), coalesce(sum(s) FILTER (WHERE status = 'rejected'), 0),
      coalesce(sum(s) FILTER (WHERE status = 'failed'), 0), coalesce(sum(s) FILTER (WHERE status = 'running'), 0),
      coalesce(sum(s) FILTER (WHERE status = 'cancelled'), 0)
    FROM (%s) d GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s) FILTER (WHERE status = 'accepted') <> 0 OR sum(s) FILTER (WHERE status = 'rejected') <> 0
      OR sum(s) FILTER (WHERE status = 'failed') <> 0 OR sum(s) FILTER (WHERE status = 'running') <> 0
      OR sum(s) FILTER (WHERE status = 'cancelled') <> 0
      OR min(apps) FILTER (WHERE s = 1) IS DISTINCT FROM min(apps) FILTER (WHERE s = -1)
    ORDER BY 1, 2
    ON CONFLICT (round_id, skill_id) DO UPDATE SET
      apps = coalesce(excluded.apps, r.apps),
      tasks = r.tasks + excluded.tasks, accepted = r.accepted + excluded.accepted,
      rejected = r.rejected + excluded.rejected, failed = r.failed + excluded.failed,
      running = r.running + excluded.running, cancelled = r.cancelled + excluded.cancelled
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM skill_round_summary WHERE tasks = 0 AND calls = 0 AND runs = 0
      AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_rebuild_skill_summary() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM skill_round_summary;
  INSERT INTO skill_round_summary (round_id, skill_id, apps, tasks, accepted, rejected, failed, running, cancelled,
      calls, usd, tokens, runs, success_sum)
    SELECT round_id, skill_id, min(apps) FILTER (WHERE cardinality(apps) > 0), sum(tasks), sum(accepted), sum(rejected), sum(failed), sum(running),
      sum(cancelled), sum(calls), sum(usd), sum(tokens), sum(runs), sum(success_sum)
    FROM (
      SELECT round_id, skill_id, apps, tasks, CASE WHEN status = 'accepted' THEN tasks ELSE 0 END AS accepted,
        CASE WHEN status = 'rejected' THEN tasks ELSE 0 END AS rejected,
        CASE WHEN status = 'failed' THEN tasks ELSE 0 END AS failed,
        CASE WHEN status = 'running' THEN tasks ELSE 0 END AS running,
        CASE WHEN status = 'cancelled' THEN tasks ELSE 0 END AS cancelled,
        0::bigint AS calls, 0::float8 AS usd, 0::bigint AS tokens, 0::bigint AS runs, 0::float8 AS success_sum
      FROM task_status_rollup
      UNION ALL
      SELECT round_id, skill_id, NULL, 0, 0, 0, 0, 0, 0, calls, usd, prompt_tokens + completion_tokens, 0, 0
      FROM llm_cost_rollup
      UNION ALL
      SELECT round_id, skill_id, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, runs, success_sum FROM student_result_rollup) x
    GROUP BY 1, 2;
END $$;
--> statement-breakpoint
SELECT forge_rebuild_skill_summary();
