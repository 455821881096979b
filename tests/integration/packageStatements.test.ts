import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { type Acceptance, acceptTask, readForPackaging } from '../../activities/packageStatements.ts';
import {
  llmCalls,
  packages,
  rounds,
  taskArtifacts,
  taskNodeRuns,
  taskSignatures,
  tasks,
} from '../../infra/db/schema.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

/**
 * The packaging stage's two hand-written statements on the real Postgres: the read (the task's spend,
 * and only the accepted tasks it could duplicate) and the accept (the task row with or without the
 * prepared fields, the package index, artifacts, signature and node runs — all or nothing, and
 * nothing for a task that is no longer running).
 */
const SKILL = `test.package.${randomUUID().slice(0, 8)}`;
let svc: TestServices;
const roundIds: string[] = [];
const taskIds: string[] = [];

before(async () => {
  svc = await testServices();
});

after(async () => {
  const { db } = svc.database;
  await db.delete(llmCalls).where(inArray(llmCalls.taskId, taskIds));
  for (const table of [packages, taskArtifacts, taskNodeRuns, taskSignatures])
    await db.delete(table).where(inArray(table.taskId, taskIds));
  await db.delete(tasks).where(inArray(tasks.id, taskIds));
  await db.delete(rounds).where(inArray(rounds.id, roundIds));
  await closeTestServices();
});

async function newRound(kind: 'generation' | 'dry_run'): Promise<string> {
  const id = `pkg-${randomUUID()}`;
  roundIds.push(id);
  await svc.database.db.insert(rounds).values({
    id,
    kind,
    status: 'running',
    seed: 1,
    settings: {},
    workflowId: `round-${id}`,
  });
  return id;
}

async function newTask(roundId: string, status: string, signature?: string): Promise<string> {
  const id = randomUUID();
  taskIds.push(id);
  const { db } = svc.database;
  await db.insert(tasks).values({
    id,
    roundId,
    skillId: SKILL,
    specVersion: 1,
    taskIndex: taskIds.length,
    seed: 1,
    apps: ['os'],
    status,
    instruction: 'written earlier',
  });
  if (signature)
    await db
      .insert(taskSignatures)
      .values({ taskId: id, skillId: SKILL, paramSignature: signature, minhash: [taskIds.length, 2, 3] });
  return id;
}

const acceptance = (taskId: string, roundId: string, extra: Partial<Acceptance> = {}): Acceptance => ({
  taskId,
  packageKey: `packages/${roundId}/${taskId}/task.json`,
  setupKey: `packages/${roundId}/${taskId}/setup.sh`,
  packageSha256: 'ab'.repeat(32),
  costUsd: 0.25,
  tokens: 300,
  artifacts: [
    { role: 'initial', app: 'os', vmPath: 'notes/a.txt', key: 'artifacts/sha256/1', sha256: '1', size: 1 },
    { role: 'solved', app: 'os', vmPath: 'notes/a.txt', key: 'artifacts/sha256/2', sha256: '2', size: 2 },
  ],
  signature: { paramSignature: 'sig-new', minhash: [9, 8, 7] },
  runs: [
    { nodeId: 'content', kind: 'author', status: 'ok', durationMs: 12.6 },
    { nodeId: 'package', kind: 'package', status: 'ok', durationMs: 3, outputKey: 'k', detail: 'd' },
  ],
  ...extra,
});

