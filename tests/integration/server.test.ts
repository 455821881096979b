import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../infra/config.ts';
import { repoRoot } from '../../infra/paths.ts';
import { createActions } from '../../server/actions.ts';
import { createServer } from '../../server/createServer.ts';
import { formatInt, formatPercent, formatUsd } from '../../server/public/format.js';
import { removeSeededRound, type SeededRound, seedRound } from '../support/dashboardSeed.ts';
import { waitFor } from '../support/roundQueries.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

const token = 'test-token-0123456789abcdef';
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

describe('HTTP API', () => {
  let svc: TestServices;
  let seeded: SeededRound;
  let running: SeededRound;
  let forge: TestForge;
  let app: FastifyInstance;
  const servers: FastifyInstance[] = [];
  const exportDirs: string[] = [];

  /** A server whose actions start rounds on the test workers' own task queues. */
  const make = (env: Record<string, string>): FastifyInstance => {
    // The workers' own settings (task-queue prefix, namespace), not their derived config: a
    // namespace would otherwise be applied twice.
    const config: Config = loadConfig({ ...forge.settings, ...env });
    const server = createServer({
      config,
      database: svc.database,
      store: svc.store,
      actions: createActions({
        config,
        database: svc.database,
        store: svc.store,
        temporal: forge.deps.temporal,
      }),
      eventIntervalMs: 100,
    });
    servers.push(server);
    return server;
  };

  before(async () => {
    svc = await testServices();
    forge = await startTestForge();
    seeded = await seedRound(svc.database, svc.store, { prefix: 'apitest', skills: 6, tasksPerSkill: 9 });
    running = await seedRound(svc.database, svc.store, {
      prefix: 'apilive',
      skills: 1,
      tasksPerSkill: 2,
      status: 'running',
    });
    app = make({ FORGE_API_TOKEN: token });
  });

  after(async () => {
    for (const s of servers) await s.close();
    for (const dir of exportDirs) rmSync(dir, { recursive: true, force: true });
    await forge?.close();
    if (seeded) await removeSeededRound(svc.database, svc.endpoints.s3, seeded);
    if (running) await removeSeededRound(svc.database, svc.endpoints.s3, running);
    await closeTestServices();
  });

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return {
      status: res.statusCode,
      body: res.json() as Record<string, unknown> & { error?: { code: string; message: string } },
    };
  };

  test('mutating routes need the bearer token and say so', async () => {
    const none = await app.inject({ method: 'POST', url: '/api/rounds', payload: {} });
    assert.equal(none.statusCode, 401);
    assert.match(none.json().error.message, /Authorization: Bearer/);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/rounds',
      payload: {},
      headers: { authorization: 'Bearer not-the-right-token-at-all' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error.code, 'unauthorized');
    // Auth is checked before the body is even parsed.
    const badJsonNoAuth = await app.inject({
      method: 'POST',
      url: '/api/exports',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(badJsonNoAuth.statusCode, 401);
  });

  test('with no token configured, mutating routes answer 503 naming FORGE_API_TOKEN; reads stay open', async () => {
    const open = make({ FORGE_API_TOKEN: '' });
    const res = await open.inject({ method: 'POST', url: `/api/rounds/${seeded.roundId}/cancel` });
    assert.equal(res.statusCode, 503);
    assert.match(res.json().error.message, /FORGE_API_TOKEN is not set/);
    assert.equal((await open.inject({ method: 'GET', url: '/api/rounds' })).statusCode, 200);
  });

  test('FORGE_API_PROTECT_READS puts read routes behind the token too', async () => {
    const guarded = make({ FORGE_API_TOKEN: token, FORGE_API_PROTECT_READS: 'true' });
    assert.equal((await guarded.inject({ method: 'GET', url: '/api/rounds' })).statusCode, 401);
    const ok = await guarded.inject({
      method: 'GET',
      url: '/api/rounds',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(ok.statusCode, 200);
    // The dashboard's static files carry no data and stay reachable.
    assert.equal((await guarded.inject({ method: 'GET', url: '/' })).statusCode, 200);
  });

  test('validation errors are 400 with the zod issues', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const badBody = await app.inject({
      method: 'POST',
      url: '/api/rounds',
      headers: auth,
      payload: { budgetUsd: -3, tasksPerSkill: 'many', surprise: 1 },
    });
    assert.equal(badBody.statusCode, 400);
    const err = badBody.json().error;
    assert.equal(err.code, 'invalid_request');
    const paths = err.issues.map((i: { path: string[] }) => i.path.join('.'));
    assert.ok(paths.includes('budgetUsd') && paths.includes('tasksPerSkill'), JSON.stringify(paths));
    assert.match(err.message, /budgetUsd/);

    const badQuery = await get('/api/tasks?limit=0');
    assert.equal(badQuery.status, 400);
    assert.match(badQuery.body.error!.message, /limit/);
    assert.equal((await get('/api/tasks/not-a-uuid')).status, 400);
    assert.equal((await get(`/api/tasks?cursor=${'x'.repeat(10)}`)).status, 400);
    assert.equal((await get('/api/rounds/bad%20id')).status, 400);

    const badJson = await app.inject({
      method: 'POST',
      url: '/api/exports',
      body: '{not json',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assert.equal(badJson.statusCode, 400);
    assert.ok(badJson.json().error.message);

    const emptyFeedback = await app.inject({
      method: 'POST',
      url: `/api/rounds/${seeded.roundId}/feedback`,
      body: '  \n',
      headers: { ...auth, 'content-type': 'application/x-ndjson' },
    });
    assert.equal(emptyFeedback.statusCode, 400);
    assert.match(emptyFeedback.json().error.message, /JSONL body is empty/);
  });

  test('unknown rounds, tasks, versions and routes are JSON 404s; ended rounds cannot be cancelled, nor retried without failures (409)', async () => {
    assert.equal((await get('/api/rounds/no-such-round')).status, 404);
    assert.equal((await get(`/api/tasks/${randomUUID()}`)).status, 404);
    assert.equal((await get('/api/rounds/no-such-round/costs/skills')).status, 404);
    assert.equal((await get('/api/taxonomy/versions/987654')).status, 404);
    const route = await get('/api/nothing-here');
    assert.equal(route.status, 404);
    assert.equal(route.body.error!.code, 'not_found');
    const auth = { authorization: `Bearer ${token}` };
    const cancel = await app.inject({
      method: 'POST',
      url: `/api/rounds/${seeded.roundId}/cancel`,
      headers: auth,
    });
    assert.equal(cancel.statusCode, 409);
    assert.match(cancel.json().error.message, /already ended \(completed\)/);
    const retry = (roundId: string) =>
      app.inject({ method: 'POST', url: `/api/rounds/${roundId}/retry-failed`, headers: auth });
    const nothingFailed = await retry(seeded.roundId);
    assert.equal(nothingFailed.statusCode, 409);
    assert.match(nothingFailed.json().error.message, /is completed: it has no failed tasks to retry/);
    assert.equal((await retry('no-such-round')).statusCode, 404);
    const taken = await app.inject({
      method: 'POST',
      url: '/api/rounds',
      headers: auth,
      payload: { roundId: seeded.roundId },
    });
    assert.equal(taken.statusCode, 409);
    const exportMissing = await app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: auth,
      payload: { roundId: 'no-such-round', format: 'jsonl' },
    });
    assert.equal(exportMissing.statusCode, 404);
  });

  test('a round started over the API runs on real Temporal; then cancel, feedback, plan and export', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const post = (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, headers: auth, payload: payload as Record<string, unknown> });

    const unknown = await post('/api/rounds', { skills: ['calc.no-such-skill'], tasksPerSkill: 1 });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().error.message, /no skill matches "calc.no-such-skill"/);

    // Tasks are deterministic per seed: a fresh one keeps them from being near-duplicates of earlier runs.
    const start = await post('/api/rounds', {
      skills: ['calc.formulas.sum-column'],
      tasksPerSkill: 2,
      seed: Date.now() % 1e9,
    });
    assert.equal(start.statusCode, 202, start.body);
    const started = start.json() as { roundId: string; workflowId: string; tasks: number; skills: number };
    assert.equal(started.tasks, 2);
    assert.equal(started.skills, 1);
    const roundId = started.roundId;
    const again = await post('/api/rounds', { roundId, skills: ['calc.formulas.sum-column'] });
    assert.equal(again.statusCode, 409);

    const ended = await waitFor(
      `round ${roundId} to end`,
      async () => {
        const { body } = await get(`/api/rounds/${roundId}`);
        const round = body.round as { status: string; finishedAt: string | null };
        return round.finishedAt
          ? (body as { round: typeof round; totals: Record<string, number> })
          : undefined;
      },
      300_000,
    );
    assert.equal(ended.round.status, 'completed');
    const [raw] = (
      await svc.database.db.execute(sql`SELECT count(*)::int AS tasks,
        count(*) FILTER (WHERE status = 'accepted')::int AS accepted FROM tasks WHERE round_id = ${roundId}`)
    ).rows as { tasks: number; accepted: number }[];
    assert.equal(raw.tasks, 2);
    assert.equal(ended.totals.tasks, raw.tasks);
    assert.equal(ended.totals.accepted, raw.accepted);
    assert.ok(raw.accepted > 0, 'the round accepted a task');
    // Tasks get their apps after they are created; the per-skill summary follows.
    const skillRows = (await get(`/api/rounds/${roundId}/costs/skills`)).body.skills as {
      key: string;
      apps: string[];
      tasks: number;
    }[];
    assert.deepEqual(skillRows, [
      { ...skillRows[0], key: 'calc.formulas.sum-column', apps: ['calc'], tasks: 2 },
    ]);

    const cancel = await post(`/api/rounds/${roundId}/cancel`, {});
    assert.equal(cancel.statusCode, 409);
    assert.match(cancel.json().error.message, /already ended \(completed\)/);

    const accepted = (
      await svc.database.db.execute(
        sql`SELECT id FROM tasks WHERE round_id = ${roundId} AND status = 'accepted' ORDER BY id`,
      )
    ).rows as { id: string }[];
    const good = JSON.stringify({ task_id: accepted[0].id, student_run_id: 'api-1', success: 1, steps: 7 });
    const feedback = (body: string) =>
      app.inject({
        method: 'POST',
        url: `/api/rounds/${roundId}/feedback`,
        body,
        headers: { ...auth, 'content-type': 'application/x-ndjson' },
      });
    const bad = await feedback(`${good}\n{"task_id": "not json"\n`);
    assert.equal(bad.statusCode, 400);
    const badError = bad.json().error as { code: string; message: string; issues: { line: number }[] };
    assert.equal(badError.code, 'invalid_feedback');
    assert.match(badError.message, /line 2: not JSON/);
    assert.deepEqual(
      badError.issues.map((i) => i.line),
      [2],
    );
    const ok = await feedback(`${good}\n`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().imported, 1);
    const pass = (await get(`/api/rounds/${roundId}`)).body.totals as { studentRuns: number };
    assert.equal(pass.studentRuns, 1);

    const plan = await get(`/api/rounds/plan?fromFeedbackRound=${roundId}&totalTasks=4`);
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.fromRoundId, roundId);
    assert.equal(plan.body.totalTasks, 4);
    assert.ok(Object.keys(plan.body.allocation as Record<string, number>).length > 0);

    const exp = await post('/api/exports', { roundId, format: 'osworld' });
    assert.equal(exp.statusCode, 202, exp.body);
    const job = exp.json() as { exportId: string; path: string; status: string };
    exportDirs.push(job.path);
    assert.equal(job.path, path.join(repoRoot, 'out', 'exports', job.exportId));
    const done = await waitFor(`export ${job.exportId}`, async () => {
      const { body } = await get(`/api/exports/${job.exportId}`);
      return body.status === 'running' ? undefined : body;
    });
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const report = done.report as { exported: number; selected: number };
    assert.equal(report.selected, raw.accepted);
    const index = JSON.parse(
      readFileSync(path.join(job.path, 'evaluation_examples', 'test_all.json'), 'utf8'),
    ) as Record<string, string[]>;
    assert.equal(Object.values(index).flat().length, report.exported);
    assert.ok(existsSync(path.join(job.path, 'export-report.json')));
    assert.equal((await get('/api/exports/exp-no-such-export')).status, 404);
  });

  test('round totals equal direct SQL over the raw ledger and tasks', async () => {
    const { db } = svc.database;
    const r = seeded.roundId;
    const [raw] = (
      await db.execute(sql`
        SELECT (SELECT sum(usd) FROM llm_calls WHERE round_id = ${r}) AS usd,
          (SELECT sum(prompt_tokens + completion_tokens) FROM llm_calls WHERE round_id = ${r})::float8 AS tokens,
          (SELECT count(*) FROM llm_calls WHERE round_id = ${r})::int AS calls,
          (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status = 'accepted')::int AS accepted,
          (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status = 'rejected')::int AS rejected,
          (SELECT count(*) FROM tasks WHERE round_id = ${r} AND status = 'failed')::int AS failed,
          (SELECT avg(success) FROM student_results WHERE round_id = ${r})::float8 AS pass`)
    ).rows as {
      usd: number;
      tokens: number;
      calls: number;
      accepted: number;
      rejected: number;
      failed: number;
      pass: number;
    }[];
    const { status, body } = await get(`/api/rounds/${r}/costs`);
    assert.equal(status, 200);
    const t = body.totals as Record<string, number>;
    close(t.usd, raw.usd);
    assert.equal(t.tokens, raw.tokens);
    assert.equal(t.calls, raw.calls);
    assert.equal(t.accepted, raw.accepted);
    assert.equal(t.rejected, raw.rejected);
    assert.equal(t.failed, raw.failed);
    close(t.usdPerAccepted, raw.usd / raw.accepted);
    close(t.acceptanceRate, raw.accepted / (raw.accepted + raw.rejected + raw.failed));
    close(t.studentPassRate, raw.pass);
    assert.ok(raw.accepted > 0 && raw.rejected > 0 && raw.usd > 0);

    const reasons = (
      await db.execute(sql`SELECT reject_reason AS reason, count(*)::int AS tasks FROM tasks
        WHERE round_id = ${r} AND status = 'rejected' GROUP BY 1 ORDER BY 2 DESC, 1`)
    ).rows;
    assert.deepEqual(body.rejectReasons, reasons);

    const nodes = (
      await db.execute(sql`SELECT node_id AS node, sum(usd) AS usd, sum(prompt_tokens + completion_tokens)::float8 AS tokens,
        count(*)::int AS calls, count(*) FILTER (WHERE cache_hit)::int AS hits
        FROM llm_calls WHERE round_id = ${r} GROUP BY 1 ORDER BY 1`)
    ).rows as { node: string; usd: number; tokens: number; calls: number; hits: number }[];
    const apiNodes = (
      body.byNode as {
        node: string;
        usd: number;
        tokens: number;
        calls: number;
        cacheHits: number;
        usdPerAccepted: number;
      }[]
    )
      .slice()
      .sort((a, b) => a.node.localeCompare(b.node));
    assert.equal(apiNodes.length, nodes.length);
    for (const [i, n] of nodes.entries()) {
      assert.equal(apiNodes[i].node, n.node);
      close(apiNodes[i].usd, n.usd);
      assert.equal(apiNodes[i].tokens, n.tokens);
      assert.equal(apiNodes[i].calls, n.calls);
      assert.equal(apiNodes[i].cacheHits, n.hits);
      close(apiNodes[i].usdPerAccepted, n.usd / raw.accepted);
    }

    const models = (
      await db.execute(
        sql`SELECT model, sum(usd) AS usd FROM llm_calls WHERE round_id = ${r} GROUP BY 1 ORDER BY 1`,
      )
    ).rows as { model: string; usd: number }[];
    const apiModels = (body.byModel as { model: string; usd: number }[])
      .slice()
      .sort((a, b) => a.model.localeCompare(b.model));
    assert.deepEqual(
      apiModels.map((m) => m.model),
      models.map((m) => m.model),
    );
    for (const [i, m] of models.entries()) close(apiModels[i].usd, m.usd);
  });

  test('per-skill and per-app aggregates equal direct SQL', async () => {
    const { db } = svc.database;
    const r = seeded.roundId;
    const raw = (
      await db.execute(sql`
        SELECT t.skill_id AS key, count(*)::int AS tasks, count(*) FILTER (WHERE t.status = 'accepted')::int AS accepted,
          coalesce((SELECT sum(usd) FROM llm_calls c WHERE c.round_id = ${r} AND c.skill_id = t.skill_id), 0) AS usd,
          (SELECT avg(s.success) FROM student_results s JOIN tasks x ON x.id = s.task_id
            WHERE s.round_id = ${r} AND x.skill_id = t.skill_id)::float8 AS pass,
          count(*) FILTER (WHERE t.status IN ('accepted', 'rejected', 'failed'))::int AS decided
        FROM tasks t WHERE t.round_id = ${r} GROUP BY t.skill_id ORDER BY 1`)
    ).rows as {
      key: string;
      tasks: number;
      accepted: number;
      usd: number;
      pass: number | null;
      decided: number;
    }[];
    const { body } = await get(`/api/rounds/${r}/costs/skills`);
    const skills = body.skills as {
      key: string;
      title: string;
      tasks: number;
      accepted: number;
      usd: number;
      usdPerAccepted: number | null;
      acceptanceRate: number;
      studentPassRate: number | null;
      levels: Record<string, number>;
    }[];
    assert.deepEqual(
      skills.map((s) => s.key),
      raw.map((s) => s.key),
    );
    for (const [i, s] of raw.entries()) {
      assert.equal(skills[i].tasks, s.tasks);
      assert.equal(skills[i].accepted, s.accepted);
      close(skills[i].usd, s.usd);
      if (s.accepted > 0) close(skills[i].usdPerAccepted!, s.usd / s.accepted);
      else assert.equal(skills[i].usdPerAccepted, null);
      close(skills[i].acceptanceRate, s.accepted / s.decided);
      if (s.pass === null) assert.equal(skills[i].studentPassRate, null);
      else close(skills[i].studentPassRate!, s.pass);
      assert.match(skills[i].title, /^Seeded skill/);
    }
    // Instruction levels per skill (the dashboard's E/N/G column) are the tasks' own counts.
    const levelRows = (
      await db.execute(sql`SELECT skill_id AS key, instruction_level AS level, count(*)::int AS n
        FROM tasks WHERE round_id = ${r} AND instruction_level IS NOT NULL GROUP BY 1, 2`)
    ).rows as { key: string; level: string; n: number }[];
    for (const s of skills) {
      const expected = { explicit: 0, natural: 0, goal: 0 } as Record<string, number>;
      for (const l of levelRows.filter((x) => x.key === s.key)) expected[l.level] = l.n;
      assert.deepEqual(s.levels, expected, s.key);
      assert.ok(s.levels.explicit > 0 && s.levels.natural > 0 && s.levels.goal > 0, 'the seed has all three');
    }

    // The dashboard's page: sorted and filtered in SQL, counted before paging.
    const byUsd = [...raw].sort((a, b) => b.usd - a.usd || a.key.localeCompare(b.key));
    const page = (await get(`/api/rounds/${r}/costs/skills?sort=usd&order=desc&limit=2&offset=1`)).body as {
      skills: { key: string }[];
      total: number;
    };
    assert.equal(page.total, raw.length);
    assert.deepEqual(
      page.skills.map((s) => s.key),
      byUsd.slice(1, 3).map((s) => s.key),
    );
    const filtered = (await get(`/api/rounds/${r}/costs/skills?q=THUNDERBIRD`)).body as {
      skills: { key: string; apps: string[] }[];
      total: number;
    };
    assert.deepEqual(
      filtered.skills.map((s) => s.key),
      [seeded.skillIds[3], seeded.skillIds[4]],
    );
    assert.equal(filtered.total, 2);
    assert.equal((await get(`/api/rounds/${r}/costs/skills?sort=nope`)).status, 400);

    const apps = (
      await db.execute(sql`
        SELECT a.app AS key, count(*)::int AS tasks, sum(coalesce(c.usd, 0)) AS usd
        FROM tasks t CROSS JOIN LATERAL unnest(t.apps) a(app)
        LEFT JOIN LATERAL (SELECT sum(usd) AS usd FROM llm_calls WHERE task_id = t.id) c ON true
        WHERE t.round_id = ${r} GROUP BY 1 ORDER BY 1`)
    ).rows as { key: string; tasks: number; usd: number }[];
    const apiApps = (await get(`/api/rounds/${r}/costs/apps`)).body.apps as {
      key: string;
      tasks: number;
      usd: number;
    }[];
    assert.deepEqual(
      apiApps.map((a) => a.key),
      apps.map((a) => a.key),
    );
    for (const [i, a] of apps.entries()) {
      assert.equal(apiApps[i].tasks, a.tasks);
      close(apiApps[i].usd, a.usd);
    }
  });

  test('the timeline sums to the round totals, bucketed as asked', async () => {
    const r = seeded.roundId;
    const totals = (await get(`/api/rounds/${r}/costs`)).body.totals as { usd: number; accepted: number };
    const auto = (await get(`/api/rounds/${r}/costs/timeline`)).body as {
      bucketSeconds: number;
      buckets: {
        start: string;
        usd: number;
        accepted: number;
        cumulativeUsd: number;
        cumulativeAccepted: number;
      }[];
    };
    assert.ok(auto.buckets.length > 3, `only ${auto.buckets.length} buckets`);
    const last = auto.buckets[auto.buckets.length - 1];
    close(last.cumulativeUsd, totals.usd);
    assert.equal(last.cumulativeAccepted, totals.accepted);
    const hourly = (await get(`/api/rounds/${r}/costs/timeline?bucketSeconds=3600`)).body as typeof auto;
    assert.equal(hourly.bucketSeconds, 3600);
    assert.ok(hourly.buckets.length <= 3);
    for (const b of hourly.buckets) assert.equal(new Date(b.start).getTime() % 3_600_000, 0);
    close(
      hourly.buckets.reduce((s, b) => s + b.usd, 0),
      totals.usd,
    );
  });

  test('task list filters and pages through a round exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await get(`/api/tasks?round=${seeded.roundId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`)
      ).body as {
        tasks: { id: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.tasks.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual([...seen].sort(), [...seeded.taskIds].sort());

    const skill = seeded.skillIds[4]; // the calc + thunderbird skill
    const bySkill = (await get(`/api/tasks?round=${seeded.roundId}&skill=${skill}&status=accepted&limit=500`))
      .body.tasks as { skillId: string; status: string; apps: string[] }[];
    assert.ok(bySkill.length > 0);
    assert.ok(bySkill.every((t) => t.skillId === skill && t.status === 'accepted'));
    const byApp = (await get(`/api/tasks?round=${seeded.roundId}&app=thunderbird&limit=500`)).body.tasks as {
      apps: string[];
      skillId: string;
    }[];
    assert.deepEqual(
      [...new Set(byApp.map((t) => t.skillId))].sort(),
      [seeded.skillIds[3], seeded.skillIds[4]].sort(),
    );
  });

  test('task detail has the package, per-call costs and the Temporal link; artifacts download', async () => {
    const id = seeded.acceptedTaskId;
    const { status, body } = await get(`/api/tasks/${id}`);
    assert.equal(status, 200);
    const d = body as {
      task: { skillId: string };
      package: { instruction: string; rubric: { checks: unknown[] } };
      setupScript: string;
      cost: { usd: number; calls: unknown[]; byNode: { node: string; usd: number }[] };
      temporalUrl: string;
      artifacts: { vmPath: string; role: string }[];
    };
    assert.match(d.package.instruction, /total of the Amount column/);
    assert.equal(d.package.rubric.checks.length, 1);
    assert.match(d.setupScript, /^#!\/bin\/sh/);
    const [raw] = (
      await svc.database.db.execute(
        sql`SELECT sum(usd) AS usd, count(*)::int AS calls FROM llm_calls WHERE task_id = ${id}`,
      )
    ).rows as { usd: number; calls: number }[];
    close(d.cost.usd, raw.usd);
    assert.equal(d.cost.calls.length, raw.calls);
    close(
      d.cost.byNode.reduce((s, n) => s + n.usd, 0),
      raw.usd,
    );
    const config = loadConfig({ ...process.env, FORGE_API_TOKEN: token });
    assert.equal(
      d.temporalUrl,
      `${config.temporalUiUrl}/namespaces/${config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(`round-${seeded.roundId}/skill-${d.task.skillId}`)}`,
    );

    const q = new URLSearchParams({ role: 'initial', path: seeded.artifactVmPath });
    const file = await app.inject({ method: 'GET', url: `/api/tasks/${id}/artifact?${q}` });
    assert.equal(file.statusCode, 200);
    assert.deepEqual(file.rawPayload, seeded.artifactBytes);
    assert.match(String(file.headers['content-disposition']), /filename="budget.xlsx"/);
    const missing = await app.inject({
      method: 'GET',
      url: `/api/tasks/${id}/artifact?role=solved&path=${encodeURIComponent(seeded.artifactVmPath)}`,
    });
    assert.equal(missing.statusCode, 404);
  });

  test('the OpenAPI document describes every API route from the zod schemas', async () => {
    const doc = (await get('/openapi.json')).body as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: { name: string; in: string }[];
            requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
            security?: unknown[];
          }
        >
      >;
    };
    assert.equal(doc.openapi, '3.1.0');
    for (const p of [
      '/api/rounds',
      '/api/rounds/{roundId}',
      '/api/rounds/{roundId}/cancel',
      '/api/rounds/plan',
      '/api/tasks',
      '/api/tasks/{taskId}',
      '/api/rounds/{roundId}/costs/skills',
      '/api/rounds/{roundId}/costs/timeline',
      '/api/rounds/{roundId}/content',
      '/api/taxonomy/versions',
      '/api/rounds/{roundId}/feedback',
      '/api/exports',
    ]) {
      assert.ok(doc.paths[p], `missing ${p}`);
    }
    const list = doc.paths['/api/tasks'].get;
    assert.deepEqual(list.parameters.map((x) => x.name).sort(), [
      'app',
      'cursor',
      'limit',
      'round',
      'skill',
      'status',
    ]);
    const start = doc.paths['/api/rounds'].post;
    assert.ok(start.requestBody?.content['application/json'].schema.properties?.budgetUsd);
    assert.ok(start.security);
    assert.ok(doc.paths['/api/rounds/{roundId}/feedback'].post.requestBody?.content['application/x-ndjson']);
  });

  test('the event stream sends progress while a round runs and ends with it', async () => {
    const live = make({ FORGE_API_TOKEN: token });
    const address = await live.listen({ port: 0, host: '127.0.0.1' });
    const url = new URL(`/api/rounds/${running.roundId}/events`, address);
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(url, (res) => {
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /text\/event-stream/);
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          const parts = buffer.split('\n\n');
          buffer = parts.pop() ?? '';
          for (const part of parts) {
            events.push(part);
            if (events.length === 1) {
              // Drizzle queries are lazy: then() runs it.
              svc.database.db
                .execute(sql`UPDATE rounds SET status = 'completed' WHERE id = ${running.roundId}`)
                .then(() => {}, reject);
            }
          }
        });
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const first = events[0];
    assert.match(first, /^event: progress\ndata: /);
    const data = JSON.parse(first.split('data: ')[1]) as { status: string; totals: { tasks: number } };
    assert.equal(data.status, 'running');
    assert.equal(data.totals.tasks, 2);
    assert.match(events[events.length - 1], /^event: end/);
  });

  test('`forge costs --round R` prints the same numbers as the API', async () => {
    const { stdout } = await promisify(execFile)(
      path.join(repoRoot, 'bin', 'forge'),
      ['costs', '--round', seeded.roundId, '--top', '0'],
      {
        cwd: repoRoot,
        env: { ...process.env },
      },
    );
    const api = (await get(`/api/rounds/${seeded.roundId}/costs`)).body as {
      totals: {
        usd: number;
        accepted: number;
        usdPerAccepted: number;
        tokensPerAccepted: number;
        acceptanceRate: number;
        studentPassRate: number;
      };
      byNode: { node: string; usd: number; usdPerAccepted: number; tokens: number }[];
    };
    const value = (label: string) => {
      const line = stdout.split('\n').find((l) => l.startsWith(`${label} `));
      assert.ok(line, `no "${label}" line in:\n${stdout}`);
      return line.slice(label.length).trim();
    };
    assert.equal(value('Spend'), formatUsd(api.totals.usd));
    assert.equal(value('Accepted'), formatInt(api.totals.accepted));
    assert.equal(value('USD / accepted task'), formatUsd(api.totals.usdPerAccepted));
    assert.equal(value('Tokens / accepted task'), formatInt(api.totals.tokensPerAccepted));
    assert.equal(value('Acceptance rate'), formatPercent(api.totals.acceptanceRate));
    assert.equal(value('Student pass rate'), formatPercent(api.totals.studentPassRate));
    for (const n of api.byNode) {
      const cells = value(n.node).split(/\s{2,}/);
      assert.equal(cells[1], formatInt(n.tokens));
      assert.equal(cells[3], formatUsd(n.usd));
      assert.equal(cells[4], formatUsd(n.usdPerAccepted));
    }
    const skills = (await get(`/api/rounds/${seeded.roundId}/costs/skills`)).body.skills as {
      key: string;
      usdPerAccepted: number | null;
    }[];
    for (const s of skills) assert.equal(value(s.key).split(/\s{2,}/)[4], formatUsd(s.usdPerAccepted));
  });

  test('rollups follow status changes and deletes: a removed round leaves nothing behind', async () => {
    const temp = await seedRound(svc.database, svc.store, { prefix: 'apigone', skills: 2, tasksPerSkill: 3 });
    const [first, second] = temp.taskIds;
    await svc.database.db.execute(
      sql`UPDATE tasks SET status = 'running', reject_reason = NULL, finished_at = NULL WHERE id = ${first}`,
    );
    await svc.database.db.execute(
      sql`UPDATE tasks SET status = 'rejected', reject_reason = 'judge_inconsistent' WHERE id = ${second}`,
    );
    await svc.database.db.execute(
      sql`UPDATE tasks SET instruction = 'edited' WHERE round_id = ${temp.roundId}`,
    );
    const raw = (
      await svc.database.db.execute(
        sql`SELECT status, count(*)::int AS n FROM tasks WHERE round_id = ${temp.roundId} GROUP BY 1 ORDER BY 1`,
      )
    ).rows as { status: string; n: number }[];
    const t = (await get(`/api/rounds/${temp.roundId}`)).body.totals as Record<string, number>;
    for (const { status, n } of raw) assert.equal(t[status], n, status);
    assert.equal(t.running, 1);
    const timeline = (await get(`/api/rounds/${temp.roundId}/costs/timeline`)).body as {
      buckets: { cumulativeAccepted: number }[];
    };
    assert.equal(timeline.buckets[timeline.buckets.length - 1].cumulativeAccepted, t.accepted);
    await removeSeededRound(svc.database, svc.endpoints.s3, temp);
    const [left] = (
      await svc.database.db.execute(sql`SELECT
        (SELECT count(*) FROM llm_cost_rollup WHERE round_id = ${temp.roundId})::int +
        (SELECT count(*) FROM llm_cost_minute WHERE round_id = ${temp.roundId})::int +
        (SELECT count(*) FROM task_status_rollup WHERE round_id = ${temp.roundId})::int +
        (SELECT count(*) FROM task_accepted_minute WHERE round_id = ${temp.roundId})::int +
        (SELECT count(*) FROM student_result_rollup WHERE round_id = ${temp.roundId})::int +
        (SELECT count(*) FROM skill_round_summary WHERE round_id = ${temp.roundId})::int AS n`)
    ).rows as { n: number }[];
    assert.equal(left.n, 0);
  });
});
