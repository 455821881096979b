-- Replaces the row-level rollup triggers of 0002 with statement-level ones: a bulk insert in one
-- transaction (feedback ingest, batched ledger writes) updated the same rollup row once per source row,
-- which grows quadratically; grouping the statement's rows first makes it linear.
DROP TRIGGER IF EXISTS llm_calls_rollup ON llm_calls;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tasks_rollup ON tasks;
--> statement-breakpoint
DROP TRIGGER IF EXISTS student_results_rollup ON student_results;
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_llm_calls_rollup();
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_tasks_rollup();
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_student_results_rollup();
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_llm_cost_add(llm_calls, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_task_rollup_add(tasks, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS forge_student_result_add(student_results, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_llm_calls_rollup() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO llm_cost_rollup AS r (round_id, skill_id, node_id, provider, model, calls, cache_hits, usd,
        prompt_tokens, cached_tokens, completion_tokens, reasoning_tokens, latency_ms)
    SELECT round_id, coalesce(skill_id, ''), node_id, provider, model, sum(s), sum(s * cache_hit::int), sum(s * usd),
      sum(s * prompt_tokens), sum(s * cached_tokens), sum(s * completion_tokens), sum(s * reasoning_tokens),
      sum(s * latency_ms)
    FROM (%s) d WHERE round_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (round_id, skill_id, node_id, provider, model) DO UPDATE SET
      calls = r.calls + excluded.calls, cache_hits = r.cache_hits + excluded.cache_hits, usd = r.usd + excluded.usd,
      prompt_tokens = r.prompt_tokens + excluded.prompt_tokens, cached_tokens = r.cached_tokens + excluded.cached_tokens,
      completion_tokens = r.completion_tokens + excluded.completion_tokens,
      reasoning_tokens = r.reasoning_tokens + excluded.reasoning_tokens, latency_ms = r.latency_ms + excluded.latency_ms
  $q$, src);
  EXECUTE format($q$
    INSERT INTO llm_cost_minute AS m (round_id, minute, calls, usd, tokens)
    SELECT round_id, date_trunc('minute', created_at), sum(s), sum(s * usd), sum(s * (prompt_tokens + completion_tokens))
    FROM (%s) d WHERE round_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (round_id, minute) DO UPDATE SET
      calls = m.calls + excluded.calls, usd = m.usd + excluded.usd, tokens = m.tokens + excluded.tokens
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM llm_cost_rollup WHERE calls = 0 AND round_id IN (SELECT round_id FROM old_rows);
    DELETE FROM llm_cost_minute WHERE calls = 0 AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER llm_calls_rollup_insert AFTER INSERT ON llm_calls REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_llm_calls_rollup();
--> statement-breakpoint
CREATE TRIGGER llm_calls_rollup_update AFTER UPDATE ON llm_calls REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_llm_calls_rollup();
--> statement-breakpoint
CREATE TRIGGER llm_calls_rollup_delete AFTER DELETE ON llm_calls REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_llm_calls_rollup();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_tasks_rollup() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  -- HAVING skips keys whose count did not change (an update of other columns), so no lock is taken.
  EXECUTE format($q$
    INSERT INTO task_status_rollup AS r (round_id, skill_id, status, reject_reason, apps, tasks)
    SELECT round_id, skill_id, status, coalesce(reject_reason, ''), min(apps), sum(s)
    FROM (%s) d GROUP BY 1, 2, 3, 4 HAVING sum(s) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (round_id, skill_id, status, reject_reason) DO UPDATE SET tasks = r.tasks + excluded.tasks
  $q$, src);
  EXECUTE format($q$
    INSERT INTO task_accepted_minute AS a (round_id, minute, accepted)
    SELECT round_id, date_trunc('minute', coalesce(finished_at, started_at)), sum(s)
    FROM (%s) d WHERE status = 'accepted' GROUP BY 1, 2 HAVING sum(s) <> 0 ORDER BY 1, 2
    ON CONFLICT (round_id, minute) DO UPDATE SET accepted = a.accepted + excluded.accepted
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM task_status_rollup WHERE tasks = 0 AND round_id IN (SELECT round_id FROM old_rows);
    DELETE FROM task_accepted_minute WHERE accepted = 0 AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER tasks_rollup_insert AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_tasks_rollup();
--> statement-breakpoint
CREATE TRIGGER tasks_rollup_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_tasks_rollup();
--> statement-breakpoint
CREATE TRIGGER tasks_rollup_delete AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_tasks_rollup();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_student_results_rollup() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS s FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS s FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS s FROM new_rows n UNION ALL SELECT o.*, -1 AS s FROM old_rows o' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO student_result_rollup AS x (round_id, skill_id, runs, success_sum)
    SELECT d.round_id, coalesce(t.skill_id, ''), sum(d.s), sum(d.s * d.success)
    FROM (%s) d LEFT JOIN tasks t ON t.id = d.task_id GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (round_id, skill_id) DO UPDATE SET runs = x.runs + excluded.runs, success_sum = x.success_sum + excluded.success_sum
  $q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM student_result_rollup WHERE runs = 0 AND round_id IN (SELECT round_id FROM old_rows);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER student_results_rollup_insert AFTER INSERT ON student_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_student_results_rollup();
--> statement-breakpoint
CREATE TRIGGER student_results_rollup_update AFTER UPDATE ON student_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_student_results_rollup();
--> statement-breakpoint
CREATE TRIGGER student_results_rollup_delete AFTER DELETE ON student_results REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forge_student_results_rollup();
--> statement-breakpoint
SELECT forge_rebuild_cost_rollups();
