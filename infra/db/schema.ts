import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** One generation round (or an expansion run's dry-run round). */
export const rounds = pgTable('rounds', {
  id: text('id').primaryKey(),
  status: text('status').notNull(), // running | completed | cancelled | budget_exhausted | paused_error_rate | failed
  kind: text('kind').notNull().default('generation'), // generation | dry_run
  taxonomyVersion: integer('taxonomy_version'),
  fromFeedbackRound: text('from_feedback_round'),
  seed: integer('seed').notNull(),
  budgetUsd: doublePrecision('budget_usd'),
  settings: jsonb('settings').notNull(),
  progress: jsonb('progress').notNull().default(sql`'{}'::jsonb`),
  workflowId: text('workflow_id').notNull(),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

export const skills = pgTable('skills', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  apps: text('apps').array().notNull(),
  category: text('category'),
  difficulty: integer('difficulty').notNull(),
  channel: text('channel').notNull(),
  status: text('status').notNull().default('active'), // active | candidate | retired
  currentVersion: integer('current_version').notNull(),
  createdAt: createdAt(),
});

export const skillSpecVersions = pgTable(
  'skill_spec_versions',
  {
    skillId: text('skill_id').notNull(),
    version: integer('version').notNull(),
    sha256: text('sha256').notNull(),
    // json, not jsonb: jsonb reorders keys, and a spec's `values` are evaluated in written order.
    spec: json('spec').notNull(),
    source: text('source').notNull(), // file | expansion
    expansionRunId: text('expansion_run_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.skillId, t.version] }),
    uniqueIndex('skill_spec_sha').on(t.skillId, t.sha256),
  ],
);

export const taxonomyVersions = pgTable('taxonomy_versions', {
  version: integer('version').primaryKey(),
  parentVersion: integer('parent_version'),
  sha256: text('sha256').notNull().unique(),
  tree: jsonb('tree').notNull(),
  note: text('note'),
  expansionRunId: text('expansion_run_id'),
  createdAt: createdAt(),
});

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey(),
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    specVersion: integer('spec_version').notNull(),
    taskIndex: integer('task_index').notNull(),
    seed: integer('seed').notNull(),
    apps: text('apps').array().notNull(),
    params: jsonb('params').notNull().default(sql`'{}'::jsonb`),
    status: text('status').notNull(), // running | accepted | rejected | cancelled | failed
    rejectReason: text('reject_reason'),
    rejectNode: text('reject_node'),
    rejectDetail: text('reject_detail'),
    instruction: text('instruction'),
    /** explicit | natural | goal: how much of the target the instruction names (skills/levels.ts). */
    instructionLevel: text('instruction_level'),
    difficulty: integer('difficulty'),
    /** Distinct features or steps the task needs: its skill's `features` (skills/depth.ts). */
    depth: integer('depth'),
    /** The task's level is one its skill lists in `discovery`: the agent finds the target itself. */
    discovery: boolean('discovery'),
    /** Rubric items (checkpoints) the task is graded by. */
    rubricItems: integer('rubric_items'),
    packageKey: text('package_key'),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    /**
     * What the verification proved about the rubric: wrong solutions tried and killed (each by
     * name), checks in all and of them "nothing else changed" invariants, and whether the task
     * is meant to be declined. Written by the prepare stage; `forge report rubric` reads it.
     */
    rubricStats: jsonb('rubric_stats'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tasks_round_skill_index').on(t.roundId, t.skillId, t.taskIndex),
    index('tasks_round_status').on(t.roundId, t.status),
    index('tasks_skill').on(t.skillId),
    // Task lists page through a round in start order (keyset cursor on started_at, id).
    index('tasks_round_started').on(t.roundId, t.startedAt, t.id),
  ],
);

export const taskNodeRuns = pgTable(
  'task_node_runs',
  {
    taskId: uuid('task_id').notNull(),
    nodeId: text('node_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(), // ok | failed | rejected
    durationMs: integer('duration_ms').notNull(),
    outputKey: text('output_key'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.nodeId] })],
);

/** The cost ledger: one row per provider call (or cache hit). */
export const llmCalls = pgTable(
  'llm_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    roundId: text('round_id'),
    expansionRunId: text('expansion_run_id'),
    skillId: text('skill_id'),
    taskId: uuid('task_id'),
    nodeId: text('node_id').notNull(),
    attempt: integer('attempt').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    requestId: text('request_id'),
    requestHash: text('request_hash').notNull(),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    cachedTokens: integer('cached_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    reasoningTokens: integer('reasoning_tokens').notNull().default(0),
    usd: doublePrecision('usd').notNull().default(0),
    priceVersion: text('price_version').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    cacheHit: boolean('cache_hit').notNull().default(false),
    outcome: text('outcome').notNull(), // ok | invalid_output | http_error | truncated | filtered
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('llm_calls_round').on(t.roundId, t.createdAt),
    index('llm_calls_task').on(t.taskId),
    index('llm_calls_skill').on(t.skillId),
    uniqueIndex('llm_calls_idempotency').on(t.taskId, t.nodeId, t.attempt, t.requestHash),
  ],
);

/** Response cache: an identical request is answered from here at zero cost. */
export const llmCache = pgTable('llm_cache', {
  requestHash: text('request_hash').primaryKey(),
  model: text('model').notNull(),
  response: jsonb('response').notNull(),
  createdAt: createdAt(),
});

export const artifacts = pgTable('artifacts', {
  key: text('key').primaryKey(),
  sha256: text('sha256').notNull(),
  size: integer('size').notNull(),
  contentType: text('content_type').notNull(),
  createdAt: createdAt(),
});

export const taskArtifacts = pgTable(
  'task_artifacts',
  {
    taskId: uuid('task_id').notNull(),
    role: text('role').notNull(), // initial | solved
    vmPath: text('vm_path').notNull(),
    key: text('key').notNull(),
    app: text('app').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.role, t.vmPath] })],
);

