CREATE TABLE "expansion_proposals" (
	"expansion_run_id" text NOT NULL,
	"position" integer NOT NULL,
	"target_skill_id" text NOT NULL,
	"kind" text NOT NULL,
	"skill_id" text,
	"title" text,
	"description" text,
	"difficulty" integer,
	"rationale" text,
	"status" text NOT NULL,
	"reason" text,
	"spec_text" text,
	"spec_version" integer,
	"dry_run_round_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "expansion_proposals_expansion_run_id_position_pk" PRIMARY KEY("expansion_run_id","position")
);
--> statement-breakpoint
CREATE TABLE "expansion_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"from_round_id" text NOT NULL,
	"base_taxonomy_version" integer,
	"taxonomy_version" integer,
	"status" text NOT NULL,
	"workflow_id" text NOT NULL,
	"summary" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "expansion_proposals_skill" ON "expansion_proposals" USING btree ("skill_id");