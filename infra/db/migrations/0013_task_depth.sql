-- A task's depth (distinct features or steps its skill needs), whether its level left the agent to
-- find the target (discovery), and its rubric items (checkpoints): what `forge report difficulty` counts.
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "depth" integer;
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "discovery" boolean;
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "rubric_items" integer;
