import type { Database } from '../infra/db/client.ts';
import type { TaskArtifact } from '../taskpack/taskPackage.ts';
import type { NodeRun } from './taskRecords.ts';

/**
 * The packaging stage's two statements, written as SQL once and sent as named prepared statements:
 * what it reads (the task's spend and the accepted tasks it could duplicate) and the accept (task
 * row, package index, artifacts, signature, node runs). Every task of a round runs both, and the
 * query builder's work for them — the accept carries a row per node run and artifact — had been
 * ~10 % of the worker's CPU in a round's profile, its transaction four round trips.
 */

/** The task-row columns the prepare stage fills in, when the activity that prepared it accepts it. */
export interface PreparedFields {
  apps: string[];
  instruction: string;
  instructionLevel: string | null;
  difficulty: number;
  /** Distinct features the task needs, whether it is a discovery task, and its rubric items. */
  depth: number;
  discovery: boolean;
  rubricItems: number;
  params: Record<string, unknown>;
  rubricStats: unknown;
}

export interface PackagingReads {
  usd: number;
  tokens: number;
  models: string[];
  /** Accepted tasks of the skill with the same parameter signature (real rounds', or this round's). */
  others: { taskId: string; minhash: number[] }[];
}

const READS = {
  name: 'forge_package_reads_v1',
  text: `SELECT c.usd, c.tokens, c.models, d.others FROM
    (SELECT coalesce(sum(usd), 0)::float8 AS usd, coalesce(sum(prompt_tokens + completion_tokens), 0)::int AS tokens,
            coalesce(array_agg(DISTINCT model), '{}') AS models
       FROM llm_calls WHERE task_id = $1) c,
    (SELECT coalesce(json_agg(json_build_object('taskId', s.task_id, 'minhash', s.minhash)), '[]'::json) AS others
       FROM task_signatures s JOIN tasks t ON t.id = s.task_id JOIN rounds r ON r.id = t.round_id
      WHERE s.skill_id = $2 AND s.param_signature = $3 AND s.task_id <> $1
        AND (r.kind = 'generation' OR r.id = $4)) d`,
};

/** A dry run's tasks never block later rounds: only real rounds' and this round's accepted tasks count. */
export async function readForPackaging(
  database: Database,
  task: { taskId: string; skillId: string; roundId: string },
  paramSignature: string,
): Promise<PackagingReads> {
  const { rows } = await database.pool.query<PackagingReads>({
    ...READS,
    values: [task.taskId, task.skillId, paramSignature, task.roundId],
  });
  const row = rows[0]!;
  return { usd: Number(row.usd), tokens: Number(row.tokens), models: row.models, others: row.others };
}

/**
 * The prepared fields' columns, parameters from `FIRST_FIELD` on; the parameter after them says
 * whether they come along (false: an earlier activity wrote them, and the row keeps its values).
 */
const FIELD_COLUMNS: readonly [column: string, type: string, value: (f: PreparedFields) => unknown][] = [
  ['apps', 'text[]', (f) => f.apps],
  ['instruction', 'text', (f) => f.instruction],
  ['instruction_level', 'text', (f) => f.instructionLevel],
  ['difficulty', 'int', (f) => f.difficulty],
  ['depth', 'int', (f) => f.depth],
  ['discovery', 'bool', (f) => f.discovery],
  ['rubric_items', 'int', (f) => f.rubricItems],
  ['params', 'jsonb', (f) => JSON.stringify(f.params)],
  ['rubric_stats', 'jsonb', (f) => (f.rubricStats === undefined ? null : JSON.stringify(f.rubricStats))],
];
const FIRST_FIELD = 6;
const AFTER_FIELDS = FIRST_FIELD + FIELD_COLUMNS.length;

