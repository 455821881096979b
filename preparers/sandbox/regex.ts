import { BoundedWorker, type Budget } from './boundedWorker.ts';

/** What regexHandler.mjs runs. */
type RegexJob =
  | { op: 'test'; source: string; flags: string; text: string }
  | { op: 'replace'; source: string; flags: string; text: string; replacement: string; literal: boolean };

/**
 * Regular expressions that come from skill specs (checks, oracle edits) run here, with a time and
 * memory budget, so a catastrophic-backtracking pattern fails its check instead of hanging the worker.
 */
const worker = new BoundedWorker(new URL('./regexHandler.mjs', import.meta.url), {
  timeoutMs: 2_000,
  heapMb: 64,
});

function run(job: RegexJob): unknown {
  return worker.call(job, `regular expression /${job.source.slice(0, 80)}/`);
}

export function regexTest(source: string, flags: string, text: string): boolean {
  return run({ op: 'test', source, flags, text }) as boolean;
}

export function regexReplace(
  text: string,
  source: string,
  flags: string,
  replacement: string,
  literal: boolean,
): string {
  return run({ op: 'replace', source, flags, text, replacement, literal }) as string;
}

export function setRegexBudget(budget: Budget): void {
  worker.budget = budget;
  worker.close();
}
