import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { serveActions } from '../../cli/commands/serve.ts';
import { loadConfig } from '../../infra/config.ts';
import { repoRoot } from '../../infra/paths.ts';
import { createServer } from '../../server/createServer.ts';
import { formatInt, formatPercent, formatUsd } from '../../server/public/format.js';
import { removeSeededRound, type SeededRound, seedRound } from '../support/dashboardSeed.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

const artifactsDir = path.join(repoRoot, 'test-artifacts');

describe('cost dashboard in headless Chromium', () => {
  let svc: TestServices;
  let previous: SeededRound;
  let seeded: SeededRound;
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

  before(async () => {
    svc = await testServices();
    previous = await seedRound(svc.database, svc.store, {
      prefix: 'dashprev',
      skills: 4,
      tasksPerSkill: 6,
      seed: 3,
    });
    seeded = await seedRound(svc.database, svc.store, {
      prefix: 'dash',
      skills: 8,
      tasksPerSkill: 10,
      seed: 11,
    });
    app = createServer({
      config: loadConfig(),
      database: svc.database,
      store: svc.store,
      actions: serveActions,
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
    if (seeded) await removeSeededRound(svc.database, svc.endpoints.s3, seeded);
    if (previous) await removeSeededRound(svc.database, svc.endpoints.s3, previous);
    await closeTestServices();
  });

  test('the round overview shows the SQL aggregates', async () => {
    const r = seeded.roundId;
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
    const prev = page.locator(`[data-testid="compare-row"][data-key="${previous.roundId}"]`);
    const prevUsd = await one<{ usd: number; accepted: number }>(sql`
      SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${previous.roundId}) AS usd,
        (SELECT count(*) FROM tasks WHERE round_id = ${previous.roundId} AND status = 'accepted')::int AS accepted`);
    assert.equal(
      (await prev.locator('[data-col="usdPerAccepted"]').textContent())?.trim(),
      formatUsd(prevUsd.usd / prevUsd.accepted),
    );
    assert.equal(await page.locator('[data-testid="spend-chart"] path').count(), 2);

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'dashboard.png'), fullPage: true });
  });

  test('the skill table matches SQL, filters and sorts', async () => {
    const r = seeded.roundId;
    const rows = page.getByTestId('skill-row');
    assert.equal(await rows.count(), seeded.skillIds.length);
    const skill = seeded.skillIds[5];
    const raw = await one<{ usd: number; accepted: number }>(sql`
      SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${r} AND skill_id = ${skill}) AS usd,
        (SELECT count(*) FROM tasks WHERE round_id = ${r} AND skill_id = ${skill} AND status = 'accepted')::int AS accepted`);
    await page.getByTestId('skill-filter').fill('skill-6');
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-key'), skill);
    assert.equal(
      (await rows.first().locator('[data-col="usdPerAccepted"]').textContent())?.trim(),
      formatUsd(raw.accepted > 0 ? raw.usd / raw.accepted : null),
    );
    await page.getByTestId('skill-filter').fill('thunderbird');
    // Skills 4 (thunderbird) and 5 (calc + thunderbird) of the seed's app cycle.
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), [
      seeded.skillIds[3],
      seeded.skillIds[4],
    ]);
    await page.locator('[data-testid="skills-table"] th[data-sort="usd"]').click();
    await page.locator('[data-testid="skills-table"] th[data-sort="usd"]').click();
    const usd = await page
      .locator('[data-testid="skill-row"] [data-col="usd"]')
      .evaluateAll((els) => els.map((e) => Number((e.textContent ?? '').replace(/[$,]/g, ''))));
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
      href?.endsWith(`/workflows/${encodeURIComponent(`round-${seeded.roundId}/skill-${raw.skill}`)}`),
      href ?? '',
    );
    const download = await page.getByTestId('artifact-link').first().getAttribute('href');
    const res = await fetch(new URL(download!, address));
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), seeded.artifactBytes);
    await page.screenshot({ path: path.join(artifactsDir, 'dashboard-task.png'), fullPage: true });
  });
});
