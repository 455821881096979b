import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { waitForRound } from '../../app/rounds/control.ts';
import { dryRunSpec } from '../../app/rounds/dryRun.ts';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime, type Runtime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { skillSpecVersions, skills, taskNodeRuns, tasks } from '../../infra/db/schema.ts';
import { closeOffice } from '../../preparers/office/index.ts';
import { loadSpecFile } from '../../skills/load.ts';
import { startTestForge } from '../support/workers.ts';

/**
 * One composite through `forge skills try`'s path (app/rounds/dryRun.ts: the task pipeline a round
 * runs, in process, against the real Postgres, MinIO and LibreOffice): every task is accepted, every
 * wrong solution — the steps' lifted ones, the composite's own and the generic set — is rejected,
 * and the stored spec version is the expanded spec, so the rest of the system sees an ordinary skill.
 */
const file = path.join(
  import.meta.dirname,
  '../../skills/composite/composite.calc-writer.total-into-budget.yaml',
);

describe('a composite skill end to end (the skills try path)', () => {
  let runtime: Runtime;
  before(async () => {
    runtime = await createRuntime(loadConfig(), { llm: true });
  });
  after(async () => {
    await runtime?.close();
    await closeOffice();
  });

  test('three tasks, one per level, are accepted and every wrong solution is rejected', async () => {
    const { spec, sha256 } = loadSpecFile(file);
    const r = await dryRunSpec(runtime, spec, { tasks: 3, seed: 11 });
    const failures = r.tasks
      .filter((t) => t.outcome !== 'accepted')
      .map((t) => `${t.reason} at ${t.node}: ${t.detail}`);
    assert.deepEqual(failures, []);
    assert.equal(r.passed, true);
    assert.deepEqual(r.tasks.map((t) => t.level).sort(), ['explicit', 'goal', 'natural']);
    for (const t of r.tasks) {
      const names = t.wrong.map((w) => w.name);
      for (const expected of [
        'sheet-typed-total',
        'sheet-only',
        'memo-only',
        'stale-total',
        'total-as-paragraph',
        'no-op',
      ])
        assert.ok(names.includes(expected), `${t.taskId} tried ${expected}`);
      assert.deepEqual(
        t.wrong.filter((w) => !w.killed).map((w) => w.name),
        [],
        'every wrong solution fails the rubric',
      );
      // Both files are open at the start: explicit names them, natural and goal say which open
      // file they mean as a person would ("this spreadsheet", "the budget": skills/run/openFileMentions.ts).
      if (t.level === 'explicit') {
        assert.match(t.instruction ?? '', /\.xlsx/);
        assert.match(t.instruction ?? '', /\.docx/);
      } else {
        assert.doesNotMatch(t.instruction ?? '', /\.xlsx|\.docx/);
      }
    }

    const { db } = runtime.database;
    const [stored] = await db
      .select()
      .from(skillSpecVersions)
      .where(and(eq(skillSpecVersions.skillId, spec.id), eq(skillSpecVersions.version, r.specVersion)));
    assert.equal(stored!.sha256, sha256);
    const nodes = (stored!.spec as { nodes: { id: string; step?: { skill: string } }[] }).nodes;
    assert.deepEqual(
      nodes.filter((n) => n.step).map((n) => n.step!.skill),
      ['calc.formulas.sum-column', 'writer.tables.fill-cell'],
    );
    const [row] = await db.select().from(skills).where(eq(skills.id, spec.id));
    assert.deepEqual(row!.apps, ['calc', 'writer']);

    // Node runs name each step's nodes by their scope.
    const ids = r.tasks.map((t) => t.taskId);
    const runs = await db
      .select({ nodeId: taskNodeRuns.nodeId })
      .from(taskNodeRuns)
      .where(inArray(taskNodeRuns.taskId, ids));
    const runIds = new Set(runs.map((x) => x.nodeId));
    for (const id of ['sheet.workbook', 'memo.document', 'sheet.solution+memo.solution'])
      assert.ok(runIds.has(id), `node run ${id} (have ${[...runIds].join(', ')})`);
    const accepted = await db.select({ id: tasks.id }).from(tasks).where(inArray(tasks.id, ids));
    assert.equal(accepted.length, 3);
  });

  test('a generation round allocates tasks to a composite like any skill (real Temporal workers)', async () => {
    const forge = await startTestForge();
    try {
      const id = 'composite.writer-calc.codename-sheet';
      const { roundId } = await startRound(forge.deps, {
        allocation: { [id]: 2 },
        seed: 5,
        kind: 'dry_run',
        pauseRejectRate: 1,
      });
      const progress = await waitForRound(forge.deps, roundId);
      const rows = await forge.runtime.database.db
        .select({ status: tasks.status, skillId: tasks.skillId, reason: tasks.rejectDetail })
        .from(tasks)
        .where(eq(tasks.roundId, roundId));
      assert.equal(rows.length, 2);
      assert.deepEqual(
        rows.filter((r) => r.status !== 'accepted').map((r) => r.reason),
        [],
        JSON.stringify(progress),
      );
      assert.ok(rows.every((r) => r.skillId === id));
    } finally {
      await forge.close();
    }
  });
});
