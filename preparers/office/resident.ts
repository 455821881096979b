import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childEnv } from '../../infra/childEnv.ts';
import { OfficeConversionError } from './batcher.ts';
import { FILTERS, type OfficeFormat } from './formats.ts';
import { createProfile, type OfficeProfile, removeProfile } from './profile.ts';

export interface ResidentOptions {
  /** soffice executable. */
  soffice: string;
  /** Python with the UNO module (Debian python3-uno). */
  python: string;
  /** LibreOffice processes kept running. */
  processes: number;
  /** A file that takes longer is abandoned: the member's process group is killed and restarted. */
  fileTimeoutMs: number;
  /** How long a member may take to start and accept connections. */
  startTimeoutMs: number;
  /** A member is replaced by a fresh one after this many files (LibreOffice grows with use). */
  recycleAfter: number;
  /** Attempts per file when its member dies or hangs (the file is retried on a fresh member). */
  attempts: number;
}

const BRIDGE = fileURLToPath(new URL('./uno_bridge.py', import.meta.url));
/** Each office app's own LibreOffice edits (its folder's uno_ops.py), loaded by the bridge. */
const UNO_OPS = ['calc', 'writer', 'impress'].map((app) =>
  fileURLToPath(new URL(`../${app}/uno_ops.py`, import.meta.url)),
);

const PDF_FILTER: Record<OfficeFormat, string> = {
  xlsx: 'calc_pdf_Export',
  docx: 'writer_pdf_Export',
  pptx: 'impress_pdf_Export',
};

/**
 * An edit LibreOffice makes between load and save, as a person would in its UI (uno_bridge.py
 * OPS): e.g. `{ op: 'writer.insert_toc', before: 'Introduction', levels: 3 }`.
 */
export type OfficeOp = { op: string } & Record<string, unknown>;

interface Job {
  name: string;
  bytes: Uint8Array;
  format: OfficeFormat;
  target: 'same' | 'pdf';
  ops: OfficeOp[];
  tries: number;
  resolve(made: OfficeMade): void;
  reject(err: Error): void;
}

/**
 * A file LibreOffice saved, and the files its ops wrote besides it (an export), by the op's index
 * in the request.
 */
export interface OfficeMade {
  bytes: Uint8Array;
  extras: Map<number, Uint8Array>;
}

type Answer = { ok: true; extras?: number[] } | { ok: false; error: string; lost?: boolean };

/** A member's process died or hung; the file it was converting is not at fault (yet). */
class MemberLost extends Error {}

/**
 * One LibreOffice process and the Python bridge that drives it, in a process group of their own
 * (killed as a whole on a hang), with a private profile and work directory.
 */
class Member {
  files = 0;
  private child: ChildProcess | undefined;
  private waiting: ((a: Answer | MemberLost) => void) | undefined;
  private exited = false;
  private work = '';
  private profile: OfficeProfile | undefined;
  private stderr = '';

  constructor(private readonly options: ResidentOptions) {}

