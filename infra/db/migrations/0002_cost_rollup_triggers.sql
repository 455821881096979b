-- Keeps the dashboard rollups (llm_cost_rollup, llm_cost_minute, task_status_rollup,
-- task_accepted_minute, student_result_rollup) equal to aggregates of their source tables.
-- Each row trigger subtracts the old row and adds the new one; rows whose count reaches 0 go away.
CREATE OR REPLACE FUNCTION forge_llm_cost_add(c llm_calls, s integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF c.round_id IS NULL THEN
    RETURN; -- expansion-run calls belong to no round
  END IF;
  INSERT INTO llm_cost_rollup AS r (round_id, skill_id, node_id, provider, model, calls, cache_hits, usd,
      prompt_tokens, cached_tokens, completion_tokens, reasoning_tokens, latency_ms)
    VALUES (c.round_id, coalesce(c.skill_id, ''), c.node_id, c.provider, c.model, s, s * c.cache_hit::int,
      s * c.usd, s * c.prompt_tokens, s * c.cached_tokens, s * c.completion_tokens, s * c.reasoning_tokens,
      s * c.latency_ms)
  ON CONFLICT (round_id, skill_id, node_id, provider, model) DO UPDATE SET
    calls = r.calls + excluded.calls, cache_hits = r.cache_hits + excluded.cache_hits, usd = r.usd + excluded.usd,
    prompt_tokens = r.prompt_tokens + excluded.prompt_tokens, cached_tokens = r.cached_tokens + excluded.cached_tokens,
    completion_tokens = r.completion_tokens + excluded.completion_tokens,
    reasoning_tokens = r.reasoning_tokens + excluded.reasoning_tokens, latency_ms = r.latency_ms + excluded.latency_ms;
  INSERT INTO llm_cost_minute AS m (round_id, minute, calls, usd, tokens)
    VALUES (c.round_id, date_trunc('minute', c.created_at), s, s * c.usd, s * (c.prompt_tokens + c.completion_tokens))
  ON CONFLICT (round_id, minute) DO UPDATE SET
    calls = m.calls + excluded.calls, usd = m.usd + excluded.usd, tokens = m.tokens + excluded.tokens;
  IF s < 0 THEN
    DELETE FROM llm_cost_rollup WHERE round_id = c.round_id AND skill_id = coalesce(c.skill_id, '')
      AND node_id = c.node_id AND provider = c.provider AND model = c.model AND calls = 0;
    DELETE FROM llm_cost_minute WHERE round_id = c.round_id AND minute = date_trunc('minute', c.created_at) AND calls = 0;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_llm_calls_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM forge_llm_cost_add(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM forge_llm_cost_add(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER llm_calls_rollup AFTER INSERT OR UPDATE OR DELETE ON llm_calls
  FOR EACH ROW EXECUTE FUNCTION forge_llm_calls_rollup();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_task_rollup_add(t tasks, s integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_status_rollup AS r (round_id, skill_id, status, reject_reason, apps, tasks)
    VALUES (t.round_id, t.skill_id, t.status, coalesce(t.reject_reason, ''), t.apps, s)
  ON CONFLICT (round_id, skill_id, status, reject_reason) DO UPDATE SET tasks = r.tasks + excluded.tasks;
  IF t.status = 'accepted' THEN
    INSERT INTO task_accepted_minute AS a (round_id, minute, accepted)
      VALUES (t.round_id, date_trunc('minute', coalesce(t.finished_at, t.started_at)), s)
    ON CONFLICT (round_id, minute) DO UPDATE SET accepted = a.accepted + excluded.accepted;
  END IF;
  IF s < 0 THEN
    DELETE FROM task_status_rollup WHERE round_id = t.round_id AND skill_id = t.skill_id AND status = t.status
      AND reject_reason = coalesce(t.reject_reason, '') AND tasks = 0;
    DELETE FROM task_accepted_minute WHERE round_id = t.round_id
      AND minute = date_trunc('minute', coalesce(t.finished_at, t.started_at)) AND accepted = 0;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_tasks_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.round_id, OLD.skill_id, OLD.status, OLD.reject_reason, OLD.finished_at, OLD.started_at)
      IS NOT DISTINCT FROM (NEW.round_id, NEW.skill_id, NEW.status, NEW.reject_reason, NEW.finished_at, NEW.started_at) THEN
    RETURN NULL; -- other columns changed: the rollup rows stay untouched (no lock taken)
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM forge_task_rollup_add(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM forge_task_rollup_add(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tasks_rollup AFTER INSERT OR UPDATE OR DELETE ON tasks
  FOR EACH ROW EXECUTE FUNCTION forge_tasks_rollup();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_student_result_add(r student_results, s integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  skill text := coalesce((SELECT skill_id FROM tasks WHERE id = r.task_id), '');
BEGIN
  INSERT INTO student_result_rollup AS x (round_id, skill_id, runs, success_sum)
    VALUES (r.round_id, skill, s, s * r.success)
  ON CONFLICT (round_id, skill_id) DO UPDATE SET runs = x.runs + excluded.runs, success_sum = x.success_sum + excluded.success_sum;
  IF s < 0 THEN
    DELETE FROM student_result_rollup WHERE round_id = r.round_id AND skill_id = skill AND runs = 0;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forge_student_results_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM forge_student_result_add(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM forge_student_result_add(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER student_results_rollup AFTER INSERT OR UPDATE OR DELETE ON student_results
  FOR EACH ROW EXECUTE FUNCTION forge_student_results_rollup();
--> statement-breakpoint
-- TRUNCATE fires no row triggers: empty the matching rollups with it.
CREATE OR REPLACE FUNCTION forge_truncate_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'llm_calls' THEN
    TRUNCATE llm_cost_rollup, llm_cost_minute;
  ELSIF TG_TABLE_NAME = 'tasks' THEN
    TRUNCATE task_status_rollup, task_accepted_minute;
  ELSE
    TRUNCATE student_result_rollup;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER llm_calls_truncate_rollups AFTER TRUNCATE ON llm_calls FOR EACH STATEMENT EXECUTE FUNCTION forge_truncate_rollups();
--> statement-breakpoint
CREATE TRIGGER tasks_truncate_rollups AFTER TRUNCATE ON tasks FOR EACH STATEMENT EXECUTE FUNCTION forge_truncate_rollups();
--> statement-breakpoint
CREATE TRIGGER student_results_truncate_rollups AFTER TRUNCATE ON student_results FOR EACH STATEMENT EXECUTE FUNCTION forge_truncate_rollups();
--> statement-breakpoint
-- Recomputes every rollup from its source table: used here for rows that predate the triggers, and
-- after bulk loads that ran with triggers disabled.
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
END $$;
--> statement-breakpoint
SELECT forge_rebuild_cost_rollups();