export const packages = pgTable(
  'packages',
  {
    taskId: uuid('task_id').primaryKey(),
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    taskJsonKey: text('task_json_key').notNull(),
    setupKey: text('setup_key').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('packages_round').on(t.roundId)],
);

/** Signatures of accepted tasks for the near-duplicate check across rounds. */
export const taskSignatures = pgTable(
  'task_signatures',
  {
    taskId: uuid('task_id').primaryKey(),
    skillId: text('skill_id').notNull(),
    paramSignature: text('param_signature').notNull(),
    minhash: integer('minhash').array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('task_signatures_skill').on(t.skillId),
    index('task_signatures_skill_param').on(t.skillId, t.paramSignature),
  ],
);

export const studentResults = pgTable(
  'student_results',
  {
    taskId: uuid('task_id').notNull(),
    studentRunId: text('student_run_id').notNull(),
    roundId: text('round_id').notNull(),
    success: real('success').notNull(),
    steps: integer('steps'),
    failureTags: text('failure_tags').array(),
    tokens: integer('tokens'),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.studentRunId] }), index('student_results_round').on(t.roundId)],
);

/*
 * Rollups of the ledger for the cost dashboard, kept current by triggers on llm_calls, tasks and
 * student_results (migration 0001+ "cost_rollup_triggers"), so its aggregates read a few thousand
 * rows instead of millions. Empty strings stand for NULL in key columns so they can be primary keys.
 */
const counter = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** llm_calls summed per (round, skill, node, provider, model). */
export const llmCostRollup = pgTable(
  'llm_cost_rollup',
  {
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    nodeId: text('node_id').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    calls: counter('calls'),
    cacheHits: counter('cache_hits'),
    usd: doublePrecision('usd').notNull().default(0),
    promptTokens: counter('prompt_tokens'),
    cachedTokens: counter('cached_tokens'),
    completionTokens: counter('completion_tokens'),
    reasoningTokens: counter('reasoning_tokens'),
    latencyMs: counter('latency_ms'),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.skillId, t.nodeId, t.provider, t.model] })],
);

