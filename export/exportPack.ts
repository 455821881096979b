import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../infra/canonicalJson.ts';
import type { Database } from '../infra/db/client.ts';
import { requireRoundId } from '../infra/db/queries/known.ts';
import { urlPath } from '../taskpack/setupScript.ts';
import { parseTaskPackage } from '../taskpack/taskPackage.ts';
import { BUNDLE_INDEX_PATH, bundleFormat } from './bundle/format.ts';
import type { FormatReport, FormatTools, FormatWriter, PackFormat } from './format.ts';
import { JSONL_PATH, jsonlFormat, jsonlLine } from './jsonl/format.ts';
import { OSWORLD_INDEX_PATH, osworldExampleText, osworldFormat } from './osworld/format.ts';
import { openSink, type PackSink } from './sink.ts';
import { countPackages, iteratePackages, type PackObjectStore } from './source.ts';

// @2: the manifest names the models that made the tasks, and every task carries its revision.
export const PACK_FORMAT = 'cua-forge/pack@2';
export const MANIFEST_PATH = 'cua-forge-pack.json';
export const REPORT_PATH = 'export-report.json';
export { BUNDLE_INDEX_PATH, JSONL_PATH, jsonlLine, OSWORLD_INDEX_PATH, osworldExampleText };

/** The export formats by name: a new format is a file implementing PackFormat and a line here. */
export const FORMATS = {
  osworld: osworldFormat,
  jsonl: jsonlFormat,
  bundle: bundleFormat,
} as const satisfies Record<string, PackFormat>;
export type FormatName = keyof typeof FORMATS;
export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

export const exportOptionsSchema = z.strictObject({
  round: z.string().min(1),
  skills: z.string().min(1).optional(),
  statuses: z.array(z.string().min(1)).min(1).default(['accepted']),
  format: z.enum(FORMAT_NAMES as [FormatName, ...FormatName[]]),
  out: z.string().min(1),
  /** ship: artifacts go inside the pack; url: the pack refers to them by URL. */
  files: z.enum(['ship', 'url']).default('ship'),
  /** With files=url: `<baseUrl>/<key>`; without it, presigned object-store URLs (not reproducible). */
  baseUrl: z.url().optional(),
  urlExpirySeconds: z.number().int().min(60).max(604_800).default(604_800),
  pageSize: z.number().int().min(1).max(10_000).default(200),
});
export type ExportOptions = z.input<typeof exportOptionsSchema>;

export interface ExportDeps {
  database: Database;
  store: PackObjectStore;
}

export interface ExportProgress {
  done: number;
  total: number;
  taskId: string;
}

export interface ExportReport extends FormatReport {
  format: FormatName;
  round: string;
  selected: number;
  exported: number;
  /** The models that generated the exported tasks (from their provenance; `offline` for the offline model). */
  models: string[];
}

/**
 * Writes a task pack from the packages of one round. Packages are read a page at a time and
 * written as they come, so memory holds one task (and the id index), never the whole pack.
 * With files=ship or a base URL the output is byte-for-byte reproducible.
 */
export async function exportPack(
  deps: ExportDeps,
  options: ExportOptions,
  onProgress: (p: ExportProgress) => void = () => {},
): Promise<ExportReport> {
  const opts = exportOptionsSchema.parse(options);
  await requireRoundId(deps.database, opts.round);
  const selection = { round: opts.round, skills: opts.skills, statuses: opts.statuses };
  const total = await countPackages(deps.database, selection);
  const report: ExportReport = {
    format: opts.format,
    round: opts.round,
    selected: total,
    exported: 0,
    models: [],
    excluded: [],
  };
  const format = FORMATS[opts.format];
  const unfit = format.optionsProblem?.(opts.out, opts.files);
  if (unfit) throw new Error(unfit);
  const sink = format.needsFolder || !opts.out.endsWith('.jsonl') ? await openSink(opts.out) : undefined;
  const shipped = new Map<string, { sha256: string; size: number }>();
  const models = new Set<string>();
  const tools: FormatTools = {
    sink,
    async ship(packPath, key, sha256) {
      if (!sink) throw new Error('shipping files needs a folder or .tar.gz output');
      if (shipped.has(packPath)) return;
      const bytes = await deps.store.getObject(key);
      const actual = createHash('sha256').update(bytes).digest('hex');
      if (actual !== sha256) throw new Error(`object ${key} has sha256 ${actual}, expected ${sha256}`);
      await sink.addFile(packPath, bytes);
      shipped.set(packPath, { sha256, size: bytes.byteLength });
    },
    async file(packPath, bytes) {
      if (!sink) throw new Error(`${packPath} needs a folder or .tar.gz output`);
      if (shipped.has(packPath)) return;
      await sink.addFile(packPath, bytes);
      shipped.set(packPath, {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.byteLength,
      });
    },
    url: async (key) =>
      opts.baseUrl
        ? `${opts.baseUrl.replace(/\/+$/, '')}/${urlPath(key)}`
        : deps.store.presignedGetUrl(key, opts.urlExpirySeconds),
    bucket: deps.store.bucket,
    files: opts.files,
    out: opts.out,
  };
  let writer: FormatWriter | undefined;
  try {
    writer = await format.open(tools, report);
    let done = 0;
    for await (const row of iteratePackages(deps.database, selection, opts.pageSize)) {
      const text = Buffer.from(await deps.store.getObject(row.taskJsonKey)).toString('utf8');
      const pkg = parseTaskPackage(text, `task.json of ${row.taskId} (${row.taskJsonKey})`);
      if (pkg.id !== row.taskId)
        throw new Error(`${row.taskJsonKey} holds task ${pkg.id}, expected ${row.taskId}`);
      if (await writer.add(pkg)) {
        for (const m of pkg.provenance.models) models.add(m);
        report.exported++;
      }
      onProgress({ done: ++done, total, taskId: row.taskId });
    }
    report.models = [...models].sort();
    await writer.finish();
    if (sink) await finishPack(sink, opts.format, shipped, report);
    return report;
  } catch (err) {
    await sink?.abort();
    throw err;
  } finally {
    await writer?.cleanup();
  }
}

/** The report and the manifest every pack ends with, whatever its format. */
async function finishPack(
  sink: PackSink,
  format: FormatName,
  shipped: Map<string, { sha256: string; size: number }>,
  report: ExportReport,
): Promise<void> {
  await sink.addFile(REPORT_PATH, encode(canonicalJson(report)));
  const files = Object.fromEntries([...shipped].sort(([a], [b]) => (a < b ? -1 : 1)));
  await sink.addFile(
    MANIFEST_PATH,
    encode(canonicalJson({ format: PACK_FORMAT, kind: format, models: report.models, files })),
  );
  await sink.finish();
}

const encode = (s: string) => Buffer.from(s, 'utf8');
