/**
 * LibreOffice automation, shared by the Calc, Writer and Impress preparers and by the
 * office-verification node. Two backends with one contract (one settled result per file):
 * `resident` (default, resident.ts) keeps LibreOffice processes running and drives them over UNO
 * through uno_bridge.py (Debian python3-uno); `batch` (batcher.ts) starts one headless soffice per
 * batch of files and needs no Python.
 *
 * API (stable):
 * - `roundTripOffice(files)`: saves each `{name, bytes, format}` through the real LibreOffice
 *   in the same format (xlsx via "Calc MS Excel 2007 XML", docx via "MS Word 2007 XML",
 *   pptx via "Impress MS PowerPoint 2007 XML") and resolves with the saved bytes, in order.
 *   Rejects with an `OfficeConversionError` naming every file that failed.
 * - `convertToPdf(files)`: same, producing PDF bytes (proves LibreOffice opens and renders).
 * - `roundTripOfficeSettled(files)` / `convertToPdfSettled(files)`: one `OfficeOutcome` per file,
 *   so one damaged file does not hide the others' results.
 * - `officeFormatOf(path)`: 'xlsx' | 'docx' | 'pptx' | undefined, by extension.
 * - `closeOffice()`: stops accepting work and removes the LibreOffice profiles (tests, shutdown).
 *
 * Requests from concurrent callers are batched (see batcher.ts): up to `batchSize` files, or
 * whatever arrived within `waitMs`, go through ONE soffice call per
 * format. Each soffice runs in a fresh temp dir with a reused, pre-configured profile that makes
 * Calc recalculate every formula on load, so cached results in round-tripped xlsx files are
 * LibreOffice's own (the resident backend recalculates each workbook before saving it, too). The
 * caller configures the backend, executable, pool and batch sizes (configureOffice).
 */
import { cpus } from 'node:os';
import { z } from 'zod';
import { type BatcherOptions, OfficeBatcher, OfficeConversionError } from './batcher.ts';
import { OFFICE_FORMATS, type OfficeFormat, officeFormatOf } from './formats.ts';
import { type OfficeOp, ResidentOffice, type ResidentOptions } from './resident.ts';

export {
  type BatcherOptions,
  OFFICE_FORMATS,
  OfficeBatcher,
  OfficeConversionError,
  type OfficeFormat,
  type OfficeOp,
  officeFormatOf,
  ResidentOffice,
  type ResidentOptions,
};

/** What converts office files: the per-batch soffice batcher or the resident UNO pool. */
export interface OfficeConverter {
  convert(name: string, bytes: Uint8Array, format: OfficeFormat, target: 'same' | 'pdf'): Promise<Uint8Array>;
  close(): Promise<void>;
}

export type OfficeBackend = 'resident' | 'batch';

export interface OfficeFile {
  /** A label for errors (usually the home-relative path); never used as a file name. */
  name: string;
  bytes: Uint8Array;
  format: OfficeFormat;
}

export type OfficeOutcome = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

const officeFileSchema = z.object({
  name: z.string().min(1),
  bytes: z.instanceof(Uint8Array),
  format: z.enum(OFFICE_FORMATS),
});

let shared: OfficeConverter | undefined;

/** The settings a caller may give (the composition root passes FORGE_SOFFICE and FORGE_OFFICE_*). */
export type OfficeSettings = Partial<BatcherOptions> &
  Partial<Omit<ResidentOptions, 'soffice'>> & { backend?: OfficeBackend };

let settings: OfficeSettings = {};

/** Batcher options: built-in defaults, then the configured settings, then overrides. */
export function officeOptions(overrides: OfficeSettings = {}): BatcherOptions {
  const all = { ...settings, ...overrides };
  return {
    soffice: all.soffice ?? 'soffice',
    batchSize: all.batchSize ?? 24,
    waitMs: all.waitMs ?? 150,
    slots: all.slots ?? Math.max(1, Math.min(2, cpus().length)),
    timeoutBaseMs: all.timeoutBaseMs ?? 60_000,
    timeoutPerFileMs: all.timeoutPerFileMs ?? 5_000,
  };
}

/** Resident pool options: built-in defaults, then the configured settings, then overrides. */
export function residentOptions(overrides: OfficeSettings = {}): ResidentOptions {
  const all = { ...settings, ...overrides };
  return {
    soffice: all.soffice ?? 'soffice',
    python: all.python ?? '/usr/bin/python3',
    processes: all.processes ?? Math.max(1, Math.min(2, cpus().length)),
    fileTimeoutMs: all.fileTimeoutMs ?? 60_000,
    startTimeoutMs: all.startTimeoutMs ?? 60_000,
    recycleAfter: all.recycleAfter ?? 500,
    attempts: all.attempts ?? 2,
  };
}

/** The backend the settings choose: the resident pool unless `backend: 'batch'`. */
export function createOfficeConverter(overrides: OfficeSettings = {}): OfficeConverter {
  const backend = overrides.backend ?? settings.backend ?? 'resident';
  return backend === 'batch'
    ? new OfficeBatcher(officeOptions(overrides))
    : new ResidentOffice(residentOptions(overrides));
}

/** Sets the process-wide batcher's settings; takes effect for the next batcher started. */
export function configureOffice(next: OfficeSettings): void {
  settings = { ...next };
}

function batcher(): OfficeConverter {
  shared ??= createOfficeConverter();
  return shared;
}

/** Stops the shared batcher and removes its profiles; the next call starts a new one. */
export async function closeOffice(): Promise<void> {
  const b = shared;
  shared = undefined;
  await b?.close();
}

async function settle(
  files: OfficeFile[],
  target: 'same' | 'pdf',
  via?: OfficeConverter,
): Promise<OfficeOutcome[]> {
  const parsed = z.array(officeFileSchema).parse(files);
  const b = via ?? batcher();
  return Promise.all(
    parsed.map((f) =>
      b.convert(f.name, f.bytes, f.format, target).then(
        (bytes): OfficeOutcome => ({ ok: true, bytes }),
        (err: unknown): OfficeOutcome => ({
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        }),
      ),
    ),
  );
}

function unwrap(outcomes: OfficeOutcome[]): Uint8Array[] {
  const errors = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
  if (errors.length > 0) throw new OfficeConversionError(errors.join('\n'));
  return outcomes.map((o) => (o.ok ? o.bytes : new Uint8Array()));
}

export function roundTripOfficeSettled(files: OfficeFile[], via?: OfficeConverter): Promise<OfficeOutcome[]> {
  return settle(files, 'same', via);
}

export function convertToPdfSettled(files: OfficeFile[], via?: OfficeConverter): Promise<OfficeOutcome[]> {
  return settle(files, 'pdf', via);
}

export async function roundTripOffice(files: OfficeFile[], via?: OfficeConverter): Promise<Uint8Array[]> {
  return unwrap(await roundTripOfficeSettled(files, via));
}

export async function convertToPdf(files: OfficeFile[], via?: OfficeConverter): Promise<Uint8Array[]> {
  return unwrap(await convertToPdfSettled(files, via));
}