  /** Starts soffice and waits for the bridge's "ready". */
  async start(): Promise<void> {
    this.profile = await createProfile('cua-forge-office-resident-');
    this.work = await mkdtemp(path.join(tmpdir(), 'cua-forge-office-work-'));
    const pipe = `cua-forge-${process.pid}-${randomBytes(6).toString('hex')}`;
    const child = spawn(
      this.options.python,
      [BRIDGE, this.options.soffice, this.profile.arg, pipe, ...UNO_OPS],
      {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: childEnv({ pass: ['SAL_USE_VCLPLUGIN', 'PYTHONPATH'] }),
      },
    );
    this.child = child;
    // An idle pool never keeps the process alive (the per-file timer does while a file converts);
    // when this process ends, the bridge reads end-of-input and quits LibreOffice.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as { unref?(): void }[])
      stream?.unref?.();
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-2000);
    });
    child.stdin!.on('error', () => {
      // The bridge went away; its exit is handled below.
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const w = this.waiting;
      this.waiting = undefined;
      try {
        w?.(JSON.parse(line) as Answer);
      } catch {
        w?.(new MemberLost(`the UNO bridge said something unreadable: ${line.slice(0, 200)}`));
      }
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      const w = this.waiting;
      this.waiting = undefined;
      const why = this.stderr.includes("No module named 'uno'")
        ? `${this.options.python} has no UNO module: install python3-uno (scripts/deps.sh) or set FORGE_OFFICE_BACKEND=batch`
        : this.stderr.trim().slice(-300);
      w?.(new MemberLost(`LibreOffice bridge exited (${code ?? signal})${why ? `: ${why}` : ''}`));
    });
    child.on('error', (err) => {
      this.exited = true;
      const w = this.waiting;
      this.waiting = undefined;
      w?.(new MemberLost(`could not start the UNO bridge (${this.options.python}): ${err.message}`));
    });
    const ready = await this.next(this.options.startTimeoutMs);
    if (ready instanceof MemberLost) throw ready;
  }

  /** The next answer line, or MemberLost when the process exits or the time runs out (then killed). */
  private next(timeoutMs: number): Promise<Answer | MemberLost> {
    if (this.exited) return Promise.resolve(new MemberLost('LibreOffice bridge is not running'));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.kill();
        resolve(new MemberLost(`LibreOffice did not answer within ${timeoutMs} ms; killed and restarted`));
      }, timeoutMs);
      this.waiting = (a) => {
        clearTimeout(timer);
        resolve(a);
      };
    });
  }

  /** Converts one file; throws MemberLost when the member is gone, OfficeConversionError for the file. */
  async convert(job: Job): Promise<OfficeMade> {
    const ext = job.target === 'pdf' ? 'pdf' : job.format;
    const input = path.join(this.work, `in-${this.files}.${job.format}`);
    const output = path.join(this.work, `out-${this.files}.${ext}`);
    this.files++;
    await writeFile(input, job.bytes);
    // An op's own output (an export) is written by the bridge next to the output, by op index.
    const extraPaths = job.ops.map((_, i) => `${output}.extra-${i}`);
    try {
      const filters = FILTERS[job.format];
      const request = {
        in: input,
        out: output,
        inFilter: filters.input,
        outFilter: job.target === 'pdf' ? PDF_FILTER[job.format] : filters.roundTrip.split(':')[1],
        recalc: job.format === 'xlsx',
        ...(job.ops.length > 0 ? { ops: job.ops } : {}),
      };
      const pending = this.next(this.options.fileTimeoutMs);
      this.child!.stdin!.write(`${JSON.stringify(request)}\n`);
      const a = await pending;
      if (a instanceof MemberLost) throw a;
      if (!a.ok) {
        if (a.lost) throw new MemberLost(a.error);
        throw new OfficeConversionError(
          `LibreOffice could not convert ${job.name} (${job.format} → ${ext}): ${a.error}`,
        );
      }
      const bytes = await readFile(output).catch(() => Buffer.alloc(0));
      if (bytes.length === 0)
        throw new OfficeConversionError(
          `LibreOffice could not convert ${job.name} (${job.format} → ${ext}): empty output`,
        );
      const extras = new Map<number, Uint8Array>();
      for (const i of a.extras ?? []) {
        const p = extraPaths[i];
        if (p !== undefined) extras.set(i, new Uint8Array(await readFile(p)));
      }
      return { bytes: new Uint8Array(bytes), extras };
    } finally {
      await Promise.all([input, output, ...extraPaths].map((p) => rm(p, { force: true })));
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The process group id (soffice and its bridge), for tests that kill it from outside. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  kill(): void {
    if (this.child?.pid === undefined || this.exited) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Asks LibreOffice to quit, kills what is left after a moment, removes profile and work dir. */
  async stop(): Promise<void> {
    if (!this.exited && this.child) {
      const gone = new Promise<void>((resolve) => this.child!.once('exit', () => resolve()));
      this.child.stdin!.end(`${JSON.stringify({ quit: true })}\n`);
      const timer = setTimeout(() => this.kill(), 5_000);
      await gone;
      clearTimeout(timer);
    }
    this.kill();
    await rm(this.work, { recursive: true, force: true });
    if (this.profile) await removeProfile(this.profile);
  }
}

/**
 * A pool of resident LibreOffice processes driven over UNO: each file is loaded, saved and closed
 * in a running LibreOffice instead of starting one per batch. A member that hangs past the
 * per-file timeout or dies is killed (process group) and replaced, and the file it held is
 * retried on the fresh member; a member is recycled after `recycleAfter` files. The contract is
 * the batcher's: one settled result per file, a failing file never takes others down.
 */
export class ResidentOffice {
  private readonly pending: Job[] = [];
  private readonly idle: (Member | undefined)[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly members = new Set<Member>();
  private closed = false;

  constructor(private readonly options: ResidentOptions) {
    for (let i = 0; i < options.processes; i++) this.idle.push(undefined);
  }

  /** Loads the file, makes the `ops` edits in LibreOffice (none for a plain round trip), saves it. */
  async convert(
    name: string,
    bytes: Uint8Array,
    format: OfficeFormat,
    target: 'same' | 'pdf',
    ops: OfficeOp[] = [],
  ): Promise<Uint8Array> {
    return (await this.edit(name, bytes, format, target, ops)).bytes;
  }

  /** As convert, with the files the ops wrote besides the document (exports), by op index. */
  edit(
    name: string,
    bytes: Uint8Array,
    format: OfficeFormat,
    target: 'same' | 'pdf',
    ops: OfficeOp[] = [],
  ): Promise<OfficeMade> {
    if (this.closed) return Promise.reject(new Error('resident LibreOffice pool is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ name, bytes, format, target, ops, tries: 0, resolve, reject });
      this.dispatch();
    });
  }

  /** Process-group ids of the running members (tests kill one to prove the retry). */
  memberPids(): number[] {
    return [...this.members].filter((m) => m.alive && m.pid !== undefined).map((m) => m.pid!);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.pending.splice(0)) job.reject(new Error('resident LibreOffice pool closed'));
    await Promise.all(this.running);
    await Promise.all([...this.members].map((m) => m.stop()));
    this.members.clear();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.pending.length > 0) {
      const slot = this.idle.pop();
      const job = this.pending.shift()!;
      const run = this.runJob(slot, job).then((member) => {
        this.running.delete(run);
        this.idle.push(member);
        this.dispatch();
      });
      this.running.add(run);
    }
  }

  /** Runs one job on the slot's member (started or replaced as needed); answers the member to keep. */
  private async runJob(member: Member | undefined, job: Job): Promise<Member | undefined> {
    let m = member;
    try {
      if (!m?.alive || m.files >= this.options.recycleAfter) {
        if (m) {
          this.members.delete(m);
          await m.stop();
        }
        m = new Member(this.options);
        this.members.add(m);
        await m.start();
      }
      job.resolve(await m.convert(job));
      return m;
    } catch (err) {
      if (err instanceof OfficeConversionError) {
        job.reject(err);
        return m;
      }
      // The member died, hung or could not start: replace it, and retry the file unless it has
      // had its attempts (a file that kills LibreOffice every time must not loop).
      if (m) {
        this.members.delete(m);
        await m.stop();
      }
      job.tries++;
      if (job.tries < this.options.attempts && !this.closed) this.pending.unshift(job);
      else
        job.reject(
          new OfficeConversionError(
            `LibreOffice could not convert ${job.name}: ${(err as Error).message} (after ${job.tries} attempt(s))`,
          ),
        );
      return undefined;
    }
  }
}
