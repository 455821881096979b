import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import * as Minio from 'minio';
import type { Database } from '../../infra/db/client.ts';
import {
  artifacts,
  llmCalls,
  packages,
  rounds,
  skills,
  studentResults,
  taskArtifacts,
  tasks,
} from '../../infra/db/schema.ts';
import type { S3Endpoint } from '../../infra/dev/endpoints.ts';
import type { ObjectStore } from '../../infra/objectStore.ts';

/**
 * A realistic finished round written straight into the real Postgres and MinIO, for the API and
 * dashboard tests until a helper provides one from a real round: tasks over several skills and apps,
 * accepted / rejected (three reasons) / failed, 2–6 priced LLM calls per task with retries and cache
 * hits spread over 40 minutes, a task.json package and artifacts for accepted tasks, student results.
 */
export interface SeededRound {
  roundId: string;
  skillIds: string[];
  taskIds: string[];
  acceptedTaskId: string;
  artifactVmPath: string;
  artifactBytes: Buffer;
  objectKeys: string[];
}

/** A tiny seeded PRNG (mulberry32) so every run writes the same shape of data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const apps = [['calc'], ['writer'], ['impress'], ['thunderbird'], ['calc', 'thunderbird'], ['os']];
const reasons = ['verify_oracle_failed', 'judge_inconsistent', 'llm_invalid_output'];
const nodes = ['scenario', 'instruction', 'judge'];

export async function seedRound(
  database: Database,
  store: ObjectStore,
  options: { prefix: string; skills?: number; tasksPerSkill?: number; status?: string; seed?: number },
): Promise<SeededRound> {
  const rand = prng(options.seed ?? 7);
  const { db } = database;
  const roundId = `${options.prefix}-${randomUUID().slice(0, 8)}`;
  const start = new Date(Date.now() - 3 * 3600_000);
  const skillCount = options.skills ?? 6;
  const perSkill = options.tasksPerSkill ?? 8;
  const skillIds = Array.from({ length: skillCount }, (_, i) => `${roundId.toLowerCase()}.skill-${i + 1}`);
  await db.insert(rounds).values({
    id: roundId,
    status: options.status ?? 'completed',
    seed: 42,
    budgetUsd: 5,
    settings: { tasksPerSkill: perSkill },
    progress: { done: skillCount * perSkill },
    workflowId: `round-${roundId}`,
    createdAt: start,
    finishedAt: options.status === 'running' ? null : new Date(start.getTime() + 45 * 60_000),
  });
  await db.insert(skills).values(
    skillIds.map((id, i) => ({
      id,
      title: `Seeded skill ${i + 1}`,
      apps: apps[i % apps.length],
      difficulty: 1 + (i % 3),
      channel: 'either',
      currentVersion: 1,
    })),
  );

  // Every skill with more than two tasks has all three instruction levels, unevenly (i % 3).
  const levels = ['explicit', 'natural', 'goal'] as const;
  const taskRows: (typeof tasks.$inferInsert)[] = [];
  const callRows: (typeof llmCalls.$inferInsert)[] = [];
  for (const [s, skillId] of skillIds.entries()) {
    for (let i = 0; i < perSkill; i++) {
      const id = randomUUID();
      const roll = rand();
      const status = roll < 0.6 ? 'accepted' : roll < 0.9 ? 'rejected' : 'failed';
      const began = new Date(start.getTime() + Math.floor(rand() * 40 * 60_000));
      const reason = status === 'rejected' ? reasons[Math.floor(rand() * reasons.length)] : null;
      taskRows.push({
        id,
        roundId,
        skillId,
        specVersion: 1,
        taskIndex: i,
        seed: 1000 + i,
        apps: apps[s % apps.length],
        status,
        rejectReason: reason,
        rejectNode: reason ? 'verify' : null,
        instruction: `In budget-${s}-${i}.xlsx, put the total of the Amount column under its last row.`,
        instructionLevel: levels[i % levels.length],
        difficulty: 1 + (s % 3),
        startedAt: began,
        finishedAt: new Date(began.getTime() + 20_000 + Math.floor(rand() * 60_000)),
      });
      const calls = 2 + Math.floor(rand() * 5);
      for (let c = 0; c < calls; c++) {
        const node = nodes[c % nodes.length];
        const cacheHit = rand() < 0.1;
        const prompt = 400 + Math.floor(rand() * 1600);
        const completion = 50 + Math.floor(rand() * 400);
        const cached = Math.floor(prompt * rand() * 0.5);
        const model = node === 'judge' ? 'gpt-4.1' : 'gpt-4.1-mini';
        const price = model === 'gpt-4.1' ? [2, 0.5, 8] : [0.4, 0.1, 1.6];
        const usd = cacheHit
          ? 0
          : ((prompt - cached) * price[0] + cached * price[1] + completion * price[2]) / 1_000_000;
        callRows.push({
          roundId,
          skillId,
          taskId: id,
          nodeId: node,
          attempt: 1 + Math.floor(c / nodes.length),
          provider: 'openai',
          model,
          requestId: `req-${randomUUID()}`,
          requestHash: randomUUID(),
          promptTokens: prompt,
          cachedTokens: cached,
          completionTokens: completion,
          reasoningTokens: 0,
          usd,
          priceVersion: '2025-01',
          latencyMs: 300 + Math.floor(rand() * 3000),
          cacheHit,
          outcome: 'ok',
          createdAt: new Date(began.getTime() + c * 4000),
        });
      }
    }
  }
  await db.insert(tasks).values(taskRows);
  await db.insert(llmCalls).values(callRows);

  const accepted = taskRows.filter((t) => t.status === 'accepted');
  const objectKeys: string[] = [];
  const artifactVmPath = 'Documents/budget.xlsx';
  const artifactBytes = Buffer.from(`seeded workbook for ${roundId}`);
  const artifactKey = `test/${roundId}/artifacts/budget.xlsx`;
  await store.putObject(
    artifactKey,
    artifactBytes,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  objectKeys.push(artifactKey);
  await db.insert(artifacts).values({
    key: artifactKey,
    sha256: 'a'.repeat(64),
    size: artifactBytes.byteLength,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  for (const t of accepted) {
    const taskJson = {
      format: 'cua-forge/task@1',
      id: t.id,
      skill: { id: t.skillId, version: 1, title: 'Seeded skill', channel: 'either' },
      apps: t.apps,
      instruction: t.instruction,
      difficulty: t.difficulty,
      seed: t.seed,
      params: {},
      artifacts: [
        {
          role: 'initial',
          app: t.apps[0],
          vmPath: artifactVmPath,
          key: artifactKey,
          sha256: 'a'.repeat(64),
          size: artifactBytes.byteLength,
        },
      ],
      setup: [
        { type: 'download', files: [{ artifactKey, sha256: 'a'.repeat(64), vmPath: artifactVmPath }] },
        { type: 'open', vmPath: artifactVmPath },
      ],
      rubric: {
        checks: [
          {
            kind: 'calc.cell_value',
            file: artifactVmPath,
            sheet: 'Sheet1',
            cell: 'B12',
            value: 1234.5,
            approx: 0.01,
          },
        ],
        items: [{ text: 'The total under the Amount column equals the sum of the column.', weight: 1 }],
      },
      oracle: { edits: [{ op: 'calc.set_formula' }] },
    };
    const taskJsonKey = `test/${roundId}/packages/${t.id}/task.json`;
    const setupKey = `test/${roundId}/packages/${t.id}/setup.sh`;
    await store.putObject(taskJsonKey, JSON.stringify(taskJson), 'application/json');
    await store.putObject(setupKey, '#!/bin/sh\nset -eu\n', 'text/x-shellscript');
    objectKeys.push(taskJsonKey, setupKey);
    await db.insert(packages).values({
      taskId: t.id,
      roundId,
      skillId: t.skillId,
      taskJsonKey,
      setupKey,
      sha256: 'b'.repeat(64),
    });
    await db.insert(taskArtifacts).values({
      taskId: t.id,
      role: 'initial',
      vmPath: artifactVmPath,
      key: artifactKey,
      app: t.apps[0],
    });
  }
  // Two student runs on most accepted tasks, so pass rates are defined but not trivial.
  const results = accepted.flatMap((t, i) =>
    i % 4 === 3
      ? []
      : ['run-a', 'run-b'].map((run) => ({
          taskId: t.id,
          studentRunId: run,
          roundId,
          success: rand() < 0.55 ? 1 : rand() < 0.5 ? 0.5 : 0,
          steps: 5 + Math.floor(rand() * 20),
        })),
  );
  if (results.length > 0) await db.insert(studentResults).values(results);

  return {
    roundId,
    skillIds,
    taskIds: taskRows.map((t) => t.id!),
    acceptedTaskId: accepted[0].id!,
    artifactVmPath,
    artifactBytes,
    objectKeys,
  };
}

/** Deletes every row and object the seed wrote (the rollup triggers take the rollups back to zero). */
export async function removeSeededRound(
  database: Database,
  s3: S3Endpoint,
  seeded: SeededRound,
): Promise<void> {
  const { db } = database;
  await db.delete(studentResults).where(sql`round_id = ${seeded.roundId}`);
  await db.delete(taskArtifacts).where(inArray(taskArtifacts.taskId, seeded.taskIds));
  await db.delete(packages).where(sql`round_id = ${seeded.roundId}`);
  await db.delete(llmCalls).where(sql`round_id = ${seeded.roundId}`);
  await db.delete(tasks).where(sql`round_id = ${seeded.roundId}`);
  await db.delete(artifacts).where(sql`key LIKE ${`test/${seeded.roundId}/%`}`);
  await db.delete(skills).where(inArray(skills.id, seeded.skillIds));
  await db.delete(rounds).where(sql`id = ${seeded.roundId}`);
  const client = new Minio.Client({
    endPoint: s3.endPoint,
    port: s3.port,
    useSSL: s3.useSSL,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: s3.region,
    pathStyle: true,
  });
  await client.removeObjects(s3.bucket, seeded.objectKeys);
}
