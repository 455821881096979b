import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { difficultyReport } from '../../app/difficultyReport.ts';
import { waitForRound } from '../../app/rounds/control.ts';
import { applyDepthChoice } from '../../app/rounds/depthPlan.ts';
import { startRound } from '../../app/rounds/start.ts';
import { exportPack } from '../../export/exportPack.ts';
import { rounds, skills, tasks } from '../../infra/db/schema.ts';
import { repoRoot } from '../../infra/paths.ts';
import { RoundRequestError } from '../../infra/requestError.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

/** Tasks are deterministic per seed, so a fresh seed keeps earlier runs' tasks from being duplicates. */
const freshSeed = () => Math.floor(Date.now() % 1_000_000_000);

const SHALLOW = 'calc.formulas.sum-column'; // one feature: a SUM formula
const DEEP = 'calc.formulas.percent-of-total'; // two: a share formula, then a percentage format
const LONG = 'composite.os-calc-writer-impress-thunderbird.month-end-close'; // six steps over five apps

describe('a round with a depth mix on the real Temporal, MinIO and Postgres', () => {
  let forge: TestForge;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forge-depth-it-'));
  before(async () => {
    forge = await startTestForge();
  });
  after(async () => {
    await forge?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a depth mix that asks for a depth no selected skill has, or a minimum none reaches, starts nothing', async () => {
    const { db } = forge.runtime.database;
    const id = `depth-refused-${freshSeed()}`;
    await assert.rejects(
      startRound(forge.deps, { roundId: id, skills: [SHALLOW], depthMix: { '1': 50, '2-3': 50 } }),
      (err: unknown) => err instanceof RoundRequestError && /50% to depth 2-3/.test(err.message),
    );
    await assert.rejects(
      startRound(forge.deps, { roundId: id, skills: [SHALLOW, DEEP], minDepth: 3 }),
      (err: unknown) =>
        err instanceof RoundRequestError && /deepest of the 2 selected has 2/.test(err.message),
    );
    assert.equal((await db.select().from(rounds).where(eq(rounds.id, id))).length, 0);
  });

  test('the mix moves tasks to the deeper skill, tasks store their depth, the report and JSONL carry it', async () => {
    // 2 skills × 2 tasks = 4 tasks; a quarter at depth 1 and the rest at depth 2 or more.
    const started = await startRound(forge.deps, {
      skills: [SHALLOW, DEEP],
      tasksPerSkill: 2,
      seed: freshSeed(),
      depthMix: { '1': 25, '2+': 75 },
    });
    assert.equal(started.tasks, 4);
    assert.deepEqual(
      started.depthPlan?.map((r) => [r.key, r.tasks, r.skills]),
      [
        ['1', 1, 1],
        ['2+', 3, 1],
      ],
    );
    const progress = await waitForRound(forge.deps, started.roundId);
    assert.equal(progress.accepted, 4, JSON.stringify(progress.rejectedByReason));

    const { db } = forge.runtime.database;
    const round = (await db.select().from(rounds).where(eq(rounds.id, started.roundId)))[0]!;
    assert.deepEqual((round.settings as { depthMix?: unknown }).depthMix, { '1': 25, '2+': 75 });
    const rows = await db.select().from(tasks).where(eq(tasks.roundId, started.roundId));
    const depthBySkill = rows.map((r) => [r.skillId, r.depth]).sort();
    assert.deepEqual(depthBySkill, [
      [DEEP, 2],
      [DEEP, 2],
      [DEEP, 2],
      [SHALLOW, 1],
    ]);
    for (const r of rows) {
      assert.ok((r.rubricItems ?? 0) >= 1, `${r.skillId} #${r.taskIndex} records its rubric items`);
      // Neither skill lists a discovery level: none of their tasks is a discovery task.
      assert.equal(r.discovery, false);
    }

    const report = await difficultyReport(db, started.roundId);
    assert.equal(report.accepted, 4);
    assert.deepEqual(
      report.depths.map((d) => [d.depth, d.accepted]),
      [
        [1, 1],
        [2, 3],
      ],
    );
    assert.equal(report.meanDepth, 7 / 4);
    assert.equal(report.longHorizon.tasks, 0);
    const items = rows.reduce((a, r) => a + (r.rubricItems ?? 0), 0);
    assert.equal(report.checkpoints.tasks, 4);
    assert.equal(report.checkpoints.perTask, items / 4);
    const goal = rows.filter((r) => r.instructionLevel === 'goal').length;
    assert.deepEqual(report.discovery, { goalTasks: goal, discoveryTasks: 0, share: goal === 0 ? null : 0 });

    // The command prints the same report, as text and as JSON.
    const forge_ = (args: string[]) =>
      execFileSync(path.join(repoRoot, 'bin', 'forge'), args, { encoding: 'utf8', env: forge.settings });
    assert.deepEqual(
      JSON.parse(forge_(['report', 'difficulty', '--round', started.roundId, '--json'])),
      JSON.parse(JSON.stringify(report)),
    );
    const text = forge_(['report', 'difficulty', '--round', started.roundId]);
    assert.match(text, /4 accepted tasks, mean depth 1\.8/);
    assert.match(text, /^2\s+3\s+75\.0%/m);

    const out = path.join(dir, 'tasks.jsonl');
    const exported = await exportPack(forge.runtime, {
      round: started.roundId,
      format: 'jsonl',
      out,
      files: 'url',
    });
    assert.equal(exported.exported, 4);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { skill: { id: string }; depth?: number });
    assert.deepEqual(lines.map((l) => [l.skill.id, l.depth]).sort(), depthBySkill);
  });

  test('a default round gives a long-horizon workflow more tasks, read from the stored specs; an allocation stays as given', async () => {
    // The earlier tests' rounds synced the library, so every skill has a stored spec version.
    const { db } = forge.runtime.database;
    const rows = await db.select({ id: skills.id, version: skills.currentVersion }).from(skills);
    const version = new Map(rows.map((r) => [r.id, r.version]));
    const plan = [SHALLOW, DEEP, LONG].map((skillId) => ({
      skillId,
      specVersion: version.get(skillId)!,
      tasks: 3,
    }));
    assert.ok(plan.every((e) => e.specVersion !== undefined));
    const byDefault = await applyDepthChoice(db, plan, {});
    const tasks = new Map(byDefault.entries.map((e) => [e.skillId, e.tasks]));
    // 6 other tasks: 6% of the round needs ceil(6 × 0.06 / 0.94) = 1, which the 3 already are.
    assert.deepEqual([...tasks.values()], [3, 3, 3]);
    const many = Array.from({ length: 100 }, (_, i) => ({ ...plan[0]!, skillId: `${SHALLOW}#${i}` }));
    // Unknown ids read as depth 1: 300 other tasks need ceil(300 × 0.06 / 0.94) = 20 long ones.
    const raised = await applyDepthChoice(db, [...many, plan[2]!], {});
    assert.equal(raised.entries.find((e) => e.skillId === LONG)?.tasks, 20);
    assert.ok(raised.entries.filter((e) => e.skillId !== LONG).every((e) => e.tasks === 3));
    const given = await applyDepthChoice(db, [...many, plan[2]!], { allocation: { [LONG]: 3 } });
    assert.equal(given.entries.find((e) => e.skillId === LONG)?.tasks, 3);
  });
});
