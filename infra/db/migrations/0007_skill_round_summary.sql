CREATE TABLE "skill_round_summary" (
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"apps" text[],
	"tasks" bigint DEFAULT 0 NOT NULL,
	"accepted" bigint DEFAULT 0 NOT NULL,
	"rejected" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"running" bigint DEFAULT 0 NOT NULL,
	"cancelled" bigint DEFAULT 0 NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"usd" double precision DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"success_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "skill_round_summary_round_id_skill_id_pk" PRIMARY KEY("round_id","skill_id")
);
--> statement-breakpoint
-- Kept current by statement-level triggers beside those of 0005: each statement's rows are grouped
-- per (round, skill) first, so a bulk write touches each summary row once.
CREATE OR REPLACE FUNCTION forge_skill_summary_calls() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO skill_round_summary AS r (round_id, skill_id, calls, usd, tokens)
    SELECT round_id, coalesce(skill_id, ''), sum(s), sum(s * usd), sum(s * (prompt_tokens + completion_tokens))
    FROM (%s) d WHERE round_id IS NOT NULL GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s * usd) <> 0 OR sum(s * (prompt_tokens + completion_tokens)) <> 0 ORDER BY 1, 2
    ON CONFLICT (round_id, skill_id) DO UPDATE SET
      calls = r.calls + excluded.calls, usd = r.usd + excluded.usd, tokens = r.tokens + excluded.tokens
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM skill_round_summary WHERE tasks = 0 AND calls = 0 AND runs = 0
      AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER llm_calls_skill_summary_insert AFTER INSERT ON llm_calls REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_calls();
--> statement-breakpoint
CREATE TRIGGER llm_calls_skill_summary_update AFTER UPDATE ON llm_calls REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_calls();
--> statement-breakpoint
CREATE TRIGGER llm_calls_skill_summary_delete AFTER DELETE ON llm_calls REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_calls();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_skill_summary_tasks() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  -- HAVING skips groups whose counts did not change (an update of other columns), so no lock is taken.
  EXECUTE format($q$
    INSERT INTO skill_round_summary AS r (round_id, skill_id, apps, tasks, accepted, rejected, failed, running, cancelled)
    SELECT round_id, skill_id, min(apps), sum(s),
      coalesce(sum(s) FILTER (WHERE status = 'accepted'), 0), coalesce(sum(s) FILTER (WHERE status = 'rejected'), 0),
      coalesce(sum(s) FILTER (WHERE status = 'failed'), 0), coalesce(sum(s) FILTER (WHERE status = 'running'), 0),
      coalesce(sum(s) FILTER (WHERE status = 'cancelled'), 0)
    FROM (%s) d GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s) FILTER (WHERE status = 'accepted') <> 0 OR sum(s) FILTER (WHERE status = 'rejected') <> 0
      OR sum(s) FILTER (WHERE status = 'failed') <> 0 OR sum(s) FILTER (WHERE status = 'running') <> 0
      OR sum(s) FILTER (WHERE status = 'cancelled') <> 0
    ORDER BY 1, 2
    ON CONFLICT (round_id, skill_id) DO UPDATE SET
      apps = CASE WHEN r.apps IS NULL THEN excluded.apps ELSE least(r.apps, excluded.apps) END,
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
CREATE TRIGGER tasks_skill_summary_insert AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_tasks();
--> statement-breakpoint
CREATE TRIGGER tasks_skill_summary_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_tasks();
--> statement-breakpoint
CREATE TRIGGER tasks_skill_summary_delete AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_tasks();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_skill_summary_students() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO skill_round_summary AS x (round_id, skill_id, runs, success_sum)
    SELECT d.round_id, coalesce(t.skill_id, ''), sum(d.s), sum(d.s * d.success)
    FROM (%s) d LEFT JOIN tasks t ON t.id = d.task_id GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (round_id, skill_id) DO UPDATE SET
      runs = x.runs + excluded.runs, success_sum = x.success_sum + excluded.success_sum
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM skill_round_summary WHERE tasks = 0 AND calls = 0 AND runs = 0
      AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER student_results_skill_summary_insert AFTER INSERT ON student_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_students();
--> statement-breakpoint
CREATE TRIGGER student_results_skill_summary_update AFTER UPDATE ON student_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_students();
--> statement-breakpoint
CREATE TRIGGER student_results_skill_summary_delete AFTER DELETE ON student_results REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_skill_summary_students();
--> statement-breakpoint
-- The summary from the finer rollups: the same numbers, far fewer rows to read.
CREATE OR REPLACE FUNCTION forge_rebuild_skill_summary() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM skill_round_summary;
  INSERT INTO skill_round_summary (round_id, skill_id, apps, tasks, accepted, rejected, failed, running, cancelled,
      calls, usd, tokens, runs, success_sum)
    SELECT round_id, skill_id, min(apps), sum(tasks), sum(accepted), sum(rejected), sum(failed), sum(running),
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
-- The rebuild (used after bulk loads with triggers off) now fills the summary too.
CREATE OR REPLACE FUNCTION forge_rebuild_cost_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM llm_cost_rollup;
  DELETE FROM llm_cost_minute;
  DELETE FROM task_status_rollup;
  DELETE FROM task_accepted_minute;
  DELETE FROM student_result_rollup;
  INSERT INTO llm_cost_rollup (round_id, skill_id, node_id, provider, model, calls, cache_hits, usd,
      prompt_tokens, cached_tokens, completion_tokens, reasoning_tokens, latency_ms)
    SELECT round_id, coalesce(skill_id, ''), node_id, provider, model, count(*), count(*) FILTER (WHERE cache_hit),
      sum(usd), sum(prompt_tokens), sum(cached_tokens), sum(completion_tokens), sum(reasoning_tokens), sum(latency_ms)
    FROM llm_calls WHERE round_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO llm_cost_minute (round_id, minute, calls, usd, tokens)
    SELECT round_id, date_trunc('minute', created_at), count(*), sum(usd), sum(prompt_tokens + completion_tokens)
    FROM llm_calls WHERE round_id IS NOT NULL GROUP BY 1, 2;
  INSERT INTO task_status_rollup (round_id, skill_id, status, reject_reason, apps, tasks)
    SELECT round_id, skill_id, status, coalesce(reject_reason, ''), min(apps), count(*) FROM tasks GROUP BY 1, 2, 3, 4;
  INSERT INTO task_accepted_minute (round_id, minute, accepted)
    SELECT round_id, date_trunc('minute', coalesce(finished_at, started_at)), count(*) FROM tasks
    WHERE status = 'accepted' GROUP BY 1, 2;
  INSERT INTO student_result_rollup (round_id, skill_id, runs, success_sum)
    SELECT r.round_id, coalesce(t.skill_id, ''), count(*), sum(r.success)
    FROM student_results r LEFT JOIN tasks t ON t.id = r.task_id GROUP BY 1, 2;
  PERFORM forge_rebuild_skill_summary();
END $$;
--> statement-breakpoint
SELECT forge_rebuild_skill_summary();
