import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { BoundedWorker, type Budget, BudgetExceededError, overBudget } from './boundedWorker.ts';

/**
 * The jobs of one task (taskcore/prepareCore.ts opens a scope per task). The pool shares its
 * workers fairly between scopes, and a job that already broke its budget in a scope is not run again
 * in it: a check that can run away on one state is not worth another few seconds on the next.
 */
export class SandboxScope {
  readonly breached = new Set<string>();
}

const scopes = new AsyncLocalStorage<SandboxScope>();

/** Runs `fn` with its sandbox jobs (and those of everything it awaits) in a scope of their own. */
export function withSandboxScope<T>(fn: () => Promise<T>): Promise<T> {
  return scopes.run(new SandboxScope(), fn);
}

export interface PoolShape {
  /** Workers kept for ordinary work. */
  size: number;
  /** Workers added, at most, while every worker is held by a slow job (then closed when idle). */
  extra: number;
  /** A job running longer than this is slow: real regexes answer in well under a millisecond. */
  slowMs: number;
}

export function defaultPoolShape(): PoolShape {
  return { size: Math.max(1, Math.min(4, availableParallelism())), extra: 2, slowMs: 250 };
}

interface Pending {
  job: unknown;
  what: string;
  key: string;
  /** Whom the job counts against for fairness: its scope, or the job itself when it has none. */
  owner: object;
  scope: SandboxScope | undefined;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: BoundedWorker;
  extra: boolean;
  /** `since`: when the job reached a worker that was up (a worker's start-up does not count as slow). */
  running?: { owner: object; since: number | undefined };
}

/**
 * Several bounded workers (boundedWorker.ts) side by side, so a slow job holds up one worker, not
 * every untrusted expression of the process. A free worker takes the waiting job whose scope has
 * the fewest jobs running (the oldest first among equals), so one task's ten runaway regexes take
 * turns with other tasks' jobs instead of going first; and when every worker is held by a slow job,
 * a waiting job of a scope that has no slow job running gets an extra worker, up to `extra` more.
 */
export class WorkerPool {
  #slots: Slot[] = [];
  #queue: Pending[] = [];
  #budget: Budget;
  #timer: NodeJS.Timeout | undefined;
  #retired = 0;

  constructor(
    private readonly handler: URL,
    budget: Budget,
    readonly shape: PoolShape = defaultPoolShape(),
  ) {
    this.#budget = budget;
  }

  get budget(): Budget {
    return this.#budget;
  }

  /** A new budget applies from the next job; workers with the old limits are stopped. */
  set budget(budget: Budget) {
    this.#budget = budget;
    for (const slot of this.#slots) slot.worker.budget = budget;
    this.close();
  }

  /** Jobs that timed out once and were run again, over all workers. */
  get timeouts(): number {
    return this.#retired + this.#slots.reduce((n, s) => n + s.worker.timeouts, 0);
  }

  /** Workers alive or ready to start (tests). */
  get workers(): number {
    return this.#slots.length;
  }

  /**
   * Runs `job` on a free worker. `key` names the job for the scope's memory of budget breaches
   * (`what`, the label in messages, may be cut short).
   */
  run(job: unknown, what: string, key: string = what): Promise<unknown> {
    const scope = scopes.getStore();
    if (scope?.breached.has(key))
      return Promise.reject(overBudget(what, this.#budget, 'earlier in this task and was not run again'));
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, what, key, scope, owner: scope ?? {}, resolve, reject };
      this.#queue.push(pending);
      this.#pump();
    });
  }

  /** Stops every worker (tests, shutdown); jobs still out fail or run again on fresh workers. */
  close(): void {
    for (const slot of this.#slots) slot.worker.close();
  }

  #pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      const index = this.#choose();
      const pending = this.#queue[index]!;
      const slot = this.#freeSlot(pending.owner);
      if (!slot) break;
      this.#queue.splice(index, 1);
      this.#dispatch(slot, pending);
    }
    this.#retireIdleExtras();
    if (this.#queue.length > 0) {
      // Halfway to slow, a spare starts; ordinary bursts of quick jobs never get that far.
      if (this.#newestRunningMs() >= this.shape.slowMs / 2) this.#keepSpare();
      this.#wakeWhenSlow();
    }
  }

