/**
 * A generation round with the offline model on the real Temporal, MinIO and Postgres, workers in this
 * process on task queues of their own. Prints accepted tasks per second, p50/p95 task latency
 * (tasks.started_at → finished_at), tokens per accepted task by node (rejected tasks' calls included),
 * USD per accepted task at real models' prices, and peak RSS of the worker process and of its
 * LibreOffice children. Beside every run it runs the floor (bench/floor.ts: the same skills and task
 * count through the same stage functions in this process, no Temporal/MinIO/Postgres) and prints
 * pipeline ÷ floor, by wall time and by CPU, with CPU ms per task by component (this process,
 * LibreOffice, and the dev stack's Temporal, MinIO and Postgres from /proc — those serve every user
 * of the stack, so on a shared machine they are upper bounds).
 * Usage: npm run bench:round (the dev stack must be up: ./bin/forge dev up).
 *
 * Knobs (env): BENCH_VARIANT all | no-office | both (default both: every skill, then OS/Thunderbird
 * skills only), BENCH_RUNS (3), BENCH_TASKS_PER_SKILL (1), BENCH_WINDOW (skill workflows at once, 80),
 * BENCH_TASK_CONCURRENCY (tasks at once per skill, 2), BENCH_SKILLS (comma-separated ids/globs,
 * replaces the variant's selection), and every FORGE_* setting of infra/config.ts, e.g.
 * FORGE_OFFICE_BATCH_SIZE, FORGE_OFFICE_BATCH_WAIT_MS, FORGE_PREPARE_QUEUE_CONCURRENCY.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  type PipelineWorkerProcesses,
  startPipelineWorkerProcesses,
} from '../app/pipelineWorkerProcesses.ts';
import { waitForRound } from '../app/rounds/control.ts';
import { startRound } from '../app/rounds/start.ts';
import { stackLayout } from '../infra/dev/layout.ts';
import { loadPriceTable, type PriceTable, priceCall } from '../llm/prices.ts';
import { readSkillLibrary } from '../skills/load.ts';
import { startTestForge, type TestForge } from '../tests/support/workers.ts';
import {
  childrenCpuMs,
  descendantPids,
  type FloorResult,
  floorTable,
  procStat,
  runFloor,
  selectFromLibrary,
} from './floor.ts';

const knobs = z
  .object({
    BENCH_VARIANT: z.enum(['all', 'no-office', 'both']).default('both'),
    BENCH_RUNS: z.coerce.number().int().min(1).max(20).default(3),
    BENCH_TASKS_PER_SKILL: z.coerce.number().int().min(1).max(1000).default(1),
    BENCH_WINDOW: z.coerce.number().int().min(1).max(1000).default(80),
    BENCH_TASK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    BENCH_SKILLS: z.string().optional(),
  })
  .parse(process.env);

/**
 * Skills whose tasks carry no office document, so the round never calls LibreOffice for them. The
 * multi.os-thunderbird skills are left out: some of their tasks file a .docx (office-verified).
 */
const NO_OFFICE = ['os.*', 'thunderbird.*'];

/** CPU ms (user + system, own and of reaped children) of a process and its live descendants. */
function processTreeCpuMs(pid: number): number {
  const f = procStat(pid);
  return f ? (Number(f[11]) + Number(f[12])) * 10 + childrenCpuMs(pid) : Number.NaN;
}

/** The dev stack's service pids (stack.json), for CPU per component. */
function servicePids(forge: TestForge): Record<string, number> {
  try {
    const stack = JSON.parse(readFileSync(stackLayout(forge.config).stackFile, 'utf8')) as {
      services: Record<string, { pid: number }>;
    };
    return Object.fromEntries(Object.entries(stack.services).map(([name, s]) => [name, s.pid]));
  } catch {
    return {};
  }
}

interface CpuSnapshot {
  worker: number;
  libreoffice: number;
  services: Record<string, number>;
  pgTransactions: number;
}

