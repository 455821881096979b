/**
 * Live round progress for the event streams: one poller per round, however many clients watch it,
 * and a cap on open streams in total, so watchers cannot exhaust the database pool.
 */
export interface RoundEvent {
  event: 'progress' | 'end' | 'error';
  data: unknown;
}

type Listener = (e: RoundEvent) => void;

export class TooManyStreamsError extends Error {
  override name = 'TooManyStreamsError';
}

export class RoundEventHub {
  #rounds = new Map<string, { listeners: Set<Listener>; timer?: NodeJS.Timeout; last?: RoundEvent[] }>();
  #open = 0;

  constructor(
    /** Reads the round once: the events to send, and whether the round has ended. */
    private readonly poll: (roundId: string) => Promise<{ events: RoundEvent[]; ended: boolean }>,
    private readonly intervalMs: number,
    readonly maxStreams: number,
  ) {}

  get openStreams(): number {
    return this.#open;
  }

  /** Polls currently running, one per watched round. */
  get pollers(): number {
    return this.#rounds.size;
  }

  /** Adds a listener; it gets the latest events at once if the round is already being polled. */
  subscribe(roundId: string, listener: Listener): () => void {
    if (this.#open >= this.maxStreams)
      throw new TooManyStreamsError(`${this.maxStreams} event streams are open, the most this server allows`);
    this.#open++;
    let round = this.#rounds.get(roundId);
    if (!round) {
      round = { listeners: new Set() };
      this.#rounds.set(roundId, round);
      round.listeners.add(listener);
      void this.#tick(roundId);
    } else {
      round.listeners.add(listener);
      // The newest events now, but never inside subscribe: the caller is still setting up.
      const { listeners, last = [] } = round;
      setImmediate(() => {
        if (listeners.has(listener)) for (const e of last) listener(e);
      });
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#open--;
      const r = this.#rounds.get(roundId);
      if (!r) return;
      r.listeners.delete(listener);
      if (r.listeners.size === 0) {
        clearTimeout(r.timer);
        this.#rounds.delete(roundId);
      }
    };
  }

  async #tick(roundId: string): Promise<void> {
    const round = this.#rounds.get(roundId);
    if (!round) return;
    let result: { events: RoundEvent[]; ended: boolean };
    try {
      result = await this.poll(roundId);
    } catch (err) {
      result = { events: [{ event: 'error', data: { message: (err as Error).message } }], ended: false };
    }
    if (this.#rounds.get(roundId) !== round) return;
    round.last = result.events.filter((e) => e.event !== 'end');
    for (const listener of [...round.listeners]) for (const e of result.events) listener(e);
    if (result.ended) {
      this.#rounds.delete(roundId);
      return;
    }
    if (round.listeners.size > 0) round.timer = setTimeout(() => void this.#tick(roundId), this.intervalMs);
  }

  close(): void {
    for (const r of this.#rounds.values()) clearTimeout(r.timer);
    this.#rounds.clear();
  }
}
