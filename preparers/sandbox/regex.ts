import type { Budget } from './boundedWorker.ts';
import { WorkerPool } from './workerPool.ts';

/** A runaway pattern spins in its worker for the budget: at a lower priority than the event loop. */
const REGEX_BUDGET: Budget = { timeoutMs: 2_000, heapMb: 64, nice: 10 };

/** What regexHandler.mjs runs. */
type RegexJob =
  | { op: 'test'; source: string; flags: string; text: string }
  | { op: 'replace'; source: string; flags: string; text: string; replacement: string; literal: boolean };

/**
 * Regular expressions that come from skill specs (checks, oracle edits) run in a pool of bounded
 * workers, off this thread and with a time and memory budget, so a catastrophic-backtracking
 * pattern fails its check with the reason instead of freezing the event loop (and its heartbeats)
 * or holding up other tasks' regexes.
 */
const pool = new WorkerPool(new URL('./regexHandler.mjs', import.meta.url), REGEX_BUDGET);

function run(job: RegexJob): Promise<unknown> {
  // A check that skipped its schema's defaults can carry no flags.
  const flags = job.flags ?? '';
  const what = `regular expression /${job.source.slice(0, 80)}${job.source.length > 80 ? '…' : ''}/${flags}`;
  return pool.run({ ...job, flags }, what, `${flags}\u0000${job.source}`);
}

export async function regexTest(source: string, flags: string, text: string): Promise<boolean> {
  return (await run({ op: 'test', source, flags, text })) as boolean;
}

export async function regexReplace(
  text: string,
  source: string,
  flags: string,
  replacement: string,
  literal: boolean,
): Promise<string> {
  return (await run({ op: 'replace', source, flags, text, replacement, literal })) as string;
}

export function setRegexBudget(budget: Budget): void {
  pool.budget = { nice: REGEX_BUDGET.nice, ...budget };
}

/** The pool itself, for tests that watch its workers. */
export const regexPool = pool;
