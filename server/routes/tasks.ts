import path from 'node:path';
import { z } from 'zod';
import { taskCost } from '../../infra/db/queries/costs.ts';
import { type RouteContext, temporalWorkflowUrl } from '../context.ts';
import { requireRound } from '../data/rounds.ts';
import { getTask, listTasks, taskArtifacts, taskNodeRuns, taskStudentResults } from '../data/tasks.ts';
import type { ServerDeps } from '../deps.ts';
import { ApiError, notFound } from '../errors.ts';
import { artifactQuery, taskListQuery, taskParams } from '../schemas.ts';

const packageArtifacts = z.object({
  artifacts: z
    .array(z.object({ role: z.string(), vmPath: z.string(), key: z.string(), app: z.string() }))
    .default([]),
});

async function readPackageJson(deps: ServerDeps, key: string | null): Promise<unknown> {
  if (!key) return null;
  const bytes = await deps.store.getObject(key).catch((err: unknown) => {
    throw new ApiError(
      502,
      'store_error',
      `could not read package ${key} from the object store: ${(err as Error).message}`,
    );
  });
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError(502, 'store_error', `package ${key} in the object store is not valid JSON`);
  }
}

export function taskRoutes({ deps, add }: RouteContext): void {
  const { db } = deps.database;

  add({
    method: 'GET',
    url: '/api/tasks',
    summary: 'Tasks filtered by round, skill, status and app, in start order; page with nextCursor',
    tag: 'tasks',
    access: 'read',
    query: taskListQuery,
    handler: async ({ query }) => {
      // A filter naming an unknown round is a 404 naming it, not an empty page.
      if (query.round) await requireRound(db, query.round);
      return listTasks(db, query);
    },
  });

  add({
    method: 'GET',
    url: '/api/tasks/:taskId',
    summary:
      'A task: its package (task.json), setup script, artifacts, node runs, per-call costs and Temporal link',
    tag: 'tasks',
    access: 'read',
    params: taskParams,
    handler: async ({ params }) => {
      const task = await getTask(db, params.taskId);
      if (!task) throw notFound(`task ${params.taskId}`);
      const [pkg, setupScript, artifacts, nodeRuns, cost, studentResults] = await Promise.all([
        readPackageJson(deps, task.taskJsonKey),
        task.setupKey
          ? deps.store.getObject(task.setupKey).then(
              (b) => b.toString('utf8'),
              () => null,
            )
          : null,
        taskArtifacts(db, params.taskId),
        taskNodeRuns(db, params.taskId),
        taskCost(db, params.taskId),
        taskStudentResults(db, params.taskId),
      ]);
      return {
        task,
        package: pkg,
        setupScript,
        artifacts,
        nodeRuns,
        cost,
        studentResults,
        temporalUrl: temporalWorkflowUrl(deps, task.roundId, task.skillId),
      };
    },
  });

  add({
    method: 'GET',
    url: '/api/tasks/:taskId/artifact',
    summary: 'Download one of a task’s artifacts (initial or solved) by its VM path',
    tag: 'tasks',
    access: 'read',
    params: taskParams,
    query: artifactQuery,
    responseType: 'application/octet-stream',
    handler: async ({ params, query }, _request, reply) => {
      const task = await getTask(db, params.taskId);
      if (!task) throw notFound(`task ${params.taskId}`);
      // Only keys the task itself lists can be downloaded, never an arbitrary object key.
      const listed = await taskArtifacts(db, params.taskId);
      let artifact: { key: string; contentType?: string | null } | undefined = listed.find(
        (a) => a.role === query.role && a.vmPath === query.path,
      );
      if (!artifact && task.taskJsonKey) {
        const parsed = packageArtifacts.safeParse(await readPackageJson(deps, task.taskJsonKey));
        artifact = parsed.success
          ? parsed.data.artifacts.find((a) => a.role === query.role && a.vmPath === query.path)
          : undefined;
      }
      if (!artifact) throw notFound(`${query.role} artifact ${query.path} of task ${params.taskId}`);
      if (!(await deps.store.exists(artifact.key))) throw notFound(`object ${artifact.key}`);
      const bytes = await deps.store.getObject(artifact.key);
      const name = path.posix.basename(query.path).replace(/[^\w.-]+/g, '_') || 'artifact';
      return reply
        .header('content-type', artifact.contentType ?? 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(bytes);
    },
  });
}
