import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../infra/db/client.ts';
import {
  type FeedbackProblem,
  type FeedbackRecord,
  type IngestResult,
  ingestFeedbackRecords,
} from './feedback.ts';

/**
 * OSWorld's results tree, as its runners write it:
 *   <result_dir>/<action_space>/<observation_type>/<model>/<domain>/<task_id>/result.txt
 * result.txt holds the evaluator's score (a number in [0, 1]); the trajectory (traj.jsonl, one line
 * per step) lies beside it. One student run per model folder: its id is
 * `<action_space>/<observation_type>/<model>`, so runs of two models, or two attempts written to two
 * model folders, stay apart.
 */
export const RESULT_FILE = 'result.txt';
export const TRAJECTORY_FILE = 'traj.jsonl';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OsworldTree {
  records: FeedbackRecord[];
  problems: FeedbackProblem[];
  /** Task folders without a result.txt: the run never finished them; nothing is recorded for them. */
  missing: string[];
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Reads every task folder of the tree into feedback records; bad entries become problems naming their path. */
export async function readOsworldResults(root: string): Promise<OsworldTree> {
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`${root} is not a directory (an OSWorld result_dir)`);
  const tree: OsworldTree = { records: [], problems: [], missing: [] };
  let n = 0;
  for (const action of await subdirs(root)) {
    for (const observation of await subdirs(path.join(root, action))) {
      for (const model of await subdirs(path.join(root, action, observation))) {
        const runId = `${action}/${observation}/${model}`;
        for (const domain of await subdirs(path.join(root, runId))) {
          for (const taskId of await subdirs(path.join(root, runId, domain))) {
            const dir = path.join(root, runId, domain, taskId);
            const resultPath = path.join(dir, RESULT_FILE);
            const line = ++n;
            if (!UUID.test(taskId)) {
              tree.problems.push({ line, source: dir, message: `${taskId} is not a task id (a UUID)` });
              continue;
            }
            const text = await readFile(resultPath, 'utf8').catch(() => undefined);
            if (text === undefined) {
              tree.missing.push(dir);
              continue;
            }
            const score = text.trim() === '' ? Number.NaN : Number(text.trim());
            if (!Number.isFinite(score) || score < 0 || score > 1) {
              tree.records.push({
                line,
                source: resultPath,
                raw: text,
                unreadable: `not a score in [0, 1]: ${JSON.stringify(text.slice(0, 60))}`,
              });
              continue;
            }
            const trajectory = await readFile(path.join(dir, TRAJECTORY_FILE), 'utf8').catch(() => '');
            const steps = trajectory.split(/\r?\n/).filter((l) => l.trim() !== '').length;
            tree.records.push({
              line,
              source: resultPath,
              raw: { task_id: taskId.toLowerCase(), student_run_id: runId, success: score, steps },
            });
          }
        }
      }
    }
  }
  return tree;
}

export type OsworldIngestResult = IngestResult & { missing: string[] };

/** `forge feedback ingest --osworld-results DIR`: the same all-or-nothing ingest as a JSONL file. */
export async function ingestOsworldResults(
  database: Database,
  roundId: string,
  root: string,
): Promise<OsworldIngestResult> {
  const tree = await readOsworldResults(root);
  const result = await ingestFeedbackRecords(database, roundId, tree.records, tree.problems);
  return { ...result, missing: tree.missing };
}
