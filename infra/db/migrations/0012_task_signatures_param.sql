-- The near-duplicate check reads only signatures whose parameter signature equals the candidate's
-- (a near-duplicate needs both), so each task reads its few candidates, not every task of its skill.
CREATE INDEX IF NOT EXISTS "task_signatures_skill_param" ON "task_signatures" USING btree ("skill_id","param_signature");
