CREATE TABLE "round_skills" (
	"round_id" text NOT NULL,
	"position" integer NOT NULL,
	"skill_id" text NOT NULL,
	"spec_version" integer NOT NULL,
	"tasks" integer NOT NULL,
	CONSTRAINT "round_skills_round_id_position_pk" PRIMARY KEY("round_id","position")
);
