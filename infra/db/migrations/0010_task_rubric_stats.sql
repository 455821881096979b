-- What verification proved about each task's rubric (wrong solutions tried/killed, invariant share, infeasible).
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "rubric_stats" jsonb;
