import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import { startExpansion, waitForExpansion } from '../../app/expansion.ts';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { expansionProposals, llmCalls, rounds, tasks } from '../../infra/db/schema.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { ingestFeedback } from '../../taxonomy/feedback.ts';
import { taxonomyFromLibrary } from '../../taxonomy/library.ts';
import { planFromFeedback } from '../../taxonomy/plan.ts';
import { roundStats } from '../../taxonomy/stats.ts';
import { getTaxonomy, recordTaxonomy } from '../../taxonomy/store.ts';
import { skillIndex } from '../../taxonomy/tree.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

const SATURATED = 'calc.formulas.sum-column';
const WEAK = 'calc.formulas.average-column';
const TOO_HARD = 'multi.calc-thunderbird.total-to-draft';
const GOOD = 'thunderbird.folders.move-message';

/**
 * The hidden student: an ability per skill (longest id prefix wins, so derived skills can differ
 * from their parent), lowered by difficulty. Successes are spread with a low-discrepancy sequence
 * so a skill's pass rate is close to its ability and no task of it stands out.
 */
const ability: Record<string, number> = {
  [SATURATED]: 1.1,
  [WEAK]: 0.35,
  [TOO_HARD]: 0,
  [`${TOO_HARD}-`]: 0.7,
  [GOOD]: 0.7,
};
const RUNS = 4;

