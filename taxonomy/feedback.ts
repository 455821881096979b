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
  line: number;
  message: string;
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
  const { db } = database;
  const round = (await db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, roundId)))[0];
  if (!round) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
  const errors: FeedbackProblem[] = [];
  const parsed: { line: number; value: FeedbackLine }[] = [];
  const seen = new Map<string, number>();
  const lines = jsonlText.split(/\r?\n/);
  lines.forEach((text, i) => {
    const line = i + 1;
    if (text.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      errors.push({ line, message: `not JSON: ${(err as Error).message}` });
      return;
    }
    const r = feedbackLineSchema.safeParse(raw);
    if (!r.success) {
      errors.push({
        line,
        message: r.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; '),
      });
      return;
    }
    const key = `${r.data.task_id}\u0000${r.data.student_run_id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({
        line,
        message: `duplicate of line ${first} (task ${r.data.task_id}, student run ${r.data.student_run_id})`,
      });
      return;
    }
    seen.set(key, line);
    parsed.push({ line, value: r.data });
  });

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
  for (const { line, value } of parsed) {
    const task = known.get(value.task_id);
    if (!task) {
      errors.push({ line, message: `unknown task id ${value.task_id}` });
      continue;
    }
    if (task.roundId !== roundId) {
      errors.push({
        line,
        message: `task ${value.task_id} belongs to round ${task.roundId}, not ${roundId}`,
      });
      continue;
    }
    if (task.status !== 'accepted') {
      errors.push({
        line,
        message: `task ${value.task_id} was not accepted (${task.status}); students never received it`,
      });
      continue;
    }
    const prior = stored.get(`${value.task_id}\u0000${value.student_run_id}`);
    if (prior) {
      if (sameResult(value, prior)) unchanged++;
      else
        errors.push({
          line,
          message: `task ${value.task_id}, student run ${value.student_run_id} was already ingested with different values`,
        });
      continue;
    }
    fresh.push(value);
  }
  const total = lines.filter((l) => l.trim() !== '').length;
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
