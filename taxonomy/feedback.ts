import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../infra/db/client.ts';
import { rounds, studentResults, tasks } from '../infra/db/schema.ts';
import { RoundRequestError } from '../infra/requestError.ts';

/** One line of a feedback file (docs/feedback-format.md). */
export const feedbackLineSchema = z
  .object({
    task_id: z.uuid(),
    student_run_id: z.string().min(1).max(200),
    success: z.number().min(0).max(1),
    // Postgres integer columns: a larger value would fail at insert (a 500) instead of naming the line.
    steps: z.number().int().min(0).max(2_147_483_647),
    failure_tags: z.array(z.string().min(1).max(100)).max(50).optional(),
    tokens: z.number().int().min(0).max(2_147_483_647).optional(),
  })
  .strict();
export type FeedbackLine = z.infer<typeof feedbackLineSchema>;

export interface FeedbackProblem {
  /** The record's number in the input (the line of a JSONL file, or the n-th result of an OSWorld tree). */
  line: number;
  /** Where the record came from when it is not a line of one file (a result.txt path). */
  source?: string;
  message: string;
}

/** One result before validation: its raw value and, for errors, where it came from. */
export interface FeedbackRecord {
  line: number;
  source?: string;
  /** The parsed record, or the text that failed to parse as JSON. */
  raw: unknown;
  /** Set when the record could not even be read (bad JSON, a malformed result.txt). */
  unreadable?: string;
}

export type IngestResult =
  | { ok: true; roundId: string; lines: number; imported: number; unchanged: number }
  | { ok: false; roundId: string; lines: number; errors: FeedbackProblem[] };

const CHUNK = 1000;

function sameResult(a: FeedbackLine, b: typeof studentResults.$inferSelect): boolean {
  const tags = (x: string[] | null | undefined) => JSON.stringify([...(x ?? [])].sort());
  return (
    Math.abs(a.success - b.success) < 1e-6 &&
    a.steps === b.steps &&
    (a.tokens ?? null) === b.tokens &&
    tags(a.failure_tags) === tags(b.failureTags)
  );
}

/**
 * Imports a round's student results from JSONL text. Every line is checked first (shape, the task
 * exists in this round and was accepted, no duplicate in the file, no conflict with what is stored);
 * if any line is bad, nothing is imported and every problem is returned with its line number.
 * Idempotent by (task id, student run id): a line identical to a stored result is `unchanged`.
 */
export async function ingestFeedback(
  database: Database,
  roundId: string,
  jsonlText: string,
): Promise<IngestResult> {
  const lines = jsonlText.split(/\r?\n/);
  const records: FeedbackRecord[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    try {
      records.push({ line: i + 1, raw: JSON.parse(text) });
    } catch (err) {
      records.push({ line: i + 1, raw: text, unreadable: `not JSON: ${(err as Error).message}` });
    }
  });
  return ingestFeedbackRecords(database, roundId, records);
}

/**
 * The checks and the write behind every feedback format: each record is validated against the
 * line schema, the round's accepted tasks and what is stored; any problem and nothing is written.
 */
export async function ingestFeedbackRecords(
  database: Database,
  roundId: string,
  records: FeedbackRecord[],
  extraErrors: FeedbackProblem[] = [],
): Promise<IngestResult> {
  const { db } = database;
  const round = (await db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, roundId)))[0];
  if (!round) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
  const errors: FeedbackProblem[] = [...extraErrors];
  const parsed: { line: number; source?: string; value: FeedbackLine }[] = [];
  const seen = new Map<string, number>();
  const at = (r: { line: number; source?: string }) =>
    r.source ? { line: r.line, source: r.source } : { line: r.line };
  for (const rec of records) {
    if (rec.unreadable !== undefined) {
      errors.push({ ...at(rec), message: rec.unreadable });
      continue;
    }
    const r = feedbackLineSchema.safeParse(rec.raw);
    if (!r.success) {
      errors.push({
        ...at(rec),
        message: r.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; '),
      });
      continue;
    }
    const key = `${r.data.task_id}\u0000${r.data.student_run_id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({
        ...at(rec),
        message: `duplicate of line ${first} (task ${r.data.task_id}, student run ${r.data.student_run_id})`,
      });
      continue;
    }
    seen.set(key, rec.line);
    parsed.push({ ...at(rec), value: r.data });
  }

  const taskIds = [...new Set(parsed.map((p) => p.value.task_id))];
  const known = new Map<string, { roundId: string; status: string }>();
  const stored = new Map<string, typeof studentResults.$inferSelect>();
  for (let i = 0; i < taskIds.length; i += CHUNK) {
    const ids = taskIds.slice(i, i + CHUNK);
    for (const t of await db
      .select({ id: tasks.id, roundId: tasks.roundId, status: tasks.status })
      .from(tasks)
      .where(inArray(tasks.id, ids))) {
      known.set(t.id, t);
    }
    for (const s of await db.select().from(studentResults).where(inArray(studentResults.taskId, ids))) {
      stored.set(`${s.taskId}\u0000${s.studentRunId}`, s);
    }
  }
  const fresh: FeedbackLine[] = [];
  let unchanged = 0;
  for (const { line, source, value } of parsed) {
    const where = source ? { line, source } : { line };
    const task = known.get(value.task_id);
    if (!task) {
      errors.push({ ...where, message: `unknown task id ${value.task_id}` });
      continue;
    }
    if (task.roundId !== roundId) {
      errors.push({
        ...where,
        message: `task ${value.task_id} belongs to round ${task.roundId}, not ${roundId}`,
      });
      continue;
    }
    if (task.status !== 'accepted') {
      errors.push({
        ...where,
        message: `task ${value.task_id} was not accepted (${task.status}); students never received it`,
      });
      continue;
    }
    const prior = stored.get(`${value.task_id}\u0000${value.student_run_id}`);
    if (prior) {
      if (sameResult(value, prior)) unchanged++;
      else
        errors.push({
          ...where,
          message: `task ${value.task_id}, student run ${value.student_run_id} was already ingested with different values`,
        });
      continue;
    }
    fresh.push(value);
  }
  const total = records.length;
  if (errors.length > 0)
    return { ok: false, roundId, lines: total, errors: errors.sort((a, b) => a.line - b.line) };

  let imported = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const rows = fresh.slice(i, i + CHUNK).map((v) => ({
        taskId: v.task_id,
        studentRunId: v.student_run_id,
        roundId,
        success: v.success,
        steps: v.steps,
        failureTags: v.failure_tags ?? null,
        tokens: v.tokens ?? null,
      }));
      const inserted = await tx
        .insert(studentResults)
        .values(rows)
        .onConflictDoNothing()
        .returning({ taskId: studentResults.taskId });
      imported += inserted.length;
    }
  });
  return { ok: true, roundId, lines: total, imported, unchanged: unchanged + (fresh.length - imported) };
}
