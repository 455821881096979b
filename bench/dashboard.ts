/**
 * Benchmark of the dashboard's aggregate queries on a synthetic ledger: 300,000 tasks and 1,500,000
 * llm_calls rows (plus ~125,000 student results) in a separate database `forge_bench` on the dev
 * Postgres, generated with INSERT … SELECT generate_series, then dropped. Each query runs ≥ 20 times;
 * prints p50 / p95 per query, the raw-table equivalents the rollups replace, and the insert cost of the
 * rollup triggers. Usage: npm run bench:dashboard (the dev stack must be up).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../infra/config.ts';
import { type Database, openDatabase } from '../infra/db/client.ts';
import { runMigrations } from '../infra/db/migrate.ts';
import {
  costByApp,
  costByModel,
  costByNode,
  costBySkill,
  costOverTime,
  rejectReasons,
  roundComparison,
  roundTotals,
  skillCostPage,
  taskCost,
} from '../infra/db/queries/costs.ts';
import { resolveServiceEndpoints } from '../infra/dev/endpoints.ts';
import { listTasks } from '../server/data/tasks.ts';

const BENCH_DB = 'forge_bench';
const TASKS = 300_000;
const CALLS_PER_TASK = 5;
const RUNS = 25;
const BIG = 'bench-r1'; // 200,000 tasks over 6,000 skills, 1,000,000 calls
const SMALL = 'bench-r2'; // 100,000 tasks over 3,000 skills, 500,000 calls

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function timed(label: string, fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  log(`${label}: ${(ms / 1000).toFixed(1)} s`);
  return ms;
}

async function generate(database: Database): Promise<void> {
  const { db } = database;
  await db.execute(sql`ALTER TABLE llm_calls DISABLE TRIGGER USER`);
  await db.execute(sql`ALTER TABLE tasks DISABLE TRIGGER USER`);
  await db.execute(sql`ALTER TABLE student_results DISABLE TRIGGER USER`);
  await db.execute(sql`
    INSERT INTO rounds (id, status, seed, budget_usd, settings, workflow_id, created_at, finished_at)
    SELECT 'bench-r' || r, 'completed', r, 2000, '{}'::jsonb, 'round-bench-r' || r,
      timestamptz '2026-01-01' + (r - 1) * interval '2 days', timestamptz '2026-01-02' + (r - 1) * interval '2 days'
    FROM generate_series(1, 2) r`);
  await db.execute(sql`
    INSERT INTO rounds (id, status, seed, settings, workflow_id, created_at)
    SELECT 'bench-old-' || r, 'completed', r, '{}'::jsonb, 'round-bench-old-' || r, timestamptz '2025-06-01' + r * interval '1 day'
    FROM generate_series(1, 40) r`);
  await db.execute(sql`
    INSERT INTO skills (id, title, apps, difficulty, channel, current_version)
    SELECT 'bench.skill-' || s, 'Bench skill ' || s,
      string_to_array((ARRAY['calc', 'writer', 'impress', 'thunderbird', 'os', 'calc,thunderbird'])[s % 6 + 1], ','),
      1 + s % 3, 'either', 1
    FROM generate_series(0, 5999) s`);
  await timed('300,000 tasks', () =>
    db.execute(sql`
      INSERT INTO tasks (id, round_id, skill_id, spec_version, task_index, seed, apps, status, reject_reason,
        instruction, difficulty, started_at, finished_at)
      SELECT md5('task' || i)::uuid, CASE WHEN i <= 200000 THEN ${BIG} ELSE ${SMALL} END,
        'bench.skill-' || (i % CASE WHEN i <= 200000 THEN 6000 ELSE 3000 END), 1,
        i / CASE WHEN i <= 200000 THEN 6000 ELSE 3000 END, i,
        string_to_array((ARRAY['calc', 'writer', 'impress', 'thunderbird', 'os', 'calc,thunderbird'])
          [(i % CASE WHEN i <= 200000 THEN 6000 ELSE 3000 END) % 6 + 1], ','),
        CASE WHEN (i::bigint * 7919) % 100 < 62 THEN 'accepted' WHEN (i::bigint * 7919) % 100 < 92 THEN 'rejected' ELSE 'failed' END,
        CASE WHEN (i::bigint * 7919) % 100 BETWEEN 62 AND 91
          THEN (ARRAY['verify_oracle_failed','judge_inconsistent','llm_invalid_output','near_duplicate'])[i % 4 + 1] END,
        'Synthetic instruction ' || i, 1 + i % 3,
        timestamptz '2026-01-01' + ((i - 1) % 200000) * interval '400 ms' + (i > 200000)::int * interval '2 days',
        timestamptz '2026-01-01' + ((i - 1) % 200000) * interval '400 ms' + (i > 200000)::int * interval '2 days' + interval '45 s'
      FROM generate_series(1, ${TASKS}) i`),
  );
  await timed('1,500,000 llm_calls', () =>
    db.execute(sql`
      INSERT INTO llm_calls (round_id, skill_id, task_id, node_id, attempt, provider, model, request_hash,
        prompt_tokens, cached_tokens, completion_tokens, reasoning_tokens, usd, price_version, latency_ms, cache_hit,
        outcome, created_at)
      SELECT t.round_id, t.skill_id, t.id, n.node, 1 + (c % 7 = 0)::int, 'openai', n.model, md5('call' || c),
        n.prompt, n.prompt / 3, n.completion, 0,
        CASE WHEN c % 11 = 0 THEN 0 ELSE (n.prompt * n.pin + n.completion * n.pout) / 1e6 END,
        '2025-01', 200 + c % 3000, c % 11 = 0, 'ok', t.started_at + (c % ${CALLS_PER_TASK}) * interval '5 s'
      FROM generate_series(1, ${TASKS * CALLS_PER_TASK}) c
      JOIN LATERAL (SELECT md5('task' || ((c - 1) / ${CALLS_PER_TASK} + 1))::uuid AS tid) k ON true
      JOIN tasks t ON t.id = k.tid
      CROSS JOIN LATERAL (
        SELECT (ARRAY['scenario','instruction','judge','rubric','repair'])[c % 5 + 1] AS node,
          CASE WHEN c % 5 = 2 THEN 'gpt-4.1' ELSE 'gpt-4.1-mini' END AS model,
          CASE WHEN c % 5 = 2 THEN 2.0 ELSE 0.4 END AS pin, CASE WHEN c % 5 = 2 THEN 8.0 ELSE 1.6 END AS pout,
          400 + (c * 31) % 1600 AS prompt, 50 + (c * 17) % 400 AS completion) n`),
  );
  await timed('student results', () =>
    db.execute(sql`
      INSERT INTO student_results (task_id, student_run_id, round_id, success, steps)
      SELECT id, 'run-1', round_id, ((seed * 13) % 10 < 6)::int, 5 + seed % 20 FROM tasks WHERE status = 'accepted'`),
  );
  await timed('rollups rebuilt', () => db.execute(sql`SELECT forge_rebuild_cost_rollups()`));
  await db.execute(sql`ALTER TABLE llm_calls ENABLE TRIGGER USER`);
  await db.execute(sql`ALTER TABLE tasks ENABLE TRIGGER USER`);
  await db.execute(sql`ALTER TABLE student_results ENABLE TRIGGER USER`);
  await timed('analyze', () => db.execute(sql`ANALYZE`));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Row {
  query: string;
  rows: number;
  p50: number;
  p95: number;
}

async function measure(name: string, runs: number, fn: () => Promise<unknown>): Promise<Row> {
  const result = await fn(); // warm-up, and the row count
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const rows = Array.isArray(result) ? result.length : 1;
  return { query: name, rows, p50: percentile(times, 50), p95: percentile(times, 95) };
}

interface Overhead {
  bulkWith: number;
  bulkWithout: number;
  singleWith: number;
  singleWithout: number;
}

/**
 * The cost of keeping the rollups: one 20,000-row INSERT, and 500 one-row INSERTs (how activities
 * write the ledger), each with and without the triggers, rolled back.
 */