describe('packaging statements', () => {
  test('the read sums the task spend and returns only accepted tasks it could duplicate', async () => {
    const generation = await newRound('generation');
    const dryRun = await newRound('dry_run');
    const same = await newTask(generation, 'accepted', 'sig-a');
    await newTask(generation, 'accepted', 'sig-b'); // other parameters: never a near-duplicate
    const inDryRun = await newTask(dryRun, 'accepted', 'sig-a'); // a dry run never blocks another round
    const task = await newTask(generation, 'running', 'sig-a'); // its own signature is never a match
    const call = (model: string, usd: number, prompt: number, attempt: number) => ({
      taskId: task,
      nodeId: 'content',
      attempt,
      provider: 'offline',
      model,
      requestHash: `h-${attempt}`,
      promptTokens: prompt,
      completionTokens: 10,
      usd,
      priceVersion: 'v',
      latencyMs: 1,
      outcome: 'ok',
    });
    await svc.database.db
      .insert(llmCalls)
      .values([call('m1', 0.5, 100, 1), call('m2', 0.25, 50, 2), call('m1', 0.125, 5, 3)]);

    const read = await readForPackaging(
      svc.database,
      { taskId: task, skillId: SKILL, roundId: generation },
      'sig-a',
    );
    assert.equal(read.usd, 0.875);
    assert.equal(read.tokens, 185);
    assert.deepEqual([...read.models].sort(), ['m1', 'm2']);
    assert.deepEqual(read.others, [{ taskId: same, minhash: [taskIds.indexOf(same) + 1, 2, 3] }]);

    // A dry run's own tasks count within that dry run; a task with no calls has no spend.
    const dryTask = await newTask(dryRun, 'running');
    const inOwn = await readForPackaging(
      svc.database,
      { taskId: dryTask, skillId: SKILL, roundId: dryRun },
      'sig-a',
    );
    assert.deepEqual(inOwn.others.map((o) => o.taskId).sort(), [same, inDryRun, task].sort());
    assert.deepEqual(
      { usd: inOwn.usd, tokens: inOwn.tokens, models: inOwn.models },
      {
        usd: 0,
        tokens: 0,
        models: [],
      },
    );
  });

  test('the accept writes the row, package, artifacts, signature and node runs, once', async () => {
    const roundId = await newRound('generation');
    const taskId = await newTask(roundId, 'running');
    const { db } = svc.database;
    // A node run recorded before (a retried stage) is overwritten, not duplicated.
    await db
      .insert(taskNodeRuns)
      .values({ taskId, nodeId: 'content', kind: 'author', status: 'failed', durationMs: 1 });
    const fields = {
      apps: ['os', 'thunderbird'],
      instruction: 'Move the March invoices into the archive folder.',
      instructionLevel: null,
      difficulty: 3,
      depth: 2,
      discovery: true,
      rubricItems: 4,
      params: { month: 'March', count: [1, 2] },
      rubricStats: { wrongSolutions: 4 },
    };
    assert.equal(await acceptTask(svc.database, acceptance(taskId, roundId, { fields })), true);

    const row = (await db.select().from(tasks).where(eq(tasks.id, taskId)))[0]!;
    assert.equal(row.status, 'accepted');
    assert.equal(row.packageKey, `packages/${roundId}/${taskId}/task.json`);
    assert.equal(row.costUsd, 0.25);
    assert.equal(row.tokens, 300);
    assert.ok(row.finishedAt instanceof Date);
    assert.deepEqual(
      {
        apps: row.apps,
        instruction: row.instruction,
        instructionLevel: row.instructionLevel,
        difficulty: row.difficulty,
        depth: row.depth,
        discovery: row.discovery,
        rubricItems: row.rubricItems,
        params: row.params,
        rubricStats: row.rubricStats,
      },
      fields,
    );
    const pkg = await db.select().from(packages).where(eq(packages.taskId, taskId));
    assert.deepEqual(
      pkg.map((p) => [p.roundId, p.skillId, p.setupKey, p.sha256]),
      [[roundId, SKILL, `packages/${roundId}/${taskId}/setup.sh`, 'ab'.repeat(32)]],
    );
    const arts = await db.select().from(taskArtifacts).where(eq(taskArtifacts.taskId, taskId));
    assert.deepEqual(arts.map((a) => [a.role, a.vmPath, a.key, a.app]).sort(), [
      ['initial', 'notes/a.txt', 'artifacts/sha256/1', 'os'],
      ['solved', 'notes/a.txt', 'artifacts/sha256/2', 'os'],
    ]);
    const sig = await db.select().from(taskSignatures).where(eq(taskSignatures.taskId, taskId));
    assert.deepEqual(
      sig.map((s) => [s.skillId, s.paramSignature, s.minhash]),
      [[SKILL, 'sig-new', [9, 8, 7]]],
    );
    const runs = await db.select().from(taskNodeRuns).where(eq(taskNodeRuns.taskId, taskId));
    assert.deepEqual(runs.map((r) => [r.nodeId, r.status, r.durationMs, r.outputKey, r.detail]).sort(), [
      ['content', 'ok', 13, null, null],
      ['package', 'ok', 3, 'k', 'd'],
    ]);

    // Accepted already: a second accept changes nothing and says so.
    const again = acceptance(taskId, roundId, {
      costUsd: 9,
      runs: [{ nodeId: 'content', kind: 'author', status: 'failed', durationMs: 99 }],
      signature: { paramSignature: 'other', minhash: [1] },
    });
    assert.equal(await acceptTask(svc.database, again), false);
    const after = (await db.select().from(tasks).where(eq(tasks.id, taskId)))[0]!;
    assert.equal(after.costUsd, 0.25);
    const runsAfter = await db.select().from(taskNodeRuns).where(eq(taskNodeRuns.taskId, taskId));
    assert.equal(runsAfter.find((r) => r.nodeId === 'content')?.status, 'ok');
    const sigAfter = await db.select().from(taskSignatures).where(eq(taskSignatures.taskId, taskId));
    assert.deepEqual(sigAfter[0]?.minhash, [9, 8, 7]);
  });

  test('a cancelled task is indexed nowhere; without fields the row keeps those written before', async () => {
    const roundId = await newRound('generation');
    const cancelled = await newTask(roundId, 'cancelled');
    const { db } = svc.database;
    assert.equal(await acceptTask(svc.database, acceptance(cancelled, roundId)), false);
    for (const table of [packages, taskArtifacts, taskNodeRuns, taskSignatures])
      assert.equal((await db.select().from(table).where(eq(table.taskId, cancelled))).length, 0);
    assert.equal((await db.select().from(tasks).where(eq(tasks.id, cancelled)))[0]?.status, 'cancelled');

    const split = await newTask(roundId, 'running');
    assert.equal(
      await acceptTask(svc.database, acceptance(split, roundId, { artifacts: [], runs: [] })),
      true,
    );
    const row = (await db.select().from(tasks).where(eq(tasks.id, split)))[0]!;
    assert.equal(row.status, 'accepted');
    assert.equal(row.instruction, 'written earlier');
    assert.deepEqual(row.apps, ['os']);
    assert.equal((await db.select().from(packages).where(eq(packages.taskId, split))).length, 1);
  });
});