/** llm_calls summed per (round, minute of created_at): the spend-over-time chart. */
export const llmCostMinute = pgTable(
  'llm_cost_minute',
  {
    roundId: text('round_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    calls: counter('calls'),
    usd: doublePrecision('usd').notNull().default(0),
    tokens: counter('tokens'),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.minute] })],
);

/** Tasks counted per (round, skill, status, reject reason); apps is the skill's app list. */
export const taskStatusRollup = pgTable(
  'task_status_rollup',
  {
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    status: text('status').notNull(),
    rejectReason: text('reject_reason').notNull().default(''),
    apps: text('apps').array().notNull(),
    tasks: counter('tasks'),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.skillId, t.status, t.rejectReason] })],
);

/** Accepted tasks per (round, minute of finished_at): the accepted-over-time chart. */
export const taskAcceptedMinute = pgTable(
  'task_accepted_minute',
  {
    roundId: text('round_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    accepted: counter('accepted'),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.minute] })],
);

/** Student results per (round, skill): runs and the sum of success, for pass rates. */
export const studentResultRollup = pgTable(
  'student_result_rollup',
  {
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    runs: counter('runs'),
    successSum: doublePrecision('success_sum').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.skillId] })],
);

/** The skills a round runs, in order, so the round workflow pages through them instead of carrying them. */
export const roundSkills = pgTable(
  'round_skills',
  {
    roundId: text('round_id').notNull(),
    position: integer('position').notNull(),
    skillId: text('skill_id').notNull(),
    specVersion: integer('spec_version').notNull(),
    tasks: integer('tasks').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.position] })],
);

/** One taxonomy expansion run (workflow `expansion-<id>`): from a round's feedback to a new taxonomy version. */
export const expansionRuns = pgTable('expansion_runs', {
  id: text('id').primaryKey(),
  fromRoundId: text('from_round_id').notNull(),
  baseTaxonomyVersion: integer('base_taxonomy_version'),
  taxonomyVersion: integer('taxonomy_version'),
  status: text('status').notNull(), // running | completed | failed
  workflowId: text('workflow_id').notNull(),
  summary: jsonb('summary'),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** Every proposal an expansion run made, adopted or not; a rejected one keeps its reason. */
export const expansionProposals = pgTable(
  'expansion_proposals',
  {
    expansionRunId: text('expansion_run_id').notNull(),
    position: integer('position').notNull(),
    targetSkillId: text('target_skill_id').notNull(),
    kind: text('kind').notNull(), // split | sibling | harder | retire
    skillId: text('skill_id'), // the proposed skill; null for a retirement
    title: text('title'),
    description: text('description'),
    difficulty: integer('difficulty'),
    rationale: text('rationale'),
    status: text('status').notNull(), // proposed | adopted | rejected | retired
    reason: text('reason'),
    specText: text('spec_text'), // what the authoring model returned, verbatim
    specVersion: integer('spec_version'),
    dryRunRoundId: text('dry_run_round_id'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.expansionRunId, t.position] }),
    index('expansion_proposals_skill').on(t.skillId),
  ],
);

/**
 * Everything the per-skill and per-app tables and the round totals need, per (round, skill), in one
 * row: task counts by outcome, ledger sums and student results (migration skill_round_summary). The
 * three rollups above are finer; summing them per skill at 6,000 skills a round was the slow part.
 */
export const skillRoundSummary = pgTable(
  'skill_round_summary',
  {
    roundId: text('round_id').notNull(),
    skillId: text('skill_id').notNull(),
    apps: text('apps').array(),
    tasks: counter('tasks'),
    accepted: counter('accepted'),
    rejected: counter('rejected'),
    failed: counter('failed'),
    running: counter('running'),
    cancelled: counter('cancelled'),
    calls: counter('calls'),
    usd: doublePrecision('usd').notNull().default(0),
    tokens: counter('tokens'),
    runs: counter('runs'),
    successSum: doublePrecision('success_sum').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.skillId] })],
);
