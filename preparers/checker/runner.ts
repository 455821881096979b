import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../../infra/childEnv.ts';
import { type RunError, runProgram } from '../../infra/spawner.ts';
import { checkerSource } from './assemble.ts';

/** The distribution's python3, as on the OSWorld VM (a version manager's shim on PATH adds ~0.5 s per start). */
export const SYSTEM_PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** PATH with the system directories first, so `python3` in a command means the system one. */
export const SYSTEM_PATH = `/usr/bin:/bin:${process.env.PATH ?? ''}`;

/**
 * One state for the checker: every check's verdict (`checks`), the harness's stdout for a shipped
 * checks file (`checksFile`), or both at once (the answer is then `{verdicts, line}`).
 */
export type CheckerJob = { home: string; checks?: unknown[]; checksFile?: string };
export interface CheckerVerdict {
  pass: boolean;
  observed: unknown;
}
export type CheckerAnswer = CheckerVerdict[] | string | { verdicts: CheckerVerdict[]; line: string };

/** A whole batch is given this long; the checker reads small files, so only a wedged run gets near it. */
const BATCH_TIMEOUT_MS = 120_000;

interface Pending {
  job: CheckerJob;
  resolve: (answer: CheckerAnswer) => void;
  reject: (err: Error) => void;
}

/**
 * Runs the portable checker (`forge_check.py --batch`) the way a worker can afford it for every
 * task: jobs that arrive while a run is under way wait and go together in the next run, so concurrent
 * tasks share a Python start (its imports ~60 ms of CPU once the checker is compiled, measured with
 * -X importtime and cProfile) instead of paying one each, and an idle runner answers at once.
 * At most `parallel` Python processes at a time.
 */
export class CheckerRunner {
  #queue: Pending[] = [];
  #running = 0;
  #scheduled = false;
  #dir: Promise<string> | undefined;
  #checker: Promise<{ source: string; bytecode: string }> | undefined;

  constructor(
    /** The checker's source; the shipped one unless a test hands it a broken one. */
    readonly source: string = checkerSource().text,
    private readonly parallel = 2,
    private readonly maxBatch = 200,
  ) {}

  run(job: CheckerJob): Promise<CheckerAnswer> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      // Jobs submitted in the same turn (a task's states, a batch's tasks) go in one process.
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    });
  }

  /** The checker file this runner executes (the bytes a pack ships, unless a test said otherwise). */
  checkerPath(): Promise<string> {
    return this.#compiled().then((c) => c.source);
  }

  /**
   * The checker's text and its bytecode, compiled once: a process that runs the .pyc skips
   * compiling ~4,000 lines (~90 ms of every start), and runs the same code as the text.
   */
  #compiled(): Promise<{ source: string; bytecode: string }> {
    this.#checker ??= this.#workDir().then(async (dir) => {
      const source = path.join(dir, 'forge_check.py');
      const bytecode = path.join(dir, 'forge_check.pyc');
      await writeFile(source, this.source);
      await runProgram(
        SYSTEM_PYTHON,
        [
          '-c',
          'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)',
          source,
          bytecode,
        ],
        { env: childEnv({ extra: { PATH: SYSTEM_PATH } }), timeout: 60_000 },
      ).catch((err: RunError) => {
        throw new Error(`the checker does not compile: ${err.stderr?.toString() || err.message}`);
      });
      return { source, bytecode };
    });
    // A failure (a full disk, a cleaned temp folder) is not remembered: the next batch tries again.
    this.#checker.catch(() => {
      this.#checker = undefined;
      this.#dir = undefined;
    });
    return this.#checker;
  }

  #workDir(): Promise<string> {
    this.#dir ??= mkdtemp(path.join(tmpdir(), 'forge-checker-'));
    return this.#dir;
  }

  #pump(): void {
    while (this.#running < this.parallel && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxBatch);
      this.#running++;
      void this.#runBatch(batch).finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }

  async #runBatch(batch: Pending[]): Promise<void> {
    let jobsFile: string | undefined;
    try {
      const [{ bytecode }, dir] = await Promise.all([this.#compiled(), this.#workDir()]);
      jobsFile = path.join(dir, `jobs-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
      await writeFile(jobsFile, JSON.stringify(batch.map((p) => p.job)));
      const stdout = await runProgram(SYSTEM_PYTHON, [bytecode, jobsFile, '--batch'], {
        maxBuffer: 512 * 1024 * 1024,
        timeout: BATCH_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        env: childEnv({ extra: { PATH: SYSTEM_PATH } }),
      }).then(
        (r) => r.stdout.toString('utf8'),
        (err: RunError) => {
          throw new Error(
            `the portable checker failed on a batch of ${batch.length}: ${err.message} ${(err.stderr?.toString() ?? '').slice(0, 500)}`,
          );
        },
      );
      const answers = JSON.parse(stdout) as CheckerAnswer[];
      if (answers.length !== batch.length)
        throw new Error(`the portable checker answered ${answers.length} of ${batch.length} jobs`);
      for (const [i, p] of batch.entries()) p.resolve(answers[i]!);
    } catch (err) {
      // The compiled checker may have been removed under a long-lived worker: compile it again next time.
      this.#checker = undefined;
      this.#dir = undefined;
      for (const p of batch) p.reject(err as Error);
    } finally {
      if (jobsFile) await rm(jobsFile, { force: true });
    }
  }

  /** Removes the runner's files (tests; a worker keeps its runner for its lifetime). */
  async close(): Promise<void> {
    const dir = await this.#dir;
    this.#dir = undefined;
    this.#checker = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

let shared: CheckerRunner | undefined;
/** The process's runner for the shipped checker. */
export const checkerRunner = (): CheckerRunner => {
  shared ??= new CheckerRunner();
  return shared;
};