async function insertOverhead(database: Database): Promise<Overhead> {
  const client = await database.pool.connect();
  const rowsSql = (n: number, salt: string) => `
    INSERT INTO llm_calls (round_id, skill_id, task_id, node_id, attempt, provider, model, request_hash, prompt_tokens,
      completion_tokens, usd, price_version, latency_ms, outcome)
    SELECT '${BIG}', 'bench.skill-' || (c % 6000), NULL, 'scenario', 1, 'openai', 'gpt-4.1-mini', md5('${salt}' || c), 900,
      120, 0.0005, '2025-01', 500, 'ok' FROM generate_series(1, ${n}) c`;
  const run = async (triggers: boolean, statements: number, rowsEach: number) => {
    await client.query('BEGIN');
    if (!triggers) await client.query('ALTER TABLE llm_calls DISABLE TRIGGER USER');
    const t0 = performance.now();
    for (let i = 0; i < statements; i++) await client.query(rowsSql(rowsEach, `x${i}-`));
    const ms = performance.now() - t0;
    await client.query('ROLLBACK');
    return ms;
  };
  try {
    return {
      bulkWithout: await run(false, 1, 20_000),
      bulkWith: await run(true, 1, 20_000),
      singleWithout: (await run(false, 500, 1)) / 500,
      singleWith: (await run(true, 500, 1)) / 500,
    };
  } finally {
    client.release();
  }
}

