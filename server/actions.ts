import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { cancelRound, retryFailedRound } from '../app/rounds/control.ts';
import { startRequestedRound } from '../app/rounds/request.ts';
import {
  type ExportReport,
  exportPack,
  FORMATS,
  type FormatName,
  REPORT_PATH,
} from '../export/exportPack.ts';
import type { PackObjectStore } from '../export/source.ts';
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/client.ts';
import { repoRoot } from '../infra/paths.ts';
import { RoundRequestError } from '../infra/requestError.ts';
import { ingestFeedback } from '../taxonomy/feedback.ts';
import { planFromFeedback } from '../taxonomy/plan.ts';
import type { ServerActions } from './deps.ts';
import { ApiError, notFound } from './errors.ts';

export interface ActionDeps {
  config: Config;
  database: Database;
  store: PackObjectStore;
  /** A Temporal client, or a way to get one when an action first needs it (forge serve connects lazily). */
  temporal: Client | (() => Promise<Client>);
  /** Where exports are written, one entry per export id; out/exports under the repository unless a test says. */
  exportsDir?: string;
}

export interface ExportJob {
  exportId: string;
  roundId: string;
  format: FormatName;
  status: 'running' | 'completed' | 'failed';
  path: string;
  startedAt: string;
  finishedAt: string | null;
  report: ExportReport | null;
  error: string | null;
}

/**
 * The implementations behind the API's mutating routes, failing with the status the client should
 * see: bad input 400, unknown things 404, a round that exists or has ended 409.
 */
const statusOfKind = {
  invalid: [400, 'invalid_request'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
} as const;

function classify(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  if (err instanceof z.ZodError) {
    const summary = err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    return new ApiError(400, 'invalid_request', `invalid request: ${summary}`, err.issues);
  }
  if (err instanceof RoundRequestError) {
    const [status, code] = statusOfKind[err.kind];
    return new ApiError(status, code, err.message);
  }
  return err;
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classify(err);
  }
}

export function createActions(deps: ActionDeps): ServerActions {
  const { config, database, store } = deps;
  const exportsDir = deps.exportsDir ?? path.join(repoRoot, 'out', 'exports');
  const jobs = new Map<string, ExportJob>();
  let client: Promise<Client> | undefined;
  const temporal = (): Promise<Client> => {
    const source = deps.temporal;
    client ??= typeof source === 'function' ? source() : Promise.resolve(source);
    // A failed connection is retried on the next call rather than remembered.
    client.catch(() => {
      client = undefined;
    });
    return client;
  };
  const roundDeps = async () => ({ config, database, temporal: await temporal() });

  return {
    startRound: (input) =>
      guarded(async () => {
        const { plan: _plan, ...started } = await startRequestedRound(await roundDeps(), input);
        return { ...started, status: 'running', url: `/api/rounds/${started.roundId}` };
      }),

    cancelRound: (roundId) =>
      guarded(async () => {
        await cancelRound(await roundDeps(), roundId);
        return { roundId, status: 'cancelling' };
      }),

    retryFailed: (roundId) =>
      guarded(async () => {
        const { slots } = await retryFailedRound(await roundDeps(), roundId);
        return { roundId, status: 'running', slots, url: `/api/rounds/${roundId}` };
      }),

    planRound: (query) =>
      guarded(() =>
        planFromFeedback(database, query.fromFeedbackRound, {
          totalTasks: query.totalTasks,
          taxonomyVersion: query.taxonomyVersion,
        }),
      ),

    ingestFeedback: (roundId, jsonl) =>
      guarded(async () => {
        const result = await ingestFeedback(database, roundId, jsonl);
        if (!result.ok) {
          const first = result.errors
            .slice(0, 3)
            .map((e) => `line ${e.line}: ${e.message}`)
            .join('; ');
          const n = result.errorCount;
          const more = n > 3 ? ` (and ${n - 3} more)` : '';
          const listed = n > result.errors.length ? `; the first ${result.errors.length} are listed` : '';
          throw new ApiError(
            400,
            'invalid_feedback',
            `feedback not imported, ${n} bad line${n === 1 ? '' : 's'}: ${first}${more}${listed}`,
            result.errors,
          );
        }
        return result;
      }),

    startExport: (request) =>
      guarded(async () => {
        const exportId = `exp-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
        const out = path.join(exportsDir, request.archive ? `${exportId}.tar.gz` : exportId);
        const unfit = FORMATS[request.format].optionsProblem?.(out, request.files);
        if (unfit) throw new ApiError(400, 'invalid_request', unfit);
        const job: ExportJob = {
          exportId,
          roundId: request.roundId,
          format: request.format,
          status: 'running',
          path: out,
          startedAt: new Date().toISOString(),
          finishedAt: null,
          report: null,
          error: null,
        };
        jobs.set(exportId, job);
        // Packs can take minutes: the request returns at once and GET /api/exports/:id tells the outcome.
        exportPack(
          { database, store },
          {
            round: request.roundId,
            skills: request.skills,
            statuses: [request.status],
            format: request.format,
            out,
            files: request.files,
            baseUrl: config.FORGE_EXPORT_BASE_URL,
          },
        ).then(
          (report) =>
            Object.assign(job, { status: 'completed', report, finishedAt: new Date().toISOString() }),
          (err: unknown) =>
            Object.assign(job, {
              status: 'failed',
              error: err instanceof Error ? err.message : String(err),
              finishedAt: new Date().toISOString(),
            }),
        );
        return { ...job, url: `/api/exports/${exportId}` };
      }),

    getExport: (exportId) =>
      guarded(async () => {
        const job = jobs.get(exportId);
        if (job) return job;
        // An export from before a restart: its folder's report says it completed.
        const folder = path.join(exportsDir, exportId);
        const text = await readFile(path.join(folder, REPORT_PATH), 'utf8').catch(() => undefined);
        if (text === undefined) throw notFound(`export ${exportId}`);
        const report = JSON.parse(text) as ExportReport;
        return {
          exportId,
          roundId: report.round,
          format: report.format,
          status: 'completed',
          path: folder,
          startedAt: null,
          finishedAt: null,
          report,
          error: null,
        };
      }),
  };
}
