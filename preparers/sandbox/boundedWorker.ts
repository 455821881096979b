import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** A job's code ran past its time or memory budget; the worker that ran it was discarded. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
}

export interface Budget {
  /** Wall time of one job. */
  timeoutMs: number;
  /** The worker's old-generation heap. */
  heapMb: number;
  /**
   * The worker thread's nice value (Linux), so a job that spins yields the CPU to the event loop on
   * a busy machine; for jobs that are rare and small (regexes), not the per-task hot path (JSONata).
   */
  nice?: number;
}

const STARTUP_MS = 60_000;

interface Live {
  worker: Worker;
  port: MessagePort;
}

interface Queued {
  job: unknown;
  what: string;
  started?: () => void;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  retried: boolean;
}

type Answer = { ok: true; value: unknown } | { ok: false; message: string };

/** The message a budget breach carries: it names the job and the budget. */
export function overBudget(
  what: string,
  budget: Budget,
  detail = 'twice and was stopped',
): BudgetExceededError {
  return new BudgetExceededError(
    `${what} exceeded its budget (${budget.timeoutMs} ms, ${budget.heapMb} MB heap) ${detail}`,
  );
}

/**
 * Runs untrusted-shaped code (JSONata, regular expressions from skill specs) in a worker thread
 * with V8 resource limits. Jobs queue and go to the worker one at a time while this thread goes on
 * with other work: nothing here blocks the calling thread, not even a worker's start-up (a frozen
 * event loop misses Temporal heartbeats). A runaway loop is stopped by terminating the worker; an
 * allocation bomb hits the worker's heap limit and kills only the worker, never the process. The
 * next job starts a fresh worker. workerPool.ts runs several of these side by side.
 */
export class BoundedWorker {
  #live: Live | undefined;
  #starting: Promise<Live> | undefined;
  #queue: Queued[] = [];
  #busy = false;
  /** Bumped by close(), so a worker still starting when it was called is not kept. */
  #generation = 0;

  constructor(
    private readonly handler: URL,
    public budget: Budget,
  ) {}

  /** Jobs that timed out once and were run again (a stalled machine, or the first half of a runaway). */
  timeouts = 0;

  /** No job out and none waiting. */
  get idle(): boolean {
    return !this.#busy && this.#queue.length === 0;
  }

  /**
   * The budget is wall time, and a loaded machine can stall a worker thread past it on a job that
   * takes milliseconds; so a job that times out runs once more on a fresh worker before it is
   * declared over budget. A runaway loop times out twice (twice the budget, then an error).
   * `started` is called when the job goes to a worker that is up (each time it does).
   */
  run(job: unknown, what: string, started?: () => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, what, started, resolve, reject, retried: false });
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#busy) return;
    const next = this.#queue.shift();
    if (!next) {
      this.#live?.port.unref();
      return;
    }
    this.#busy = true;
    let live: Live;
    try {
      live = await this.#ensure();
    } catch (err) {
      this.#busy = false;
      next.reject(err as Error);
      void this.#pump();
      return;
    }
    // While a job is out, the port keeps the process alive for its answer.
    live.port.ref();
    const settle = (answer: Answer) => {
      clearTimeout(timer);
      live.port.off('message', settle);
      this.#busy = false;
      if (answer.ok) next.resolve(answer.value);
      else next.reject(new Error(answer.message));
      void this.#pump();
    };
    const timer = setTimeout(() => {
      // A busy event loop can run this timer before an answer that is already waiting.
      const waiting = receiveMessageOnPort(live.port)?.message as Answer | undefined;
      if (waiting) return settle(waiting);
      live.port.off('message', settle);
      if (this.#live === live) this.#discard();
      this.#busy = false;
      if (!next.retried) {
        this.timeouts++;
        next.retried = true;
        this.#queue.unshift(next);
      } else {
        next.reject(overBudget(next.what, this.budget));
      }
      void this.#pump();
    }, this.budget.timeoutMs);
    live.port.on('message', settle);
    live.port.postMessage(next.job);
    next.started?.();
  }

  /** Starts the worker ahead of its first job (a spare in workerPool.ts). */
  warm(): void {
    this.#ensure().catch(() => {});
  }

  #ensure(): Promise<Live> {
    if (this.#live) return Promise.resolve(this.#live);
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /** Stops the worker (tests, shutdown, a new budget); the next job starts another. */
  close(): void {
    this.#generation++;
    this.#discard();
  }

  /** Starts a worker and waits, without blocking, for its handler to load. */
  #start(): Promise<Live> {
    const generation = this.#generation;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./host.mjs', import.meta.url), {
      workerData: { handler: this.handler.href, port: port2, nice: this.budget.nice ?? 0 },
      transferList: [port2],
      resourceLimits: {
        maxOldGenerationSizeMb: this.budget.heapMb,
        maxYoungGenerationSizeMb: 16,
        stackSizeMb: 4,
      },
      // The worker's environment is empty: handlers compute, they never read settings or secrets.
      env: {},
      stdout: false,
      stderr: false,
    });
    worker.unref();
    // A terminated or out-of-memory worker reports here; the caller already saw the budget error.
    worker.on('error', () => {});
    return new Promise<Live>((resolve, reject) => {
      const fail = (message: string) => {
        clearTimeout(timer);
        port1.close();
        void worker.terminate();
        reject(new Error(`the sandbox worker for ${this.handler.pathname} ${message}`));
      };
      const timer = setTimeout(() => fail('did not start'), STARTUP_MS);
      const exited = () => fail('exited while starting');
      worker.once('exit', exited);
      port1.once('message', () => {
        clearTimeout(timer);
        worker.off('exit', exited);
        if (generation !== this.#generation) {
          // close() ran meanwhile (a new budget): this worker has the old limits.
          port1.close();
          void worker.terminate();
          resolve(this.#start());
          return;
        }
        port1.unref();
        this.#live = { worker, port: port1 };
        resolve(this.#live);
      });
    });
  }

  #discard(): void {
    const live = this.#live;
    this.#live = undefined;
    if (!live) return;
    live.port.close();
    void live.worker.terminate();
  }
}
