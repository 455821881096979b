/**
 * AIMD concurrency limit toward one (endpoint, model): halve on a rate limit, grow by one after a
 * full window of successes (as many successes in a row as the current limit), within [min, max].
 * Callers wait in FIFO order for a slot.
 *
 * A burst of 429s from calls that were all in flight together counts as one signal: only a call
 * admitted after the last decrease can decrease again, so one overload does not collapse the limit
 * to the minimum.
 */
export type SlotOutcome = 'success' | 'rate_limited' | 'other';

export interface Slot {
  release(outcome: SlotOutcome): void;
}

export interface LimiterOptions {
  min: number;
  max: number;
  /** Starting limit; defaults to max (optimistic: the first 429 halves it). */
  initial?: number;
}

export class AdaptiveLimiter {
  readonly min: number;
  readonly max: number;
  #limit: number;
  #inFlight = 0;
  #successRun = 0;
  #epoch = 0;
  #waiters: Array<() => void> = [];

  constructor(options: LimiterOptions) {
    if (!Number.isInteger(options.min) || options.min < 1)
      throw new RangeError('limiter min must be an integer >= 1');
    if (!Number.isInteger(options.max) || options.max < options.min) {
      throw new RangeError('limiter max must be an integer >= min');
    }
    this.min = options.min;
    this.max = options.max;
    this.#limit = Math.min(this.max, Math.max(this.min, options.initial ?? options.max));
  }

  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves when a slot is free; the slot must be released exactly once. */
  async acquire(): Promise<Slot> {
    if (this.#inFlight >= this.#limit || this.#waiters.length > 0) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    } else {
      this.#inFlight++;
    }
    const epoch = this.#epoch;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#record(outcome, epoch);
        this.#admit();
      },
    };
  }

  #record(outcome: SlotOutcome, epoch: number): void {
    if (outcome === 'rate_limited') {
      this.#successRun = 0;
      if (epoch === this.#epoch) {
        this.#limit = Math.max(this.min, Math.floor(this.#limit / 2));
        this.#epoch++;
      }
    } else if (outcome === 'success') {
      this.#successRun++;
      if (this.#successRun >= this.#limit && this.#limit < this.max) {
        this.#limit++;
        this.#successRun = 0;
      }
    }
  }

  #admit(): void {
    while (this.#inFlight < this.#limit && this.#waiters.length > 0) {
      this.#inFlight++;
      this.#waiters.shift()?.();
    }
  }
}