const ACCEPT = {
  name: 'forge_package_accept_v1',
  // One statement is atomic by itself; each CTE writes a table of its own, and every insert takes
  // its task from `t`, so nothing is indexed unless the task was still running.
  text: `WITH t AS (
      UPDATE tasks SET status = 'accepted', package_key = $2, finished_at = $3, cost_usd = $4, tokens = $5,
        ${FIELD_COLUMNS.map(([column, type], i) => `${column} = CASE WHEN $${AFTER_FIELDS}::bool THEN $${FIRST_FIELD + i}::${type} ELSE ${column} END`).join(',\n        ')}
      WHERE id = $1 AND status = 'running' RETURNING id, round_id, skill_id),
    p AS (INSERT INTO packages (task_id, round_id, skill_id, task_json_key, setup_key, sha256)
      SELECT id, round_id, skill_id, $2, $${AFTER_FIELDS + 1}, $${AFTER_FIELDS + 2} FROM t ON CONFLICT DO NOTHING),
    a AS (INSERT INTO task_artifacts (task_id, role, vm_path, key, app)
      SELECT t.id, u.role, u.vm_path, u.key, u.app FROM t,
        unnest($${AFTER_FIELDS + 3}::text[], $${AFTER_FIELDS + 4}::text[], $${AFTER_FIELDS + 5}::text[], $${AFTER_FIELDS + 6}::text[])
          AS u(role, vm_path, key, app)
      ON CONFLICT DO NOTHING),
    s AS (INSERT INTO task_signatures (task_id, skill_id, param_signature, minhash)
      SELECT id, skill_id, $${AFTER_FIELDS + 7}, $${AFTER_FIELDS + 8}::int[] FROM t ON CONFLICT DO NOTHING),
    n AS (INSERT INTO task_node_runs (task_id, node_id, kind, status, duration_ms, output_key, detail)
      SELECT t.id, u.node_id, u.kind, u.status, u.duration_ms, u.output_key, u.detail FROM t,
        unnest($${AFTER_FIELDS + 9}::text[], $${AFTER_FIELDS + 10}::text[], $${AFTER_FIELDS + 11}::text[],
               $${AFTER_FIELDS + 12}::int[], $${AFTER_FIELDS + 13}::text[], $${AFTER_FIELDS + 14}::text[])
          AS u(node_id, kind, status, duration_ms, output_key, detail)
      ON CONFLICT (task_id, node_id) DO UPDATE SET status = excluded.status, duration_ms = excluded.duration_ms,
        output_key = excluded.output_key, detail = excluded.detail)
    SELECT count(*)::int AS accepted FROM t`,
};

export interface Acceptance {
  taskId: string;
  packageKey: string;
  setupKey: string;
  packageSha256: string;
  costUsd: number;
  tokens: number;
  /** Absent when an earlier activity wrote them to the task row. */
  fields?: PreparedFields;
  artifacts: TaskArtifact[];
  signature: { paramSignature: string; minhash: number[] };
  runs: NodeRun[];
}

/** Accepts a running task with its package index, artifacts, signature and node runs: true if it was running. */
export async function acceptTask(database: Database, a: Acceptance): Promise<boolean> {
  const f = a.fields;
  const { rows } = await database.pool.query<{ accepted: number }>({
    ...ACCEPT,
    values: [
      a.taskId,
      a.packageKey,
      new Date(),
      a.costUsd,
      a.tokens,
      ...FIELD_COLUMNS.map(([, , value]) => (f ? value(f) : null)),
      f !== undefined,
      a.setupKey,
      a.packageSha256,
      a.artifacts.map((x) => x.role),
      a.artifacts.map((x) => x.vmPath),
      a.artifacts.map((x) => x.key),
      a.artifacts.map((x) => x.app),
      a.signature.paramSignature,
      a.signature.minhash,
      a.runs.map((r) => r.nodeId),
      a.runs.map((r) => r.kind),
      a.runs.map((r) => r.status),
      a.runs.map((r) => Math.round(r.durationMs)),
      a.runs.map((r) => r.outputKey ?? null),
      a.runs.map((r) => r.detail ?? null),
    ],
  });
  return rows[0]!.accepted > 0;
}
