import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { getRound, resumeRound, waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { llmCalls, tasks } from '../../infra/db/schema.ts';
import { loadPriceTable, priceCall } from '../../llm/prices.ts';
import { startPricedEndpoint } from '../support/pricedEndpoint.ts';
import { roundSpend, taskStatusCounts, waitFor } from '../support/roundQueries.ts';
import { reply } from '../support/scriptedLlm.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

const SKILL = 'calc.formulas.sum-column';
const seed = () => Math.floor(Date.now() % 1_000_000_000);
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

async function forgeOn(
  script: Parameters<typeof startPricedEndpoint>[0],
  override?: Parameters<typeof startPricedEndpoint>[1],
) {
  const endpoint = await startPricedEndpoint(script, override);
  const forge: TestForge = await startTestForge(endpoint.env);
  closers.push(endpoint.llm.close, forge.close);
  return { forge, llm: endpoint.llm };
}

/** What one answered call costs at the scripted usage (1000 prompt, 200 cached, 500 completion tokens). */
function scriptedCallUsd(forge: TestForge): number {
  return priceCall(
    loadPriceTable(forge.config),
    'gpt-4.1-mini',
    { promptTokens: 1000, cachedTokens: 200, completionTokens: 500 },
    new Date(),
  ).usd;
}

describe('a round against a misbehaving OpenAI-compatible endpoint', () => {
  test('bad answers are repaired or rejected, errors retried, and every call is ledgered and priced', async () => {
    const { forge, llm } = await forgeOn([
      // task 0, scenario: invalid JSON, then a repair that still violates the schema → llm_invalid_output
      reply.invalidJson(),
      reply.schemaViolation({
        file_name: '../../etc/passwd',
        sheet: 'x',
        label_header: 'a',
        amount_header: 'b',
      }),
      // task 1, scenario: a 429 honoured with Retry-After, a 500, then a valid answer (fallback);
      reply.rateLimited('0'),
      reply.serverError(),
    ]);
    const started = await startRound(forge.deps, {
      skills: [SKILL],
      tasksPerSkill: 3,
      window: 1,
      taskConcurrency: 1,
      seed: seed(),
    });
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.tasksDone, 3);
    const { db } = forge.runtime.database;
    const rows = await db
      .select()
      .from(tasks)
      .where(eq(tasks.roundId, started.roundId))
      .orderBy(asc(tasks.taskIndex));
    assert.equal(rows[0]!.status, 'rejected');
    assert.equal(rows[0]!.rejectReason, 'llm_invalid_output');
    assert.match(rows[0]!.rejectDetail ?? '', /file_name/);
    assert.notEqual(rows[1]!.rejectReason, 'llm_invalid_output', 'the retried task got a usable answer');
    assert.notEqual(rows[1]!.rejectReason, 'llm_error');

    const calls = await db.select().from(llmCalls).where(eq(llmCalls.roundId, started.roundId));
    // Tasks of one content pool share its answer: a later task's row is a cache hit, billed $0.
    const provider = calls.filter((c) => !c.cacheHit);
    assert.equal(provider.length, llm.requests.length, 'one ledger row per provider call');
    assert.ok(calls.filter((c) => c.cacheHit).every((c) => c.usd === 0 && c.nodeId === 'content'));
    const t0 = calls.filter((c) => c.taskId === rows[0]!.id).sort((a, b) => a.attempt - b.attempt);
    assert.deepEqual(
      t0.map((c) => c.outcome),
      ['invalid_output', 'invalid_output'],
    );
    const t1scenario = calls.filter((c) => c.taskId === rows[1]!.id && c.nodeId === 'scenario');
    assert.equal(t1scenario.length, 3);
    assert.equal(t1scenario.filter((c) => c.outcome === 'http_error').length, 2);
    // Every answered call was billed at the scripted usage.
    const perCall = scriptedCallUsd(forge);
    const answered = provider.filter((c) => c.outcome !== 'http_error').length;
    assert.ok(
      Math.abs((await roundSpend(forge.runtime.database, started.roundId)) - answered * perCall) < 1e-9,
    );
    assert.equal(llm.remaining(), 0);
  });

  test('the budget cap holds: no task starts once spend plus reservations reach it; overshoot is bounded', async () => {
    const { forge } = await forgeOn([]);
    const perCall = scriptedCallUsd(forge);
    const budget = perCall * 3 * 4.5; // room for about four and a half tasks of three calls each
    const started = await startRound(forge.deps, {
      skills: [SKILL],
      tasksPerSkill: 30,
      window: 1,
      taskConcurrency: 3,
      budgetUsd: budget,
      reservationUsd: perCall * 3,
      seed: seed(),
    });
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'budget_exhausted');
    const spend = await roundSpend(forge.runtime.database, started.roundId);
    const counts = await taskStatusCounts(forge.runtime.database, started.roundId);
    const startedTasks = Object.values(counts).reduce((a, b) => a + b, 0);
    assert.ok(startedTasks < 30, 'the round stopped starting tasks');
    // Overshoot is bounded by the tasks in flight (3 at most) beyond their reservation; a task here costs
    // at most 3 calls, plus at most one repair call each.
    assert.ok(spend <= budget + 3 * 4 * perCall, `spend ${spend} exceeds the bound for budget ${budget}`);
    assert.ok(spend >= budget - 2 * 3 * perCall, 'the budget was actually used');
  });

  test('a broken endpoint pauses the round on its error rate; resume continues it', async () => {
    let broken = true;
    const { forge } = await forgeOn([], () => (broken ? reply.unauthorized() : undefined));
    const started = await startRound(forge.deps, {
      skills: [SKILL],
      tasksPerSkill: 8,
      window: 1,
      taskConcurrency: 1,
      pauseWindow: 5,
      pauseRejectRate: 0.5,
      seed: seed(),
    });
    await waitFor(
      'the pause',
      async () => (await getRound(forge.deps, started.roundId)).status === 'paused_error_rate',
    );
    const whilePaused = await taskStatusCounts(forge.runtime.database, started.roundId);
    assert.ok((whilePaused.rejected ?? 0) >= 5);
    assert.ok((whilePaused.accepted ?? 0) === 0);
    broken = false;
    await waitFor(
      'the round to settle in its pause',
      async () => ((await taskStatusCounts(forge.runtime.database, started.roundId)).running ?? 0) === 0,
    );
    await resumeRound(forge.deps, started.roundId);
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.tasksDone, 8);
    assert.ok(progress.accepted > 0, 'tasks after the resume were accepted');
    const reasons = (
      await forge.runtime.database.db.select().from(tasks).where(eq(tasks.roundId, started.roundId))
    ).map((t) => t.rejectReason);
    assert.ok(reasons.filter((r) => r === 'llm_error').length >= 5);
  });
});
