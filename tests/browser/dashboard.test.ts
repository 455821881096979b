import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { repoRoot } from '../../infra/paths.ts';
import { createActions } from '../../server/actions.ts';
import { createServer } from '../../server/createServer.ts';
import { formatInt, formatPercent, formatUsd } from '../../server/public/format.js';
import { ingestFeedback } from '../../taxonomy/feedback.ts';
import { startPricedEndpoint } from '../support/pricedEndpoint.ts';
import type { ScriptedLlm } from '../support/scriptedLlm.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

const artifactsDir = path.join(repoRoot, 'test-artifacts');
const SUM = 'calc.formulas.sum-column';
// A second skill whose file opens at the start: the priced test model writes filler instructions,
// which the instruction checks reject when a task's file must be named (an OS skill's).
const BACKUP = 'calc.formulas.average-column';

/**
 * The dashboard against two real rounds (real Temporal workers, MinIO, Postgres, LibreOffice) whose
 * LLM calls go to a priced OpenAI-compatible endpoint on loopback, so spend is not zero. Only student
 * results cannot come from a round: they are ingested for its accepted tasks, as a student run would.
 */
describe('cost dashboard in headless Chromium', () => {
  let svc: TestServices;
  let llm: ScriptedLlm;
  let forge: TestForge;
  let previousId: string;
  let roundId: string;
  let app: FastifyInstance;
  let address: string;
  let browser: Browser;
  let page: Page;

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => {
    const result = await svc.database.db.execute(query);
    return result.rows[0] as T;
  };
  const text = async (testid: string) => (await page.getByTestId(testid).first().textContent())?.trim() ?? '';
  const ready = () => page.waitForSelector('main[data-ready="true"]', { timeout: 20_000 });
  /** The skill table shows the server's answer for exactly this filter and sort. */
  const skillsShow = (q: string, sort = 'key', order = 'asc') =>
    page.waitForSelector(
      `[data-testid="skills-panel"][data-loaded="true"][data-query="${q}|${sort}|${order}"]`,
      {
        timeout: 10_000,
      },
    );

  before(async () => {
    svc = await testServices();
    const endpoint = await startPricedEndpoint();
    llm = endpoint.llm;
    forge = await startTestForge(endpoint.env);
    // Tasks are deterministic per seed: fresh seeds keep them from being near-duplicates of earlier runs.
    const seed = Date.now() % 1e9;
    const previous = await startRound(forge.deps, { skills: [SUM], tasksPerSkill: 1, seed: seed + 7 });
    const current = await startRound(forge.deps, {
      skills: [SUM, BACKUP],
      tasksPerSkill: 2,
      seed,
      budgetUsd: 5,
    });
    previousId = previous.roundId;
    roundId = current.roundId;
    const [a, b] = await Promise.all([
      waitForRound(forge.deps, previousId),
      waitForRound(forge.deps, roundId),
    ]);
    assert.equal(a.status, 'completed');
    assert.equal(b.status, 'completed');
    assert.ok(b.accepted > 0, JSON.stringify(b.rejectedByReason));
    const accepted = (
      await svc.database.db.execute(
        sql`SELECT id FROM tasks WHERE round_id = ${roundId} AND status = 'accepted' ORDER BY id`,
      )
    ).rows as { id: string }[];
    const lines = accepted.flatMap((t, i) => [
      JSON.stringify({ task_id: t.id, student_run_id: 'dash-a', success: i % 2, steps: 9 }),
      JSON.stringify({ task_id: t.id, student_run_id: 'dash-b', success: 1, steps: 6 }),
    ]);
    const ingested = await ingestFeedback(svc.database, roundId, lines.join('\n'));
    assert.ok(ingested.ok, JSON.stringify(ingested));

    app = createServer({
      config: forge.config,
      database: svc.database,
      store: svc.store,
      actions: createActions({
        config: forge.config,
        database: svc.database,
        store: svc.store,
        temporal: forge.deps.temporal,
      }),
    });
    address = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await forge?.close();
    await llm?.close();
    await closeTestServices();
  });

  test('the round overview shows the SQL aggregates', async () => {
    const r = roundId;
    await page.goto(`${address}/#/rounds/${r}`);
    await ready();
    const raw = await one<{
      usd: number;
      tokens: number;
      accepted: number;
      rejected: number;
      decided: number;
      pass: number;
    }>(sql`
      SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${r}) AS usd,
        (SELECT sum(prompt_tokens + completion_tokens) FROM llm_calls WHERE round_id = ${r})::float8 AS tokens,
        (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status = 'accepted')::int AS accepted,
        (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status = 'rejected')::int AS rejected,
        (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status IN ('accepted', 'rejected', 'failed'))::int AS decided,
        (SELECT avg(success) FROM student_results WHERE round_id = ${r})::float8 AS pass`);
    assert.equal(await text('round-usd'), formatUsd(raw.usd));
    assert.equal(await text('round-budget'), formatUsd(5));
    assert.equal(await text('round-accepted'), formatInt(raw.accepted));
    assert.equal(await text('round-rejected'), formatInt(raw.rejected));
    assert.equal(await text('round-usd-per-accepted'), formatUsd(raw.usd / raw.accepted));
    assert.equal(await text('round-tokens-per-accepted'), formatInt(raw.tokens / raw.accepted));
    assert.equal(await text('round-acceptance-rate'), formatPercent(raw.accepted / raw.decided));
    assert.equal(await text('round-student-pass'), formatPercent(raw.pass));
    assert.ok(raw.usd > 0, 'the priced endpoint billed the round');
    // The depth card: the round's accepted tasks by depth (distinct features), as the tasks recorded it.
    const depths = (
      await svc.database.db.execute(sql`SELECT depth, count(*)::int AS n FROM tasks
        WHERE round_id = ${r} AND status = 'accepted' GROUP BY 1 ORDER BY 1 NULLS FIRST`)
    ).rows as { depth: number | null; n: number }[];
    assert.ok(
      depths.some((d) => d.depth !== null),
      'the round’s tasks recorded their depth',
    );
    assert.equal(
      await text('round-depth-histogram'),
      depths.map((d) => `${d.depth ?? '?'}: ${formatInt(d.n)}`).join(' · '),
    );

    const nodes = (
      await svc.database.db.execute(
        sql`SELECT node_id AS node, sum(usd) AS usd FROM llm_calls WHERE round_id = ${r} GROUP BY 1`,
      )
    ).rows as { node: string; usd: number }[];
    for (const n of nodes) {
      const row = page.locator(`[data-testid="node-row"][data-key="${n.node}"]`);
      assert.equal((await row.locator('[data-col="usd"]').textContent())?.trim(), formatUsd(n.usd));
      assert.equal(
        (await row.locator('[data-col="usdPerAccepted"]').textContent())?.trim(),
        formatUsd(n.usd / raw.accepted),
      );
    }
    const reasons = (
      await svc.database.db.execute(sql`SELECT reject_reason AS reason, count(*)::int AS n FROM tasks
        WHERE round_id = ${r} AND status = 'rejected' GROUP BY 1`)
    ).rows as { reason: string; n: number }[];
    for (const x of reasons) {
      const row = page.locator(`[data-testid="reason-row"][data-key="${x.reason}"]`);
      assert.equal((await row.locator('[data-col="tasks"]').textContent())?.trim(), formatInt(x.n));
    }
    // Both rounds appear in the round-over-round comparison.
    for (const id of [previousId, r]) {
      const row = page.locator(`[data-testid="compare-row"][data-key="${id}"]`);
      const sums = await one<{ usd: number; accepted: number }>(sql`
        SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${id}) AS usd,
          (SELECT count(*) FROM tasks WHERE round_id = ${id} AND status = 'accepted')::int AS accepted`);
      assert.equal(
        (await row.locator('[data-col="usdPerAccepted"]').textContent())?.trim(),
        formatUsd(sums.accepted > 0 ? sums.usd / sums.accepted : null),
      );
    }
    assert.equal(await page.locator('[data-testid="spend-chart"] path').count(), 2);
    // The header's line under the title: no "null" where the failure note is absent.
    const header = await text('round-header');
    assert.match(header, /seed \d+/);
    assert.doesNotMatch(header, /\bnull\b|undefined/);

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'dashboard.png'), fullPage: true });
  });

  test('the skill table matches SQL, filters and sorts on the server', async () => {
    const r = roundId;
    await skillsShow('');
    const rows = page.getByTestId('skill-row');
    // Sorted by skill id.
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [
      BACKUP,
      SUM,
    ]);
    for (const skill of [SUM, BACKUP]) {
      const raw = await one<{ usd: number; accepted: number; tasks: number; pass: number | null }>(sql`
        SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${r} AND skill_id = ${skill}) AS usd,
          (SELECT count(*) FROM tasks WHERE round_id = ${r} AND skill_id = ${skill} AND status = 'accepted')::int AS accepted,
          (SELECT count(*) FROM tasks WHERE round_id = ${r} AND skill_id = ${skill})::int AS tasks,
          (SELECT avg(s.success) FROM student_results s JOIN tasks t ON t.id = s.task_id
            WHERE s.round_id = ${r} AND t.skill_id = ${skill})::float8 AS pass`);
      const row = page.locator(`[data-testid="skill-row"][data-key="${skill}"]`);
      const cell = async (col: string) => (await row.locator(`[data-col="${col}"]`).textContent())?.trim();
      assert.equal(await cell('apps'), 'calc');
      assert.equal(await cell('tasks'), formatInt(raw.tasks));
      assert.equal(await cell('usd'), formatUsd(raw.usd));
      assert.equal(await cell('usdPerAccepted'), formatUsd(raw.accepted > 0 ? raw.usd / raw.accepted : null));
      assert.equal(await cell('studentPassRate'), formatPercent(raw.pass));
      // E/N/G: the tasks' instruction levels, counted in SQL.
      const lv = await one<{ e: number; n: number; g: number }>(sql`
        SELECT count(*) FILTER (WHERE instruction_level = 'explicit')::int AS e,
          count(*) FILTER (WHERE instruction_level = 'natural')::int AS n,
          count(*) FILTER (WHERE instruction_level = 'goal')::int AS g
        FROM tasks WHERE round_id = ${r} AND skill_id = ${skill}`);
      assert.ok(lv.e + lv.n + lv.g > 0, 'the round wrote instruction levels');
      assert.equal(await cell('levels'), `${lv.e} / ${lv.n} / ${lv.g}`);
    }
    // The filter matches skill ids and apps.
    await page.getByTestId('skill-filter').fill('average');
    await skillsShow('average');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [BACKUP]);
    await page.getByTestId('skill-filter').fill('sum-col');
    await skillsShow('sum-col');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [SUM]);
    await page.getByTestId('skill-filter').fill('calc');
    await skillsShow('calc');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [
      BACKUP,
      SUM,
    ]);
    await page.getByTestId('skill-filter').fill('');
    await skillsShow('');
    await page.locator('[data-testid="skills-table"] th[data-sort="usd"]').click();
    await skillsShow('', 'usd', 'asc');
    await page.locator('[data-testid="skills-table"] th[data-sort="usd"]').click();
    await skillsShow('', 'usd', 'desc');
    const usd = await page
      .locator('[data-testid="skill-row"] [data-col="usd"]')
      .evaluateAll((els) => els.map((e) => Number((e.textContent ?? '').replace(/[$,]/g, ''))));
    assert.equal(usd.length, 2);
    assert.deepEqual(
      usd,
      [...usd].sort((a, b) => b - a),
      'sorted by USD, descending after two clicks',
    );
  });

  test('a task detail opens with its package and per-call costs', async () => {
    await page.getByTestId('skill-filter').fill('');
    await page.getByTestId('task-status-filter').selectOption('accepted');
    await page.waitForFunction(
      // Runs in the page; typed loosely because the project compiles without the DOM library.
      `[...document.querySelectorAll('[data-testid="task-row"] [data-testid="status"]')].every((el) => el.textContent === 'accepted')`,
    );
    const link = page.getByTestId('task-link').first();
    const taskId = (await link.getAttribute('href'))!.replace('#/tasks/', '');
    await link.click();
    await page.waitForSelector('[data-testid="task-instruction"]');
    await ready();
    const raw = await one<{ usd: number; calls: number; instruction: string; skill: string }>(sql`
      SELECT (SELECT sum(usd) FROM llm_calls WHERE task_id = ${taskId}) AS usd,
        (SELECT count(*) FROM llm_calls WHERE task_id = ${taskId})::int AS calls,
        instruction, skill_id AS skill FROM tasks WHERE id = ${taskId}`);
    assert.equal(await text('task-instruction'), raw.instruction);
    assert.equal(await text('task-usd'), formatUsd(raw.usd));
    assert.equal(await page.getByTestId('call-row').count(), raw.calls);
    assert.ok((await page.getByTestId('rubric-check').count()) > 0);
    assert.match(await text('task-setup'), /download/);
    const href = await page.getByTestId('temporal-link').getAttribute('href');
    assert.ok(
      href?.endsWith(`/workflows/${encodeURIComponent(`round-${roundId}/skill-${raw.skill}`)}`),
      href ?? '',
    );
    // The download is the artifact the package names, byte for byte (its sha256).
    const download = new URL(
      (await page.getByTestId('artifact-link').first().getAttribute('href'))!,
      address,
    );
    const res = await fetch(download);
    assert.equal(res.status, 200);
    const detail = (await (await fetch(new URL(`/api/tasks/${taskId}`, address))).json()) as {
      package: { artifacts: { role: string; vmPath: string; sha256: string }[] };
    };
    const named = detail.package.artifacts.find(
      (a) => a.role === download.searchParams.get('role') && a.vmPath === download.searchParams.get('path'),
    );
    assert.ok(named, `the package lists ${download.search}`);
    assert.equal(
      createHash('sha256')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex'),
      named.sha256,
    );
    await page.screenshot({ path: path.join(artifactsDir, 'dashboard-task.png'), fullPage: true });
  });
});
