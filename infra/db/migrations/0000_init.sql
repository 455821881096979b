CREATE TABLE "artifacts" (
	"key" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_cache" (
	"request_hash" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"round_id" text,
	"expansion_run_id" text,
	"skill_id" text,
	"task_id" uuid,
	"node_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"request_id" text,
	"request_hash" text NOT NULL,
	"prompt_tokens" integer DEFAULT 0 NOT NULL,
	"cached_tokens" integer DEFAULT 0 NOT NULL,
	"completion_tokens" integer DEFAULT 0 NOT NULL,
	"reasoning_tokens" integer DEFAULT 0 NOT NULL,
	"usd" double precision DEFAULT 0 NOT NULL,
	"price_version" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"cache_hit" boolean DEFAULT false NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"task_json_key" text NOT NULL,
	"setup_key" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rounds" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"kind" text DEFAULT 'generation' NOT NULL,
	"taxonomy_version" integer,
	"from_feedback_round" text,
	"seed" integer NOT NULL,
	"budget_usd" double precision,
	"settings" jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"workflow_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "skill_spec_versions" (
	"skill_id" text NOT NULL,
	"version" integer NOT NULL,
	"sha256" text NOT NULL,
	"spec" jsonb NOT NULL,
	"source" text NOT NULL,
	"expansion_run_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_spec_versions_skill_id_version_pk" PRIMARY KEY("skill_id","version")
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"apps" text[] NOT NULL,
	"category" text,
	"difficulty" integer NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"current_version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_results" (
	"task_id" uuid NOT NULL,
	"student_run_id" text NOT NULL,
	"round_id" text NOT NULL,
	"success" real NOT NULL,
	"steps" integer,
	"failure_tags" text[],
	"tokens" integer,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_results_task_id_student_run_id_pk" PRIMARY KEY("task_id","student_run_id")
);
--> statement-breakpoint
CREATE TABLE "task_artifacts" (
	"task_id" uuid NOT NULL,
	"role" text NOT NULL,
	"vm_path" text NOT NULL,
	"key" text NOT NULL,
	"app" text NOT NULL,
	CONSTRAINT "task_artifacts_task_id_role_vm_path_pk" PRIMARY KEY("task_id","role","vm_path")
);
--> statement-breakpoint
CREATE TABLE "task_node_runs" (
	"task_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"output_key" text,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_node_runs_task_id_node_id_pk" PRIMARY KEY("task_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "task_signatures" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"skill_id" text NOT NULL,
	"param_signature" text NOT NULL,
	"minhash" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"round_id" text NOT NULL,
	"skill_id" text NOT NULL,
	"spec_version" integer NOT NULL,
	"task_index" integer NOT NULL,
	"seed" integer NOT NULL,
	"apps" text[] NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text,
	"reject_node" text,
	"reject_detail" text,
	"instruction" text,
	"difficulty" integer,
	"package_key" text,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "taxonomy_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"parent_version" integer,
	"sha256" text NOT NULL,
	"tree" jsonb NOT NULL,
	"note" text,
	"expansion_run_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "taxonomy_versions_sha256_unique" UNIQUE("sha256")
);
--> statement-breakpoint
CREATE INDEX "llm_calls_round" ON "llm_calls" USING btree ("round_id","created_at");--> statement-breakpoint
CREATE INDEX "llm_calls_task" ON "llm_calls" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "llm_calls_skill" ON "llm_calls" USING btree ("skill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "llm_calls_idempotency" ON "llm_calls" USING btree ("task_id","node_id","attempt","request_hash");--> statement-breakpoint
CREATE INDEX "packages_round" ON "packages" USING btree ("round_id");--> statement-breakpoint
CREATE UNIQUE INDEX "skill_spec_sha" ON "skill_spec_versions" USING btree ("skill_id","sha256");--> statement-breakpoint
CREATE INDEX "student_results_round" ON "student_results" USING btree ("round_id");--> statement-breakpoint
CREATE INDEX "task_signatures_skill" ON "task_signatures" USING btree ("skill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_round_skill_index" ON "tasks" USING btree ("round_id","skill_id","task_index");--> statement-breakpoint
CREATE INDEX "tasks_round_status" ON "tasks" USING btree ("round_id","status");--> statement-breakpoint
CREATE INDEX "tasks_skill" ON "tasks" USING btree ("skill_id");