import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../infra/db/client.ts';
import { rounds, studentResults, tasks } from '../infra/db/schema.ts';
import { RoundRequestError } from '../infra/requestError.ts';

/** Postgres text cannot hold NUL: refused here, with the line, rather than failing the insert. */
const storableText = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((s) => !s.includes('\u0000'), 'must not contain a NUL character');

/** The smallest positive fraction kept: `real` (float4) underflows below ~1e-38 and fails the insert. */
const MIN_FRACTION = 1e-6;

/** One line of a feedback file (docs/feedback-format.md). */
export const feedbackLineSchema = z
  .object({
    task_id: z.uuid(),
    student_run_id: storableText(1, 200),
    // Non-finite numbers (1e999 is Infinity) fail z.number() itself.
    success: z
      .number()
      .min(0)
      .max(1)
      .refine((x) => x === 0 || x >= MIN_FRACTION, `must be 0 or at least ${MIN_FRACTION}`),
    // Postgres integer columns: a larger value would fail at insert (a 500) instead of naming the line.
    steps: z.number().int().min(0).max(2_147_483_647),
    failure_tags: z.array(storableText(1, 100)).max(50).optional(),
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
  /** `errors`: the first MAX_REPORTED_ERRORS problems by line; `errorCount`: all of them. */
  | { ok: false; roundId: string; lines: number; errors: FeedbackProblem[]; errorCount: number };

const CHUNK = 1000;

/** Problems reported in full; a file of 100k bad lines is told as these and a count. */
export const MAX_REPORTED_ERRORS = 50;
/** A message quotes at most this much (a parse error can quote its line). */
const MAX_MESSAGE = 300;
/** Records checked between turns of the event loop, so a large body does not hold up other requests. */
const RECORDS_PER_TURN = 500;

/** The first `cap` problems by line, and how many there were in all: memory stays flat however many. */
export class ProblemList {
  readonly #kept: FeedbackProblem[] = [];
  /** Index of the kept problem with the largest line, once the list is full. */
  #last: number | undefined;
  count = 0;

  constructor(private readonly cap = MAX_REPORTED_ERRORS) {}

  add(problem: FeedbackProblem): void {
    this.count++;
    const p =
      problem.message.length > MAX_MESSAGE
        ? { ...problem, message: `${problem.message.slice(0, MAX_MESSAGE)}…` }
        : problem;
    if (this.#kept.length < this.cap) {
      this.#kept.push(p);
      return;
    }
    // Problems mostly come in line order: the kept list's last line is looked up only after a swap.
    if (this.#last === undefined) {
      this.#last = 0;
      for (let i = 1; i < this.#kept.length; i++)
        if (this.#kept[i]!.line > this.#kept[this.#last]!.line) this.#last = i;
    }
    if (p.line < this.#kept[this.#last]!.line) {
      this.#kept[this.#last] = p;
      this.#last = undefined;
    }
  }

  sorted(): FeedbackProblem[] {
    return [...this.#kept].sort((a, b) => a.line - b.line);
  }
}

/** The records' own checks (shape, duplicates within the input), one record at a time. */
class RecordChecker {
  readonly parsed: { line: number; source?: string; value: FeedbackLine }[] = [];
  readonly #seen = new Map<string, number>();
  records = 0;

  constructor(readonly problems: ProblemList) {}

  check(rec: FeedbackRecord): void {
    this.records++;
    const where = at(rec);
    if (rec.unreadable !== undefined) {
      this.problems.add({ ...where, message: rec.unreadable });
      return;
    }
    const r = feedbackLineSchema.safeParse(rec.raw);
    if (!r.success) {
      this.problems.add({
        ...where,
        message: r.error.issues
          .slice(0, 5)
          .map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`)
          .join('; '),
      });
      return;
    }
    const key = `${r.data.task_id}\u0000${r.data.student_run_id}`;
    const first = this.#seen.get(key);
    if (first !== undefined) {
      this.problems.add({
        ...where,
        message: `duplicate of line ${first} (task ${r.data.task_id}, student run ${r.data.student_run_id})`,
      });
      return;
    }
    this.#seen.set(key, rec.line);
    this.parsed.push({ ...where, value: r.data });
  }
}

const at = (r: { line: number; source?: string }) =>
  r.source ? { line: r.line, source: r.source } : { line: r.line };

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
 * if any line is bad, nothing is imported and the problems are returned with their line numbers (the
 * first MAX_REPORTED_ERRORS, and how many there were).
 * Idempotent by (task id, student run id): a line identical to a stored result is `unchanged`.
 */
export async function ingestFeedback(
  database: Database,
  roundId: string,
  jsonlText: string,
): Promise<IngestResult> {
  await requireRound(database, roundId);
  // Line by line, never the whole file as records: a large body of bad lines keeps only the first
  // problems, and the event loop gets a turn every RECORDS_PER_TURN lines.
  const checker = new RecordChecker(new ProblemList());
  let line = 0;
  for (let start = 0; start <= jsonlText.length; ) {
    let end = jsonlText.indexOf('\n', start);
    if (end === -1) end = jsonlText.length;
    line++;
    const text = jsonlText.slice(start, jsonlText[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (text.trim() !== '') {
      try {
        checker.check({ line, raw: JSON.parse(text) });
      } catch (err) {
        checker.check({ line, raw: null, unreadable: `not JSON: ${(err as Error).message}` });
      }
    }
    if (line % RECORDS_PER_TURN === 0) await nextTurn();
  }
  return finishIngest(database, roundId, checker);
}

async function requireRound(database: Database, roundId: string): Promise<void> {
  const round = (await database.db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, roundId)))[0];
  if (!round) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
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
  await requireRound(database, roundId);
  const problems = new ProblemList();
  for (const p of extraErrors) problems.add(p);
  const checker = new RecordChecker(problems);
  for (const [i, rec] of records.entries()) {
    checker.check(rec);
    if ((i + 1) % RECORDS_PER_TURN === 0) await nextTurn();
  }
  return finishIngest(database, roundId, checker);
}

/** The checks against what is stored (the round's accepted tasks, earlier results), then the write. */
async function finishIngest(
  database: Database,
  roundId: string,
  checker: RecordChecker,
): Promise<IngestResult> {
  const { db } = database;
  const { parsed, problems } = checker;
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
      problems.add({ ...where, message: `unknown task id ${value.task_id}` });
      continue;
    }
    if (task.roundId !== roundId) {
      problems.add({
        ...where,
        message: `task ${value.task_id} belongs to round ${task.roundId}, not ${roundId}`,
      });
      continue;
    }
    if (task.status !== 'accepted') {
      problems.add({
        ...where,
        message: `task ${value.task_id} was not accepted (${task.status}); students never received it`,
      });
      continue;
    }
    const prior = stored.get(`${value.task_id}\u0000${value.student_run_id}`);
    if (prior) {
      if (sameResult(value, prior)) unchanged++;
      else
        problems.add({
          ...where,
          message: `task ${value.task_id}, student run ${value.student_run_id} was already ingested with different values`,
        });
      continue;
    }
    fresh.push(value);
  }
  const total = checker.records;
  if (problems.count > 0)
    return { ok: false, roundId, lines: total, errors: problems.sorted(), errorCount: problems.count };

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