  /** The waiting job whose owner has the fewest jobs running; the oldest among equals. */
  #choose(): number {
    const running = new Map<object, number>();
    for (const s of this.#slots)
      if (s.running) running.set(s.running.owner, (running.get(s.running.owner) ?? 0) + 1);
    let best = 0;
    let bestRunning = Number.POSITIVE_INFINITY;
    for (const [i, p] of this.#queue.entries()) {
      const n = running.get(p.owner) ?? 0;
      if (n < bestRunning) {
        best = i;
        bestRunning = n;
        if (n === 0) break;
      }
    }
    return best;
  }

  #freeSlot(owner: object): Slot | undefined {
    const { size, extra, slowMs } = this.shape;
    const core = this.#slots.filter((s) => !s.extra);
    const free = core.find((s) => !s.running);
    if (free) return free;
    if (core.length < size) return this.#addSlot(false);
    const now = Date.now();
    const busy = this.#slots.filter((s) => s.running !== undefined);
    const slow = (s: Slot) => s.running?.since !== undefined && now - s.running.since >= slowMs;
    // An owner with a slow job of its own already has its share; extra workers are for the others.
    if (!busy.every(slow) || busy.some((s) => slow(s) && s.running?.owner === owner)) return undefined;
    const spare = this.#slots.find((s) => s.extra && !s.running);
    if (spare) return spare;
    return this.#slots.length < size + extra ? this.#addSlot(true) : undefined;
  }

  /** How long the most recently started job has run (every busy worker has run at least this long). */
  #newestRunningMs(): number {
    const running = this.#slots.flatMap((s) => (s.running ? [s.running.since] : []));
    // A job whose worker is still starting has not begun to run.
    if (running.length === 0 || running.includes(undefined)) return 0;
    return Date.now() - Math.max(...(running as number[]));
  }

  /** While jobs wait behind slow ones, one extra worker starts ahead, so a job that may use it does not wait for a start-up too. */
  #keepSpare(): void {
    if (this.#slots.some((s) => s.extra && !s.running)) return;
    if (this.#slots.length >= this.shape.size + this.shape.extra) return;
    this.#addSlot(true).worker.warm();
  }

  #addSlot(extra: boolean): Slot {
    const slot: Slot = { worker: new BoundedWorker(this.handler, this.#budget), extra };
    this.#slots.push(slot);
    return slot;
  }

  #dispatch(slot: Slot, pending: Pending): void {
    const running: { owner: object; since: number | undefined } = { owner: pending.owner, since: undefined };
    slot.running = running;
    const started = () => {
      // A second run (after a timeout) keeps the first start: the job is slow already.
      if (running.since !== undefined) return;
      running.since = Date.now();
      this.#pump();
    };
    slot.worker.run(pending.job, pending.what, started).then(
      (value) => {
        slot.running = undefined;
        pending.resolve(value);
        this.#pump();
      },
      (err: Error) => {
        slot.running = undefined;
        if (err instanceof BudgetExceededError) pending.scope?.breached.add(pending.key);
        pending.reject(err);
        this.#pump();
      },
    );
  }

  #retireIdleExtras(): void {
    if (this.#queue.length > 0) return;
    for (const slot of this.#slots.filter((s) => s.extra && !s.running && s.worker.idle)) {
      this.#retired += slot.worker.timeouts;
      slot.worker.close();
      this.#slots.splice(this.#slots.indexOf(slot), 1);
    }
  }

  /** Jobs wait while every worker is busy; look again when the newest running job is half-way to slow, then slow. */
  #wakeWhenSlow(): void {
    const { size, extra, slowMs } = this.shape;
    if (this.#slots.every((s) => s.running) && this.#slots.length >= size + extra) return;
    const since = this.#slots.flatMap((s) => (s.running ? [s.running.since] : []));
    // A job whose worker is still starting pumps again when it starts.
    if (since.length === 0 || since.includes(undefined)) return;
    // Only the newest job's turn matters: every worker must be half-way to slow before a spare
    // starts, and slow before it is used. When all already are, the waiting jobs' owners have slow
    // jobs of their own: a finished job or another owner's new one pumps again.
    const ran = Date.now() - Math.max(...(since as number[]));
    const next = [slowMs / 2, slowMs].find((mark) => mark > ran);
    if (next === undefined) return;
    this.#timer = setTimeout(() => this.#pump(), next - ran + 1);
    this.#timer.unref();
  }
}