function chance(skillId: string, difficulty: number): number {
  const key = Object.keys(ability)
    .filter((k) => skillId.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  const a = key === undefined ? 0.5 : ability[key]!;
  return Math.min(1, Math.max(0, a - 0.1 * (difficulty - 1)));
}

async function studentFeedback(forge: TestForge, roundId: string): Promise<string> {
  const rows = await forge.runtime.database.db
    .select({
      id: tasks.id,
      skillId: tasks.skillId,
      difficulty: tasks.difficulty,
      taskIndex: tasks.taskIndex,
    })
    .from(tasks)
    .where(and(eq(tasks.roundId, roundId), eq(tasks.status, 'accepted')))
    .orderBy(asc(tasks.skillId), asc(tasks.taskIndex));
  const bySkill = new Map<string, typeof rows>();
  for (const r of rows) bySkill.set(r.skillId, [...(bySkill.get(r.skillId) ?? []), r]);
  const lines: string[] = [];
  for (const [skillId, list] of bySkill) {
    for (let run = 0; run < RUNS; run++) {
      list.forEach((t, i) => {
        const k = run * list.length + i;
        const p = chance(skillId, t.difficulty ?? 1);
        const success = ((k + 0.5) * 0.6180339887) % 1 < p ? 1 : 0;
        lines.push(
          JSON.stringify({
            task_id: t.id,
            student_run_id: `student-${run}`,
            success,
            steps: success ? 8 + i : 20,
            ...(success ? {} : { failure_tags: ['wrong_result'] }),
            tokens: 1200,
          }),
        );
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

const freshSeed = () => Math.floor(Date.now() % 1_000_000_000);

async function runRound(forge: TestForge, input: Parameters<typeof startRound>[1]) {
  const started = await startRound(forge.deps, {
    window: 6,
    taskConcurrency: 3,
    seed: freshSeed(),
    ...input,
  });
  const progress = await waitForRound(forge.deps, started.roundId);
  assert.equal(progress.status, 'completed');
  return started.roundId;
}

async function tasksPerSkill(forge: TestForge, roundId: string): Promise<Map<string, number>> {
  const rows = await forge.runtime.database.db
    .select({ skillId: tasks.skillId })
    .from(tasks)
    .where(eq(tasks.roundId, roundId));
  const m = new Map<string, number>();
  for (const r of rows) m.set(r.skillId, (m.get(r.skillId) ?? 0) + 1);
  return m;
}

describe('student feedback drives three rounds (offline, real Temporal/MinIO/Postgres)', () => {
  let forge: TestForge;
  before(async () => {
    // Three rounds and an expansion: their work outside node:test's async hook (tests/support/workers.ts).
    forge = await startTestForge({}, undefined, { workerProcess: true });
  });
  after(async () => {
    await forge?.close();
  });

  test('ingest → stats → expansion with gated specs → allocation → rounds 2 and 3', async () => {
    const { database } = forge.runtime;
    const { db } = database;
    const v1 = (
      await recordTaxonomy(database, taxonomyFromLibrary(loadSkillLibrary()), { note: 'feedback loop test' })
    ).version;

    // Round 1: four skills, three tasks each.
    const r1 = await runRound(forge, {
      skills: [SATURATED, WEAK, TOO_HARD, GOOD],
      tasksPerSkill: 3,
      taxonomyVersion: v1,
    });
    assert.equal((await db.select().from(rounds).where(eq(rounds.id, r1)))[0]!.taxonomyVersion, v1);

    // Ingest: a bad file imports nothing and names its lines; the good one imports; a repeat is a no-op.
    const jsonl = await studentFeedback(forge, r1);
    const good = jsonl.trim().split('\n');
    const bad = [
      good[0],
      '{"task_id": "00000000-0000-4000-8000-000000000000", "student_run_id": "x", "success": 1, "steps": 3}',
      good[0],
      'not json',
      good[1]?.replace('"success":1', '"success":2').replace('"success":0', '"success":-1'),
    ].join('\n');
    const refused = await ingestFeedback(database, r1, bad);
    assert.equal(refused.ok, false);
    if (!refused.ok)
      assert.deepEqual(
        refused.errors.map((e) => e.line),
        [2, 3, 4, 5],
        JSON.stringify(refused.errors),
      );
    assert.equal(
      (await roundStats(database, r1)).skills.reduce((a, s) => a + s.attempts, 0),
      0,
      'nothing half-imported',
    );
    const ingested = await ingestFeedback(database, r1, jsonl);
    assert.ok(ingested.ok && ingested.imported === good.length, JSON.stringify(ingested));
    const again = await ingestFeedback(database, r1, jsonl);
    assert.ok(again.ok && again.imported === 0 && again.unchanged === good.length);

    const stats1 = await roundStats(database, r1);
    const cls = Object.fromEntries(stats1.skills.map((s) => [s.skillId, s.class]));
    console.log(
      'round 1 classes',
      cls,
      stats1.skills.map((s) => `${s.skillId} ${s.successSum}/${s.attempts}`),
    );
    assert.equal(cls[SATURATED], 'saturated');
    assert.equal(cls[TOO_HARD], 'too_hard');
    assert.equal(cls[WEAK], 'learnable');

    // Expansion: proposals authored by the offline model, each gated by a 3-task dry run.
    const { runId } = await startExpansion(forge.deps, { fromRoundId: r1, concurrency: 4 });
    const summary = await waitForExpansion(forge.deps, runId);
    console.log('expansion', JSON.stringify(summary));
    assert.ok(summary.taxonomyVersion > v1, 'a new taxonomy version');
    assert.ok(
      summary.adopted.length >= 3,
      `adopted ${summary.adopted.join(', ')}; rejected ${JSON.stringify(summary.rejected)}`,
    );
    assert.ok(summary.retired.includes(SATURATED));
    const kinds = await db
      .select({ kind: expansionProposals.kind, target: expansionProposals.targetSkillId })
      .from(expansionProposals)
      .where(eq(expansionProposals.expansionRunId, runId));
    assert.deepEqual(
      new Set(kinds.map((k) => `${k.target}:${k.kind}`)),
      new Set([`${TOO_HARD}:split`, `${WEAK}:sibling`, `${SATURATED}:harder`, `${SATURATED}:retire`]),
    );
    assert.ok(summary.tokens > 0, 'the expansion spent tokens under its run id');
    const v2 = await getTaxonomy(database, summary.taxonomyVersion);
    assert.equal(v2.parentVersion, v1);
    const idx1 = skillIndex((await getTaxonomy(database, v1)).tree);
    const idx2 = skillIndex(v2.tree);
    assert.ok(idx2.size > idx1.size, 'the taxonomy grew');
    assert.equal(idx2.get(SATURATED)?.status, 'retired');
    for (const id of summary.adopted) assert.equal(idx2.get(id)?.status, 'candidate');
    const adoptedRows = await db
      .select()
      .from(expansionProposals)
      .where(and(eq(expansionProposals.expansionRunId, runId), eq(expansionProposals.status, 'adopted')));
    assert.equal(adoptedRows.length, summary.adopted.length);
    for (const p of adoptedRows) {
      const gate = await db
        .select({ status: tasks.status })
        .from(tasks)
        .where(eq(tasks.roundId, p.dryRunRoundId!));
      assert.deepEqual(
        gate.map((g) => g.status),
        ['accepted', 'accepted', 'accepted'],
        `gate of ${p.skillId}`,
      );
      const spent = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(llmCalls)
        .where(and(eq(llmCalls.roundId, p.dryRunRoundId!), eq(llmCalls.expansionRunId, runId)));
      assert.ok(spent[0]!.n > 0, 'gate spend is ledgered under the expansion run');
    }

    // Round 2 from the plan: none for the retired skill, more for the weak one, a share for candidates.
    const plan2 = await planFromFeedback(database, r1, { totalTasks: 14 });
    console.log(
      'plan 2',
      plan2.entries.map((e) => `${e.skillId}: ${e.tasks} (${e.reason})`),
    );
    assert.equal(plan2.taxonomyVersion, summary.taxonomyVersion);
    assert.equal(plan2.allocation[SATURATED], undefined);
    // Round 1 gave each of its four skills a quarter; among them the weak one now gets the largest share.
    const measured = [SATURATED, WEAK, TOO_HARD, GOOD].reduce((a, id) => a + (plan2.allocation[id] ?? 0), 0);
    assert.ok(
      plan2.allocation[WEAK]! / measured > 0.25,
      'the allocation moved toward the skill the student fails but can learn',
    );
    assert.ok(plan2.allocation[WEAK]! > (plan2.allocation[GOOD] ?? 0));
    assert.ok(plan2.allocation[WEAK]! > (plan2.allocation[TOO_HARD] ?? 0));
    for (const id of summary.adopted) assert.ok(plan2.allocation[id]! >= 2, `candidate ${id} gets a share`);
    const r2 = await runRound(forge, {
      allocation: plan2.allocation,
      taxonomyVersion: plan2.taxonomyVersion,
      fromFeedbackRound: r1,
    });
    const got2 = await tasksPerSkill(forge, r2);
    assert.equal(got2.get(SATURATED), undefined, 'retired skills get no tasks');
    assert.deepEqual(Object.fromEntries(got2), plan2.allocation);
    assert.equal(
      (await db.select().from(rounds).where(eq(rounds.id, r2)))[0]!.taxonomyVersion,
      summary.taxonomyVersion,
    );

    // Round 3 from round 2's feedback.
    const i2 = await ingestFeedback(database, r2, await studentFeedback(forge, r2));
    assert.ok(i2.ok && i2.imported > 0);
    const plan3 = await planFromFeedback(database, r2, { totalTasks: 6 });
    console.log(
      'plan 3',
      plan3.entries.map((e) => `${e.skillId}: ${e.tasks} (${e.reason})`),
    );
    assert.equal(plan3.allocation[SATURATED], undefined);
    const r3 = await runRound(forge, {
      allocation: plan3.allocation,
      taxonomyVersion: plan3.taxonomyVersion,
      fromFeedbackRound: r2,
    });
    const got3 = await tasksPerSkill(forge, r3);
    assert.equal(got3.get(SATURATED), undefined);
    assert.ok(
      [...got3.keys()].some((id) => summary.adopted.includes(id)),
      'adopted candidates keep being generated',
    );
  });
});
