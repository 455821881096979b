import type { OfficeFormat } from './formats.ts';
import { createProfile, type OfficeProfile, removeProfile } from './profile.ts';
import { type ConversionGroup, type ConversionOutcome, convertGroup, OfficeTimeoutError } from './soffice.ts';

export interface BatcherOptions {
  /** soffice executable. */
  soffice: string;
  /** Most files in one soffice invocation. */
  batchSize: number;
  /** How long the first request of a batch waits for company before the batch starts. */
  waitMs: number;
  /** Concurrent soffice processes, each with its own warmed profile. */
  slots: number;
  /** Timeout of one soffice invocation: base plus a share per file. */
  timeoutBaseMs: number;
  timeoutPerFileMs: number;
}

interface Job {
  name: string;
  bytes: Uint8Array;
  format: OfficeFormat;
  target: 'same' | 'pdf';
  resolve(bytes: Uint8Array): void;
  reject(err: Error): void;
}

interface Slot {
  profile: OfficeProfile | undefined;
}

/** Error for one file LibreOffice could not convert; the other files of its batch are unaffected. */
export class OfficeConversionError extends Error {
  override name = 'OfficeConversionError';
}

/**
 * Collects conversion requests from concurrent callers and runs them as few soffice
 * invocations as possible: one per (format, target) group of a batch. A batch starts when
 * `batchSize` files wait, or `waitMs` after the first one arrived, or as soon as a busy
 * soffice slot frees up (those requests have waited already).
 */
export class OfficeBatcher {
  private readonly pending: Job[] = [];
  private readonly idle: Slot[] = [];
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: BatcherOptions) {
    for (let i = 0; i < options.slots; i++) this.idle.push({ profile: undefined });
  }

  convert(
    name: string,
    bytes: Uint8Array,
    format: OfficeFormat,
    target: 'same' | 'pdf',
  ): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('office batcher is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ name, bytes, format, target, resolve, reject });
      this.schedule(false);
    });
  }

  /** Rejects requests still waiting, lets running batches finish, then removes the profiles. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const job of this.pending.splice(0)) job.reject(new Error('office batcher closed'));
    await Promise.all(this.running);
    await Promise.all(this.idle.map((s) => (s.profile ? removeProfile(s.profile) : undefined)));
  }

  private schedule(slotFreed: boolean): void {
    if (this.pending.length === 0 || this.idle.length === 0) return;
    if (slotFreed || this.pending.length >= this.options.batchSize) {
      this.dispatch();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.dispatch(), this.options.waitMs);
    }
  }

  private dispatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.idle.length > 0 && this.pending.length > 0) {
      const slot = this.idle.pop()!;
      const batch = this.pending.splice(0, this.options.batchSize);
      const run = this.runBatch(slot, batch).finally(() => {
        this.running.delete(run);
        this.idle.push(slot);
        this.schedule(true);
      });
      this.running.add(run);
    }
  }

  private async runBatch(slot: Slot, batch: Job[]): Promise<void> {
    const groups = new Map<string, Job[]>();
    for (const job of batch) {
      const key = `${job.format}>${job.target}`;
      groups.set(key, [...(groups.get(key) ?? []), job]);
    }
    for (const jobs of groups.values()) {
      const group: ConversionGroup = {
        format: jobs[0].format,
        target: jobs[0].target,
        files: jobs.map((j) => ({ name: j.name, bytes: j.bytes })),
      };
      let outcomes: ConversionOutcome[];
      try {
        slot.profile ??= await createProfile();
        const timeout = this.options.timeoutBaseMs + this.options.timeoutPerFileMs * jobs.length;
        outcomes = await convertGroup(this.options.soffice, slot.profile, group, timeout);
      } catch (err) {
        // A killed soffice may leave a locked or half-written profile: start the next batch fresh.
        if (err instanceof OfficeTimeoutError && slot.profile) {
          await removeProfile(slot.profile);
          slot.profile = undefined;
        }
        const message = err instanceof Error ? err.message : String(err);
        outcomes = jobs.map(() => ({ ok: false, error: message }));
      }
      jobs.forEach((job, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) job.resolve(outcome.bytes);
        else job.reject(new OfficeConversionError(outcome.error));
      });
    }
  }
}
