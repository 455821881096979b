CREATE TABLE "llm_cost_minute" (
	"round_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"usd" double precision DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_cost_minute_round_id_minute_pk" PRIMARY KEY("round_id","minute")
);
--> statement-breakpoint
CREATE TABLE "llm_cost_rollup" (
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"node_id" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"cache_hits" bigint DEFAULT 0 NOT NULL,
	"usd" double precision DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"cached_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"reasoning_tokens" bigint DEFAULT 0 NOT NULL,
	"latency_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_cost_rollup_round_id_skill_id_node_id_provider_model_pk" PRIMARY KEY("round_id","skill_id","node_id","provider","model")
);
--> statement-breakpoint
CREATE TABLE "student_result_rollup" (
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"success_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "student_result_rollup_round_id_skill_id_pk" PRIMARY KEY("round_id","skill_id")
);
--> statement-breakpoint
CREATE TABLE "task_accepted_minute" (
	"round_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"accepted" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_accepted_minute_round_id_minute_pk" PRIMARY KEY("round_id","minute")
);
--> statement-breakpoint
CREATE TABLE "task_status_rollup" (
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text DEFAULT '' NOT NULL,
	"apps" text[] NOT NULL,
	"tasks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_status_rollup_round_id_skill_id_status_reject_reason_pk" PRIMARY KEY("round_id","skill_id","status","reject_reason")
);
--> statement-breakpoint
CREATE INDEX "tasks_round_started" ON "tasks" USING btree ("round_id","started_at","id");