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
}

const STARTUP_MS = 60_000;

interface Live {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

interface Queued {
  job: unknown;
  what: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  retried: boolean;
}

type Answer = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Runs untrusted-shaped code (JSONata, regular expressions from skill specs) in a worker thread
 * with V8 resource limits, either synchronously (`call`: the caller blocks until the answer or the
 * budget) or asynchronously (`run`: jobs queue and go to the worker one at a time while this
 * thread goes on with other work). An instance is used one way or the other, never both. A
 * runaway loop is stopped by terminating the worker; an allocation bomb hits the worker's heap
 * limit and kills only the worker, never the process. The next job starts a fresh worker.
 */
export class BoundedWorker {
  #live: Live | undefined;
  #queue: Queued[] = [];
  #busy = false;

  constructor(
    private readonly handler: URL,
    public budget: Budget,
  ) {}

  /**
   * The budget is wall time, and a loaded machine can stall a worker thread past it on a job that
   * takes milliseconds; so a job that times out runs once more on a fresh worker before it is
   * declared over budget. A runaway loop times out twice (twice the budget, then an error).
   */
  call(job: unknown, what: string): unknown {
    let answer = this.#attempt(job);
    if (answer === undefined) {
      this.timeouts++;
      answer = this.#attempt(job);
    }
    if (answer === undefined) {
      throw this.#overBudget(what);
    }
    if (!answer.ok) throw new Error(answer.message);
    return answer.value;
  }

  /**
   * The asynchronous form of `call`, with the same budget and the same second chance: this thread
   * is not blocked while the worker computes (a blocked worker thread of a round waited ~1–2 ms per
   * expression on the hand-off alone, several times per task).
   */
  run(job: unknown, what: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, what, resolve, reject, retried: false });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#busy) return;
    const next = this.#queue.shift();
    if (!next) {
      this.#live?.port.unref();
      return;
    }
    let live: Live;
    try {
      live = this.#live ?? this.#start();
    } catch (err) {
      next.reject(err as Error);
      this.#pump();
      return;
    }
    this.#busy = true;
    // While a job is out, the port keeps the process alive for its answer.
    live.port.ref();
    const settle = (answer: Answer) => {
      clearTimeout(timer);
      live.port.off('message', settle);
      this.#busy = false;
      if (answer.ok) next.resolve(answer.value);
      else next.reject(new Error(answer.message));
      this.#pump();
    };
    const timer = setTimeout(() => {
      // A busy event loop can run this timer before an answer that is already waiting.
      const waiting = receiveMessageOnPort(live.port)?.message as Answer | undefined;
      if (waiting) return settle(waiting);
      live.port.off('message', settle);
      this.#discard();
      this.#busy = false;
      if (!next.retried) {
        this.timeouts++;
        next.retried = true;
        this.#queue.unshift(next);
      } else {
        next.reject(this.#overBudget(next.what));
      }
      this.#pump();
    }, this.budget.timeoutMs);
    live.port.on('message', settle);
    live.port.postMessage(next.job);
  }

  #overBudget(what: string): BudgetExceededError {
    return new BudgetExceededError(
      `${what} exceeded its budget (${this.budget.timeoutMs} ms, ${this.budget.heapMb} MB heap) twice and was stopped`,
    );
  }

  /** Jobs that timed out once and were run again (a stalled machine, or the first half of a runaway). */
  timeouts = 0;

  #attempt(job: unknown): { ok: true; value: unknown } | { ok: false; message: string } | undefined {
    const live = this.#live ?? this.#start();
    const before = Atomics.load(live.signal, 0);
    live.port.postMessage(job);
    const waited = Atomics.wait(live.signal, 0, before, this.budget.timeoutMs);
    const answer = receiveMessageOnPort(live.port)?.message as
      | { ok: true; value: unknown }
      | { ok: false; message: string }
      | undefined;
    if (waited === 'timed-out' || !answer) {
      this.#discard();
      return undefined;
    }
    return answer;
  }

  /** Stops the worker (tests, shutdown); the next call starts another. */
  close(): void {
    this.#discard();
  }

  #start(): Live {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const signal = new Int32Array(flag);
    const worker = new Worker(new URL('./host.mjs', import.meta.url), {
      workerData: { handler: this.handler.href, port: port2, flag },
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
    port1.unref();
    if (Atomics.wait(signal, 0, 0, STARTUP_MS) === 'timed-out') {
      void worker.terminate();
      throw new Error(`the sandbox worker for ${this.handler.pathname} did not start`);
    }
    this.#live = { worker, port: port1, signal };
    return this.#live;
  }

  #discard(): void {
    const live = this.#live;
    this.#live = undefined;
    if (!live) return;
    live.port.close();
    void live.worker.terminate();
  }
}