async function cpuSnapshot(forge: TestForge, llmWorkers: number[]): Promise<CpuSnapshot> {
  const u = process.cpuUsage();
  // The pipeline queue's extra worker processes are worker CPU, not LibreOffice's.
  const extra = llmWorkers.reduce((sum, pid) => sum + (processTreeCpuMs(pid) || 0), 0);
  const services = Object.fromEntries(
    Object.entries(servicePids(forge)).map(([name, pid]) => [name, processTreeCpuMs(pid)]),
  );
  // Every statement outside a transaction block is a transaction of its own: a statement count
  // for this database (private to the bench's namespace) without pg_stat_statements.
  const [row] = (
    await forge.runtime.database.db.execute<{ n: number }>(
      sql`SELECT (xact_commit + xact_rollback)::float8 AS n FROM pg_stat_database WHERE datname = current_database()`,
    )
  ).rows;
  return {
    worker: (u.user + u.system) / 1000 + extra,
    libreoffice: childrenCpuMs() - extra,
    services,
    pgTransactions: row?.n ?? Number.NaN,
  };
}
const PRICED_MODELS = ['gpt-4.1-mini', 'gpt-4o-mini', 'gpt-5-mini'] as const;
const REFERENCE = { tokens: 85_000, usd: 0.158, agentLoopTokens: 1_276_000 };

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values: number[]): number {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** RSS in bytes of every live descendant of `root` (soffice and its helpers), read from /proc. */
function descendantsRss(root: number): number {
  let total = 0;
  for (const pid of descendantPids(root)) {
    const f = procStat(pid);
    if (f) total += Number(f[21]) * 4096;
  }
  return total;
}

class RssSampler {
  peakSelf = 0;
  peakChildren = 0;
  private timer: NodeJS.Timeout;
  constructor(intervalMs = 1000) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }
  private sample(): void {
    this.peakSelf = Math.max(this.peakSelf, process.memoryUsage().rss);
    this.peakChildren = Math.max(this.peakChildren, descendantsRss(process.pid));
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

type NodeTokens = {
  node: string;
  calls: number;
  prompt: number;
  cached: number;
  completion: number;
};

interface RunResult {
  roundId: string;
  skills: number;
  planned: number;
  accepted: number;
  rejected: number;
  failed: number;
  rejectedByReason: Record<string, number>;
  wallSeconds: number;
  acceptedPerSecond: number;
  latencyAccepted: { p50: number; p95: number };
  latencyAll: { p50: number; p95: number };
  /** Seconds from the round's start to its first task, and between successive skills' first tasks. */
  firstTaskSeconds: number;
  skillStartGapSeconds: number;
  nodes: NodeTokens[];
  cacheHits: number;
  tokensPerAccepted: number;
  usdPerAccepted: Record<string, number>;
  peakRssMiB: number;
  peakChildrenRssMiB: number;
  /** CPU ms per finished task by component; services are shared with other users of the stack. */
  cpuMsPerTask: Record<string, number>;
  pgTransactionsPerTask: number;
  floor: FloorResult;
}

async function runOnce(
  forge: TestForge,
  llmWorkers: PipelineWorkerProcesses | undefined,
  prices: PriceTable,
  skills: string[],
): Promise<RunResult> {
  const { db } = forge.runtime.database;
  const seed = Math.floor(Date.now() % 1e9); // fresh: near-duplicates of earlier tasks are rejected
  // The floor first, on the same skills and task count, in this process (workers idle).
  const { specs: library } = readSkillLibrary();
  const floor = await runFloor(
    library,
    selectFromLibrary(library, skills),
    knobs.BENCH_TASKS_PER_SKILL,
    seed + 1,
  );
  log(`floor: ${floor.accepted}/${floor.tasks} accepted in ${floor.wallSeconds.toFixed(1)} s`);
  const cpu0 = await cpuSnapshot(forge, llmWorkers?.pids() ?? []);
  const sampler = new RssSampler();
  const t0 = performance.now();
  const started = await startRound(forge.deps, {
    skills,
    tasksPerSkill: knobs.BENCH_TASKS_PER_SKILL,
    window: knobs.BENCH_WINDOW,
    taskConcurrency: knobs.BENCH_TASK_CONCURRENCY,
    seed,
  });
  const progress = await waitForRound(forge.deps, started.roundId);
  const wallSeconds = (performance.now() - t0) / 1000;
  sampler.stop();
  const cpu1 = await cpuSnapshot(forge, llmWorkers?.pids() ?? []);
  if (progress.status !== 'completed') throw new Error(`round ${started.roundId} ended ${progress.status}`);

  const latencies = (
    await db.execute<{ status: string; ms: number }>(sql`
      SELECT status, extract(epoch FROM finished_at - started_at)::float8 * 1000 AS ms
      FROM tasks WHERE round_id = ${started.roundId} AND finished_at IS NOT NULL`)
  ).rows;
  const [span] = (
    await db.execute<{ first: number; gap: number }>(sql`
      WITH s AS (SELECT skill_id, min(started_at) AS at FROM tasks WHERE round_id = ${started.roundId} GROUP BY skill_id)
      SELECT extract(epoch FROM min(s.at) - r.created_at)::float8 AS first,
        coalesce(extract(epoch FROM max(s.at) - min(s.at))::float8 / nullif(count(*) - 1, 0), 0) AS gap
      FROM s, rounds r WHERE r.id = ${started.roundId} GROUP BY r.created_at`)
  ).rows;
  const acc = latencies
    .filter((l) => l.status === 'accepted')
    .map((l) => l.ms)
    .sort((a, b) => a - b);
  const all = latencies.map((l) => l.ms).sort((a, b) => a - b);
  // Cache hits were answered without a provider call: a real model would not bill them.
  const nodes = (
    await db.execute<NodeTokens>(sql`
      SELECT node_id AS node, count(*)::int AS calls, sum(prompt_tokens)::int AS prompt,
        sum(cached_tokens)::int AS cached, sum(completion_tokens)::int AS completion
      FROM llm_calls WHERE round_id = ${started.roundId} AND NOT cache_hit
      GROUP BY node_id ORDER BY node_id`)
  ).rows;
  const [{ hits }] = (
    await db.execute<{ hits: number }>(
      sql`SELECT count(*)::int AS hits FROM llm_calls WHERE round_id = ${started.roundId} AND cache_hit`,
    )
  ).rows;
  const accepted = progress.accepted;
  const at = new Date();
  const usdPerAccepted: Record<string, number> = {};
  for (const model of PRICED_MODELS) {
    const usd = nodes.reduce(
      (sum, n) =>
        sum +
        priceCall(
          prices,
          model,
          { promptTokens: n.prompt, cachedTokens: n.cached, completionTokens: n.completion },
          at,
        ).usd,
      0,
    );
    usdPerAccepted[model] = accepted > 0 ? usd / accepted : Number.NaN;
  }
  const tokens = nodes.reduce((s, n) => s + n.prompt + n.completion, 0);
  const finished = Math.max(1, latencies.length);
  const cpuMsPerTask: Record<string, number> = {
    'worker (node process: workflows + activities)': (cpu1.worker - cpu0.worker) / finished,
    LibreOffice: (cpu1.libreoffice - cpu0.libreoffice) / finished,
  };
  for (const name of Object.keys(cpu1.services))
    cpuMsPerTask[name] =
      ((cpu1.services[name] ?? Number.NaN) - (cpu0.services[name] ?? Number.NaN)) / finished;
  return {
    cpuMsPerTask,
    pgTransactionsPerTask: (cpu1.pgTransactions - cpu0.pgTransactions) / finished,
    floor,
    roundId: started.roundId,
    skills: started.skills,
    planned: started.tasks,
    accepted,
    rejected: progress.rejected,
    failed: progress.failed,
    rejectedByReason: progress.rejectedByReason,
    wallSeconds,
    acceptedPerSecond: accepted / wallSeconds,
    latencyAccepted: { p50: percentile(acc, 50), p95: percentile(acc, 95) },
    latencyAll: { p50: percentile(all, 50), p95: percentile(all, 95) },
    firstTaskSeconds: span?.first ?? Number.NaN,
    skillStartGapSeconds: span?.gap ?? Number.NaN,
    nodes,
    cacheHits: hits,
    tokensPerAccepted: accepted > 0 ? tokens / accepted : Number.NaN,
    usdPerAccepted,
    peakRssMiB: sampler.peakSelf / 2 ** 20,
    peakChildrenRssMiB: sampler.peakChildren / 2 ** 20,
  };
}

const fmt = (n: number, digits = 0) =>
  Number.isNaN(n)
    ? 'n/a'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const cpuTotal = (byPart: Record<string, number>) =>
  Object.values(byPart).reduce((sum, v) => sum + (Number.isNaN(v) ? 0 : v), 0);

function report(variant: string, runs: RunResult[]): string {
  const m = (f: (r: RunResult) => number) => median(runs.map(f));
  const tokens = m((r) => r.tokensPerAccepted);
  const usd41 = m((r) => r.usdPerAccepted['gpt-4.1-mini']);
  const nodeNames = [...new Set(runs.flatMap((r) => r.nodes.map((n) => n.node)))].sort();
  const perNode = (r: RunResult, node: string, f: (n: NodeTokens) => number) => {
    const n = r.nodes.find((x) => x.node === node);
    return n && r.accepted > 0 ? f(n) / r.accepted : 0;
  };
  const reasons: Record<string, number> = {};
  for (const r of runs)
    for (const [k, v] of Object.entries(r.rejectedByReason)) reasons[k] = (reasons[k] ?? 0) + v;
  const lines = [
    `## ${variant}: ${runs[0].skills} skills × ${knobs.BENCH_TASKS_PER_SKILL} task(s), window ${knobs.BENCH_WINDOW}, task concurrency ${knobs.BENCH_TASK_CONCURRENCY}; ${runs.length} run(s), median`,
    '',
    `runs: ${runs.map((r) => `${r.roundId} (${r.accepted}/${r.planned} accepted in ${r.wallSeconds.toFixed(1)} s)`).join('; ')}`,
    `rejected (all runs): ${Object.keys(reasons).length ? JSON.stringify(reasons) : 'none'}; failed: ${runs.reduce((s, r) => s + r.failed, 0)}; cache hits: ${runs.reduce((s, r) => s + r.cacheHits, 0)}`,
    '',
    '| metric | median | runs |',
    '|---|---:|---:|',
    `| accepted tasks / s (wall, start → round result) | ${fmt(
      m((r) => r.acceptedPerSecond),
      2,
    )} | ${runs.map((r) => fmt(r.acceptedPerSecond, 2)).join(', ')} |`,
    `| task latency p50 / p95, accepted (s) | ${fmt(m((r) => r.latencyAccepted.p50) / 1000, 1)} / ${fmt(m((r) => r.latencyAccepted.p95) / 1000, 1)} | ${runs.map((r) => `${fmt(r.latencyAccepted.p50 / 1000, 1)}/${fmt(r.latencyAccepted.p95 / 1000, 1)}`).join(', ')} |`,
    `| task latency p50 / p95, all finished (s) | ${fmt(m((r) => r.latencyAll.p50) / 1000, 1)} / ${fmt(m((r) => r.latencyAll.p95) / 1000, 1)} | ${runs.map((r) => `${fmt(r.latencyAll.p50 / 1000, 1)}/${fmt(r.latencyAll.p95 / 1000, 1)}`).join(', ')} |`,
    `| round start → first task (s) | ${fmt(
      m((r) => r.firstTaskSeconds),
      1,
    )} | ${runs.map((r) => fmt(r.firstTaskSeconds, 1)).join(', ')} |`,
    `| mean gap between successive skills' first tasks (s) | ${fmt(
      m((r) => r.skillStartGapSeconds),
      2,
    )} | ${runs.map((r) => fmt(r.skillStartGapSeconds, 2)).join(', ')} |`,
    `| tokens / accepted task (prompt + completion) | ${fmt(tokens)} | ${runs.map((r) => fmt(r.tokensPerAccepted)).join(', ')} |`,
    ...nodeNames.map(
      (node) =>
        `| — node \`${node}\`: prompt + completion / accepted | ${fmt(m((r) => perNode(r, node, (n) => n.prompt)))} + ${fmt(m((r) => perNode(r, node, (n) => n.completion)))} | ${runs.map((r) => fmt(perNode(r, node, (n) => n.prompt + n.completion))).join(', ')} |`,
    ),
    ...PRICED_MODELS.map(
      (model) =>
        `| USD / accepted task at ${model} prices | $${fmt(
          m((r) => r.usdPerAccepted[model]),
          5,
        )} | ${runs.map((r) => fmt(r.usdPerAccepted[model], 5)).join(', ')} |`,
    ),
    `| peak worker RSS (node process, MiB) | ${fmt(m((r) => r.peakRssMiB))} | ${runs.map((r) => fmt(r.peakRssMiB)).join(', ')} |`,
    `| peak RSS of child processes (soffice, MiB) | ${fmt(m((r) => r.peakChildrenRssMiB))} | ${runs.map((r) => fmt(r.peakChildrenRssMiB)).join(', ')} |`,
    `| **floor: accepted tasks / s (same skills, one process, one task at a time)** | ${fmt(
      m((r) => r.floor.acceptedPerSecond),
      2,
    )} | ${runs.map((r) => fmt(r.floor.acceptedPerSecond, 2)).join(', ')} |`,
    `| **floor / pipeline (time per accepted task, pipeline ÷ floor)** | ${fmt(
      m((r) => r.floor.acceptedPerSecond / r.acceptedPerSecond),
      2,
    )}× | ${runs.map((r) => `${fmt(r.floor.acceptedPerSecond / r.acceptedPerSecond, 2)}×`).join(', ')} |`,
    ...Object.keys(runs[0]!.cpuMsPerTask).map(
      (c) =>
        `| CPU ms / task, ${c} | ${fmt(
          m((r) => r.cpuMsPerTask[c] ?? Number.NaN),
          1,
        )} | ${runs.map((r) => fmt(r.cpuMsPerTask[c] ?? Number.NaN, 1)).join(', ')} |`,
    ),
    `| **CPU per task, pipeline (every component above) ÷ floor (one process)** | ${fmt(
      m((r) => cpuTotal(r.cpuMsPerTask) / cpuTotal(r.floor.cpuMsPerTask)),
      2,
    )}× | ${runs.map((r) => `${fmt(cpuTotal(r.cpuMsPerTask) / cpuTotal(r.floor.cpuMsPerTask), 2)}×`).join(', ')} |`,
    `| Postgres transactions (statements) / task, this database | ${fmt(
      m((r) => r.pgTransactionsPerTask),
      1,
    )} | ${runs.map((r) => fmt(r.pgTransactionsPerTask, 1)).join(', ')} |`,
    '',
    floorTable(
      variant,
      runs.map((r) => r.floor),
    ),
    '',
    `vs the Mage-CUA-Forge report (${fmt(REFERENCE.tokens)} tokens, $${REFERENCE.usd} per task): ${fmt(REFERENCE.tokens / tokens, 1)}× fewer tokens, ${fmt(REFERENCE.usd / usd41, 1)}× cheaper at gpt-4.1-mini; vs an open-ended agent loop (${fmt(REFERENCE.agentLoopTokens)} tokens): ${fmt(REFERENCE.agentLoopTokens / tokens)}× fewer tokens`,
    `targets: ≥ 20 accepted tasks/s without office files ${m((r) => r.acceptedPerSecond) >= 20 ? 'met' : 'MISSED'}; pipeline within 2× of the floor ${m((r) => r.floor.acceptedPerSecond / r.acceptedPerSecond) <= 2 ? 'met' : 'MISSED'}`,
    `earlier target: ≥ 5 accepted tasks/s ${m((r) => r.acceptedPerSecond) >= 5 ? 'met' : 'MISSED'}; ≤ 10,000 tokens per accepted task ${tokens <= 10_000 ? 'met' : 'MISSED'}`,
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const variants: { name: string; skills: string[] }[] = knobs.BENCH_SKILLS
    ? [{ name: 'selected skills', skills: knobs.BENCH_SKILLS.split(',').map((s) => s.trim()) }]
    : [
        ...(knobs.BENCH_VARIANT !== 'no-office' ? [{ name: 'all skills', skills: [] }] : []),
        ...(knobs.BENCH_VARIANT !== 'all'
          ? [{ name: 'no office files (OS, Thunderbird)', skills: NO_OFFICE }]
          : []),
      ];
  const loadBefore = os.loadavg();
  const forge = await startTestForge();
  // As `forge worker` does: FORGE_PIPELINE_WORKER_PROCESSES − 1 more processes on this forge's pipeline queue.
  const llmWorkers =
    forge.config.FORGE_PIPELINE_WORKER_PROCESSES > 1
      ? startPipelineWorkerProcesses(forge.config.FORGE_PIPELINE_WORKER_PROCESSES - 1, forge.settings, log)
      : undefined;
  await llmWorkers?.ready();
  const prices = loadPriceTable(forge.config);
  const sections: string[] = [];
  try {
    for (const v of variants) {
      const runs: RunResult[] = [];
      for (let i = 0; i < knobs.BENCH_RUNS; i++) {
        const r = await runOnce(forge, llmWorkers, prices, v.skills);
        log(
          `${v.name} run ${i + 1}/${knobs.BENCH_RUNS}: ${r.accepted}/${r.planned} accepted in ${r.wallSeconds.toFixed(1)} s, ${fmt(r.tokensPerAccepted)} tokens/accepted, load ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
        );
        runs.push(r);
      }
      sections.push(report(v.name, runs));
    }
  } finally {
    await llmWorkers?.stop();
    await forge.close();
  }
  const c = forge.config;
  const header = [
    `bench:round — offline model, ${os.cpus().length} cores, node ${process.version}; load average before ${loadBefore
      .map((l) => l.toFixed(2))
      .join(' ')}, after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `settings: FORGE_OFFICE_BACKEND=${c.FORGE_OFFICE_BACKEND} FORGE_OFFICE_PROCESSES=${c.FORGE_OFFICE_PROCESSES} FORGE_OFFICE_BATCH_SIZE=${c.FORGE_OFFICE_BATCH_SIZE} FORGE_OFFICE_BATCH_WAIT_MS=${c.FORGE_OFFICE_BATCH_WAIT_MS} FORGE_PREPARE_QUEUE_CONCURRENCY=${c.FORGE_PREPARE_QUEUE_CONCURRENCY} FORGE_OFFICE_QUEUE_CONCURRENCY=${c.FORGE_OFFICE_QUEUE_CONCURRENCY} FORGE_PIPELINE_QUEUE_CONCURRENCY=${c.FORGE_PIPELINE_QUEUE_CONCURRENCY} FORGE_PIPELINE_WORKER_PROCESSES=${c.FORGE_PIPELINE_WORKER_PROCESSES} FORGE_TASK_BATCH=${c.FORGE_TASK_BATCH}`,
  ];
  process.stdout.write(`${[...header, '', ...sections].join('\n\n')}\n`);
}

await main();
