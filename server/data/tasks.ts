import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../infra/db/client.ts';
import { taskSpendSql } from '../../infra/db/queries/spend.ts';
import { ApiError } from '../errors.ts';
import type { TaskListQuery } from '../schemas.ts';

const timestamp = z.union([z.date(), z.string()]).transform((v) => new Date(v).toISOString());
const nullableTimestamp = z.union([z.null(), timestamp]);
const num = z.coerce.number();

const taskRow = z.object({
  id: z.string(),
  roundId: z.string(),
  skillId: z.string(),
  taskIndex: num,
  status: z.string(),
  rejectReason: z.string().nullable(),
  rejectNode: z.string().nullable(),
  apps: z.array(z.string()),
  instruction: z.string().nullable(),
  difficulty: z.number().nullable(),
  /** Distinct features the task needs (null: recorded before depth was, or not prepared yet). */
  depth: z.number().nullable(),
  startedAt: timestamp,
  finishedAt: nullableTimestamp,
  usd: num,
  tokens: num,
  calls: num,
  cursorKey: z.string(),
});

export type TaskSummary = Omit<z.infer<typeof taskRow>, 'cursorKey'>;

/** started_at as Postgres prints timestamptz (`2026-01-02 03:04:05.123456+00`). */
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** A calendar date and a time of day Postgres accepts: a forged cursor would otherwise fail the query (a 500). */
function isPgTimestamp(text: string): boolean {
  const m = PG_TIMESTAMP.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

/** Keyset cursor: the exact started_at (as Postgres text, microseconds kept) and the id. */
const cursorSchema = z.tuple([z.string().max(64).refine(isPgTimestamp), z.uuid()]);

function decodeCursor(cursor: string): [string, string] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new ApiError(400, 'invalid_request', 'invalid query: cursor: not a cursor returned by this API');
  }
}

const encodeCursor = (key: string, id: string): string =>
  Buffer.from(JSON.stringify([key, id])).toString('base64url');

/** A page of tasks in start order, each with its cost from the ledger. */
export async function listTasks(
  db: Db,
  q: TaskListQuery,
): Promise<{ tasks: TaskSummary[]; nextCursor: string | null }> {
  const where: SQL[] = [];
  if (q.round) where.push(sql`t.round_id = ${q.round}`);
  if (q.skill) where.push(sql`t.skill_id = ${q.skill}`);
  if (q.status) where.push(sql`t.status = ${q.status}`);
  if (q.app) where.push(sql`t.apps @> ARRAY[${q.app}]::text[]`);
  if (q.cursor) {
    const [key, id] = decodeCursor(q.cursor);
    where.push(sql`(t.started_at, t.id) > (${key}::timestamptz, ${id}::uuid)`);
  }
  const spend = taskSpendSql(sql`t.id`);
  const result = await db.execute(sql`
    SELECT t.id, t.round_id AS "roundId", t.skill_id AS "skillId", t.task_index AS "taskIndex", t.status,
      t.reject_reason AS "rejectReason", t.reject_node AS "rejectNode", t.apps, t.instruction, t.difficulty,
      t.depth, t.started_at AS "startedAt", t.finished_at AS "finishedAt", ${spend.usd} AS usd, ${spend.tokens} AS tokens,
      ${spend.calls} AS calls, t.started_at::text AS "cursorKey"
    FROM tasks t
    WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`true`}
    ORDER BY t.started_at, t.id
    LIMIT ${q.limit + 1}`);
  const rows = z.array(taskRow).parse(result.rows);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    tasks: page.map(({ cursorKey: _key, ...task }) => task),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.cursorKey, last.id) : null,
  };
}

const detailRow = taskRow.omit({ usd: true, tokens: true, calls: true, cursorKey: true }).extend({
  seed: num,
  specVersion: num,
  params: z.unknown(),
  rejectDetail: z.string().nullable(),
  taskJsonKey: z.string().nullable(),
  setupKey: z.string().nullable(),
  packageSha256: z.string().nullable(),
});

export type TaskRecord = z.infer<typeof detailRow>;

export async function getTask(db: Db, taskId: string): Promise<TaskRecord | undefined> {
  const result = await db.execute(sql`
    SELECT t.id, t.round_id AS "roundId", t.skill_id AS "skillId", t.task_index AS "taskIndex", t.status,
      t.reject_reason AS "rejectReason", t.reject_node AS "rejectNode", t.reject_detail AS "rejectDetail", t.apps,
      t.instruction, t.difficulty, t.depth, t.seed, t.spec_version AS "specVersion", t.params, t.started_at AS "startedAt",
      t.finished_at AS "finishedAt", p.task_json_key AS "taskJsonKey", p.setup_key AS "setupKey",
      p.sha256 AS "packageSha256"
    FROM tasks t LEFT JOIN packages p ON p.task_id = t.id WHERE t.id = ${taskId}`);
  const [row] = z.array(detailRow).parse(result.rows);
  return row;
}

const nodeRunRow = z.object({
  node: z.string(),
  kind: z.string(),
  status: z.string(),
  durationMs: num,
  detail: z.string().nullable(),
  createdAt: timestamp,
});

export async function taskNodeRuns(db: Db, taskId: string): Promise<z.infer<typeof nodeRunRow>[]> {
  const result = await db.execute(sql`
    SELECT node_id AS node, kind, status, duration_ms AS "durationMs", detail, created_at AS "createdAt"
    FROM task_node_runs WHERE task_id = ${taskId} ORDER BY created_at, node_id`);
  return z.array(nodeRunRow).parse(result.rows);
}

const artifactRow = z.object({
  role: z.string(),
  vmPath: z.string(),
  key: z.string(),
  app: z.string(),
  size: z.union([z.null(), num]),
  contentType: z.string().nullable(),
});

export type TaskArtifactRow = z.infer<typeof artifactRow>;

export async function taskArtifacts(db: Db, taskId: string): Promise<TaskArtifactRow[]> {
  const result = await db.execute(sql`
    SELECT ta.role, ta.vm_path AS "vmPath", ta.key, ta.app, a.size, a.content_type AS "contentType"
    FROM task_artifacts ta LEFT JOIN artifacts a ON a.key = ta.key
    WHERE ta.task_id = ${taskId} ORDER BY ta.role, ta.vm_path`);
  return z.array(artifactRow).parse(result.rows);
}

const studentRow = z.object({
  studentRunId: z.string(),
  success: num,
  steps: z.union([z.null(), num]),
  failureTags: z.array(z.string()).nullable(),
});

export async function taskStudentResults(db: Db, taskId: string): Promise<z.infer<typeof studentRow>[]> {
  const result = await db.execute(sql`
    SELECT student_run_id AS "studentRunId", success, steps, failure_tags AS "failureTags"
    FROM student_results WHERE task_id = ${taskId} ORDER BY student_run_id`);
  return z.array(studentRow).parse(result.rows);
}