function table(rows: Row[]): string {
  const header = ['query', 'rows', 'p50 ms', 'p95 ms'];
  const body = rows.map((r) => [r.query, String(r.rows), r.p50.toFixed(1), r.p95.toFixed(1)]);
  const widths = header.map((_, i) => Math.max(header[i].length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

async function main(): Promise<void> {
  const config = loadConfig();
  const baseUrl = resolveServiceEndpoints(config).databaseUrl;
  const benchUrl = new URL(baseUrl);
  benchUrl.pathname = `/${BENCH_DB}`;
  await admin(baseUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${BENCH_DB}`);
  });
  const database = openDatabase(benchUrl.toString(), 4);
  try {
    await runMigrations(database);
    await generate(database);
    const { db } = database;
    const [{ id: someTask }] = (await db.execute(sql`SELECT id FROM tasks WHERE round_id = ${BIG} LIMIT 1`))
      .rows as { id: string }[];
    const rows: Row[] = [];
    const q = async (name: string, fn: () => Promise<unknown>) => {
      rows.push(await measure(name, RUNS, fn));
      log(`${name} done`);
    };
    await q('round totals (1 round)', () => roundTotals(db, BIG));
    await q('round comparison (50 rounds)', () => roundComparison(db, 50));
    await q('rejections by reason', () => rejectReasons(db, BIG));
    await q('cost by node', () => costByNode(db, BIG));
    await q('cost by model', () => costByModel(db, BIG));
    // The dashboard's skill table: a sorted page of 200 of the 6,000 skills, and a filtered one.
    await q('skill table: top 200 of 6,000 by USD / accepted', () =>
      skillCostPage(db, BIG, { sort: 'usdPerAccepted', order: 'desc', limit: 200, offset: 0 }).then(
        (p) => p.skills,
      ),
    );
    await q('skill table: filter "skill-42", by USD', () =>
      skillCostPage(db, BIG, { sort: 'usd', order: 'desc', filter: 'skill-42', limit: 200, offset: 0 }).then(
        (p) => p.skills,
      ),
    );
    await q('cost by app', () => costByApp(db, BIG));
    await q('cost over time (auto bucket)', () => costOverTime(db, BIG).then((t) => t.buckets));
    await q('task list page (round + status)', () =>
      listTasks(db, { round: BIG, status: 'rejected', limit: 50 }).then((p) => p.tasks),
    );
    await q('task list page (round + skill)', () =>
      listTasks(db, { round: BIG, skill: 'bench.skill-42', limit: 50 }).then((p) => p.tasks),
    );
    await q('task cost (one task)', () => taskCost(db, someTask).then((t) => t.calls));
    // What the rollups replace: the same per-skill aggregate straight from the ledger, a few runs.
    const raw = await measure(
      'raw ledger: cost by skill (no rollup)',
      5,
      async () =>
        (
          await db.execute(sql`
          SELECT c.skill_id, sum(c.usd), count(*), (SELECT count(*) FROM tasks t WHERE t.round_id = ${BIG}
            AND t.skill_id = c.skill_id AND t.status = 'accepted') FROM llm_calls c WHERE c.round_id = ${BIG}
          GROUP BY c.skill_id`)
        ).rows,
    );
    // Every skill at once, as `forge costs --top 0` lists them (not a dashboard query).
    const allSkills = await measure('all 6,000 skills (forge costs --top 0)', 10, () => costBySkill(db, BIG));
    const overhead = await insertOverhead(database);
    const [counts] = (
      await db.execute(sql`SELECT (SELECT count(*) FROM tasks)::int AS tasks, (SELECT count(*) FROM llm_calls)::int AS calls,
        (SELECT count(*) FROM llm_cost_rollup)::int AS rollup, (SELECT count(*) FROM student_results)::int AS students`)
    ).rows as { tasks: number; calls: number; rollup: number; students: number }[];
    const out = [
      `Dashboard aggregates on ${counts.tasks.toLocaleString('en-US')} tasks, ${counts.calls.toLocaleString('en-US')} llm_calls, ${counts.students.toLocaleString('en-US')} student results (${counts.rollup.toLocaleString('en-US')} llm_cost_rollup rows); round ${BIG} = 200,000 tasks / 1,000,000 calls / 6,000 skills; ${RUNS} runs each`,
      '',
      table(rows),
      '',
      `Every skill at once: ${allSkills.query}: p50 ${allSkills.p50.toFixed(0)} ms, p95 ${allSkills.p95.toFixed(0)} ms (10 runs)`,
      `For comparison, without rollups: ${raw.query}: p50 ${raw.p50.toFixed(0)} ms, p95 ${raw.p95.toFixed(0)} ms (5 runs)`,
      `Rollup trigger cost: one 20,000-row INSERT ${overhead.bulkWith.toFixed(0)} ms with triggers vs ${overhead.bulkWithout.toFixed(0)} ms without; a one-row INSERT ${overhead.singleWith.toFixed(2)} ms vs ${overhead.singleWithout.toFixed(2)} ms`,
      `Target p95 < 200 ms: ${
        rows.every((r) => r.p95 < 200)
          ? 'met by every query'
          : `missed by ${rows
              .filter((r) => r.p95 >= 200)
              .map((r) => r.query)
              .join(', ')}`
      }`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await database.close();
    await admin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`));
    log(`dropped ${BENCH_DB}`);
  }
}

await main();
