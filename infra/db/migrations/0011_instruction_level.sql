ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "instruction_level" text;
