import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { canonicalJson, canonicalJsonLine } from '../infra/canonicalJson.ts';
import type { Database } from '../infra/db/client.ts';
import { requireRoundId } from '../infra/db/queries/known.ts';
import { packageRevision } from '../taskpack/revision.ts';
import { urlPath } from '../taskpack/setupScript.ts';
import { parseTaskPackage, type TaskPackage } from '../taskpack/taskPackage.ts';
import { osworldPackContext } from './osworld/packContext.ts';
import { type CheckEvaluator, toOsworldTask } from './osworld/task.ts';
import { openSink, type PackSink } from './sink.ts';
import { countPackages, iteratePackages, type PackObjectStore } from './source.ts';

// @2: the manifest names the models that made the tasks, and every task carries its revision.
export const PACK_FORMAT = 'cua-forge/pack@2';
export const MANIFEST_PATH = 'cua-forge-pack.json';
export const REPORT_PATH = 'export-report.json';
export const OSWORLD_INDEX_PATH = 'evaluation_examples/test_all.json';
export const JSONL_PATH = 'tasks.jsonl';

export const exportOptionsSchema = z.strictObject({
  round: z.string().min(1),
  skills: z.string().min(1).optional(),
  statuses: z.array(z.string().min(1)).min(1).default(['accepted']),
  format: z.enum(['osworld', 'jsonl']),
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

export interface ExportReport {
  format: 'osworld' | 'jsonl';
  round: string;
  selected: number;
  exported: number;
  /** The models that generated the exported tasks (from their provenance; `offline` for the offline model). */
  models: string[];
  /** Tasks left out of an OSWorld pack, each with the reason (no check can be graded). */
  excluded: { taskId: string; checkKind: string; reason: string }[];
  /** OSWorld packs: how many checks each evaluator grades, and which evaluator graded each check. */
  byEvaluator?: Record<string, number>;
  evaluators?: { taskId: string; checks: CheckEvaluator[] }[];
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
    ...(opts.format === 'osworld' ? { byEvaluator: {}, evaluators: [] } : {}),
  };
  const jsonlFile = opts.format === 'jsonl' && opts.out.endsWith('.jsonl');
  const sink = jsonlFile ? undefined : await openSink(opts.out);
  const shipped = new Map<string, { sha256: string; size: number }>();
  const index = new Map<string, string[]>();
  const models = new Set<string>();
  const spool = opts.format === 'jsonl' ? await openSpool(jsonlFile ? opts.out : undefined) : undefined;
  try {
    let done = 0;
    for await (const row of iteratePackages(deps.database, selection, opts.pageSize)) {
      const text = Buffer.from(await deps.store.getObject(row.taskJsonKey)).toString('utf8');
      const pkg = parseTaskPackage(text, `task.json of ${row.taskId} (${row.taskJsonKey})`);
      if (pkg.id !== row.taskId)
        throw new Error(`${row.taskJsonKey} holds task ${pkg.id}, expected ${row.taskId}`);
      const ship = async (packPath: string, key: string, sha256: string) => {
        if (!sink) throw new Error('shipping files needs a folder or .tar.gz output');
        if (shipped.has(packPath)) return;
        const bytes = await deps.store.getObject(key);
        const actual = createHash('sha256').update(bytes).digest('hex');
        if (actual !== sha256)
          throw new Error(`object ${key} has sha256 ${actual}, task ${pkg.id} expects ${sha256}`);
        await sink.addFile(packPath, bytes);
        shipped.set(packPath, { sha256, size: bytes.byteLength });
      };
      const url = async (key: string) =>
        opts.baseUrl
          ? `${opts.baseUrl.replace(/\/+$/, '')}/${urlPath(key)}`
          : deps.store.presignedGetUrl(key, opts.urlExpirySeconds);
      if (opts.format === 'osworld' && sink) {
        const ctx = osworldPackContext(pkg, {
          artifact: async (key, sha256, packPath) => {
            if (opts.files === 'url') return { url: await url(key) };
            await ship(packPath, key, sha256);
            return { packPath };
          },
          file: async (packPath, bytes) => {
            if (shipped.has(packPath)) return;
            await sink.addFile(packPath, bytes);
            shipped.set(packPath, {
              sha256: createHash('sha256').update(bytes).digest('hex'),
              size: bytes.byteLength,
            });
          },
        });
        const result = await toOsworldTask(pkg, ctx);
        if (result.ok) {
          report.evaluators?.push({ taskId: pkg.id, checks: result.evaluators });
          for (const e of result.evaluators)
            report.byEvaluator![e.evaluator] = (report.byEvaluator![e.evaluator] ?? 0) + 1;
          await sink.addFile(
            `evaluation_examples/examples/${result.domain}/${pkg.id}.json`,
            encode(osworldExampleText(result.task)),
          );
          index.set(result.domain, [...(index.get(result.domain) ?? []), pkg.id]);
          for (const m of pkg.provenance.models) models.add(m);
          report.exported++;
        } else {
          for (const u of result.unmapped) report.excluded.push({ taskId: pkg.id, ...u });
        }
      } else if (spool) {
        const artifacts = [];
        for (const a of pkg.artifacts) {
          const uri: Record<string, string> = { s3: `s3://${deps.store.bucket}/${a.key}` };
          if (opts.files === 'ship' && sink) {
            await ship(`artifacts/${a.key}`, a.key, a.sha256);
            uri.path = `artifacts/${a.key}`;
          } else uri.url = await url(a.key);
          artifacts.push({ ...a, uri });
        }
        await spool.write(jsonlLine(pkg, artifacts));
        for (const m of pkg.provenance.models) models.add(m);
        report.exported++;
      }
      onProgress({ done: ++done, total, taskId: row.taskId });
    }
    report.models = [...models].sort();
    if (spool) {
      await spool.close();
      if (sink) await sink.addFileFromDisk(JSONL_PATH, spool.file);
    }
    if (sink) await finishPack(sink, opts.format, index, shipped, report);
    return report;
  } catch (err) {
    await sink?.abort();
    throw err;
  } finally {
    await spool?.cleanup();
  }
}

/** An OSWorld example file's text, as the pack holds it (the export gate grades these bytes too). */
export const osworldExampleText = (task: Record<string, unknown>) => canonicalJson(task);

/** One line of tasks.jsonl: the package with its artifacts located, and its revision. */
export const jsonlLine = (pkg: TaskPackage, artifacts: unknown[]) =>
  canonicalJsonLine({ ...pkg, artifacts, revision: packageRevision(pkg) });

async function finishPack(
  sink: PackSink,
  format: 'osworld' | 'jsonl',
  index: Map<string, string[]>,
  shipped: Map<string, { sha256: string; size: number }>,
  report: ExportReport,
): Promise<void> {
  if (format === 'osworld') {
    const sorted = Object.fromEntries([...index].map(([d, ids]) => [d, [...ids].sort()]));
    await sink.addFile(OSWORLD_INDEX_PATH, encode(canonicalJson(sorted)));
  }
  await sink.addFile(REPORT_PATH, encode(canonicalJson(report)));
  const files = Object.fromEntries([...shipped].sort(([a], [b]) => (a < b ? -1 : 1)));
  await sink.addFile(
    MANIFEST_PATH,
    encode(canonicalJson({ format: PACK_FORMAT, kind: format, models: report.models, files })),
  );
  await sink.finish();
}

const encode = (s: string) => Buffer.from(s, 'utf8');

/** JSONL lines go to a file as they are made (the final file, or a temp file to put in the archive). */
async function openSpool(target: string | undefined) {
  const dir = target ? undefined : await mkdtemp(path.join(os.tmpdir(), 'forge-export-'));
  const file = target ?? path.join(dir as string, JSONL_PATH);
  const stream = createWriteStream(file);
  return {
    file,
    async write(line: string) {
      if (!stream.write(line)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    },
    async close() {
      stream.end();
      await finished(stream);
    },
    async cleanup() {
      if (!stream.closed) stream.destroy();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
