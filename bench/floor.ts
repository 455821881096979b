import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { officeRoundTrip } from '../activities/office.ts';
import { judgeRequest } from '../activities/segments.ts';
import { taskIdFor } from '../activities/taskIdentity.ts';
import type { StoredFile, TaskState } from '../activities/taskState.ts';
import type { TaskRef } from '../activities/types.ts';
import { officeSettingsOf } from '../app/officeSettings.ts';
import { loadConfig } from '../infra/config.ts';
import { ObjectStore } from '../infra/objectStore.ts';
import { isGlob, matchGlob } from '../infra/skillGlob.ts';
import { judgeCompletion } from '../llm/answer.ts';
import { OfflineHintRegistry } from '../llm/offline/hints.ts';
import { offlineCall } from '../llm/offline/server.ts';
import { requestHash } from '../llm/requestHash.ts';
import { OS_MANIFEST_PATH, osManifestOf } from '../preparers/home/manifest.ts';
import { closeOffice, configureOffice } from '../preparers/office/index.ts';
import type { FileMap } from '../preparers/types.ts';
import { DEFAULT_LEVEL_MIX, levelFor } from '../skills/levels.ts';
import { type LoadedSpec, readSkillLibrary } from '../skills/load.ts';
import { deriveSeed } from '../skills/random.ts';
import { authorTask, type LlmCaller } from '../skills/run/author.ts';
import type { Context } from '../skills/template.ts';
import { dedupSignature, packageFor } from '../taskcore/packageTask.ts';
import { runFusedPipeline, runInProcess, type TaskStages } from '../taskcore/pipeline.ts';
import { prepareInMemory } from '../taskcore/prepareCore.ts';
import { isNearDuplicate } from '../taskcore/verify/dedup.ts';
import { judgeScore } from '../taskcore/verify/judge.ts';

/** Skills whose tasks carry no office document (bench/round.ts uses the same selection). */
export const NO_OFFICE = ['os.*', 'thunderbird.*'];

export interface FloorResult {
  tasks: number;
  accepted: number;
  rejected: Record<string, number>;
  wallSeconds: number;
  acceptedPerSecond: number;
  /** CPU ms of this process per task, by stage; `office_children` is LibreOffice's own CPU. */
  cpuMsPerTask: Record<string, number>;
}

/** Pids of every live descendant of `root`, from /proc/<pid>/task/<tid>/children (no /proc scan). */
export function descendantPids(root: number): number[] {
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) {
          if (c.trim()) {
            out.push(Number(c));
            stack.push(Number(c));
          }
        }
      } catch {
        // The thread ended while we looked.
      }
    }
  }
  return out;
}

/** Fields of /proc/<pid>/stat after the command name (state is [0]); undefined when gone. */
export function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/**
 * CPU ms (user + system) of every descendant of `root`, live or already waited for (a per-batch
 * soffice that exited counts in the root's cutime/cstime), from /proc (LibreOffice children).
 */
export function childrenCpuMs(root = process.pid): number {
  const own = procStat(root);
  let total = own ? (Number(own[13]) + Number(own[14])) * TICK_MS : 0;
  for (const pid of descendantPids(root)) {
    const f = procStat(pid);
    // utime, stime, cutime, cstime: fields 14–17 of stat, 11–14 after the command.
    if (f) total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
  }
  return total;
}

/**
 * The offline model called in process (no HTTP), as a worker's LLM client calls it: the answer and
 * its usage (the real tokenizer counts prompt and completion, as any model server does), with the
 * response cache a round has (content pools).
 */
export function inProcessLlm(): LlmCaller {
  const cache = new Map<string, unknown>();
  const hints = new OfflineHintRegistry();
  const model = offlineCall(hints);
  return async (call) => {
    const hash = requestHash({
      model: 'offline',
      messages: call.messages,
      schema: { name: call.schemaName, schema: call.jsonSchema, offlineHint: call.offlineHint },
      seed: call.seed,
    });
    if (cache.has(hash)) return { ok: true, value: cache.get(hash) };
    const hintId = call.offlineHint === undefined ? undefined : hints.register(call.offlineHint);
    let completion: ChatCompletion;
    try {
      ({ completion } = model(
        {
          model: 'offline',
          messages: call.messages,
          seed: call.seed,
          response_format: {
            type: 'json_schema',
            json_schema: { name: call.schemaName, schema: call.jsonSchema, strict: true },
          },
        } as Parameters<typeof model>[0],
        hintId,
      ));
    } finally {
      if (hintId) hints.release(hintId);
    }
    const judged = judgeCompletion(completion, call.validate);
    if (!judged.ok) return { ok: false, reason: 'llm_invalid_output', detail: judged.error };
    cache.set(hash, judged.value);
    return { ok: true, value: judged.value };
  };
}

/** Content-addressed "storage" in memory: the same keys and hashes the object store would give. */
interface Held {
  spec: LoadedSpec;
  ctx?: Context;
  state?: TaskState;
  files?: { initial: FileMap; solved: FileMap };
}

/** Runs every selected skill's tasks through runTaskPipeline with in-memory stages. */
export async function runFloor(
  library: Map<string, LoadedSpec>,
  skillIds: string[],
  tasksPerSkill: number,
  seed: number,
): Promise<FloorResult> {
  const config = loadConfig();
  const llm = inProcessLlm();
  const roundId = `floor-${seed}`;
  const held = new Map<string, Held>();
  const accepted = new Map<string, { minhash: number[]; paramSignature: string }[]>();
  const rejected: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  const rejectWith = (reason: string) => {
    rejected[reason] = (rejected[reason] ?? 0) + 1;
    return { ok: false as const };
  };
  const timed =
    <T>(stage: string, f: (task: TaskRef) => Promise<T>) =>
    async (task: TaskRef): Promise<T> => {
      const c0 = process.cpuUsage();
      const k0 = stage === 'office' ? childrenCpuMs() : 0;
      try {
        return await f(task);
      } finally {
        const c = process.cpuUsage(c0);
        cpu[stage] = (cpu[stage] ?? 0) + (c.user + c.system) / 1000;
        if (stage === 'office') cpu.office_children = (cpu.office_children ?? 0) + childrenCpuMs() - k0;
      }
    };

  const stages: TaskStages<TaskRef> = {
    authorTask: timed('author', async (task) => {
      const h = held.get(task.taskId)!;
      const r = await authorTask(h.spec.spec, task.taskSeed, llm, {
        level: task.level,
        roundId: task.roundId,
        taskIndex: task.taskIndex,
      });
      if (!r.ok) return rejectWith(r.reason);
      h.ctx = r.context;
      return { ok: true };
    }),
    prepareTask: timed('prepare', async (task) => {
      const h = held.get(task.taskId)!;
      const p = await prepareInMemory(h.spec.spec, 'file', h.ctx!);
      if (!p.ok) return rejectWith(p.reason);
      h.files = { initial: p.initial, solved: p.solved };
      // The state the gate graded (files described by content key, the profile packed once), with
      // the verdicts the prepare stage stores beside it.
      h.state = {
        ...p.draft.state,
        verdicts: { initial: p.before.map((r) => r.pass), solved: p.after.map((r) => r.pass) },
      };
      const office = Object.keys(h.state.initial)
        .concat(Object.keys(h.state.solved))
        .some((k) => /\.(xlsx|docx|pptx)$/i.test(k));
      return { ok: true, office };
    }),
    officeVerify: timed('office', async (task) => {
      const h = held.get(task.taskId)!;
      const { problems, saved, office } = await officeRoundTrip(h.files!, h.state!.checks, h.state!.verdicts);
      if (problems.length > 0) return rejectWith('office_roundtrip');
      const solvedByOffice: Record<string, StoredFile> = {};
      for (const { role, path } of office) {
        if (role !== 'solved' || path.endsWith('.xlsx')) continue;
        solvedByOffice[path] = {
          ...ObjectStore.describeArtifact(saved.solved[path]!),
          app: h.state!.solved[path]!.app,
        };
      }
      h.state = { ...h.state!, solvedByOffice };
      return { ok: true };
    }),
    judgeTask: timed('judge', async (task) => {
      const h = held.get(task.taskId)!;
      const r = await llm(judgeRequest(h.state!, task.taskSeed));
      if (!r.ok) return rejectWith(r.reason);
      const score = judgeScore(r.value as Parameters<typeof judgeScore>[0]);
      return score < config.FORGE_JUDGE_THRESHOLD ? rejectWith('judge_rejected') : { ok: true };
    }),
    packageTask: timed('package', async (task) => {
      const h = held.get(task.taskId)!;
      const { spec, sha256 } = h.spec;
      const state = h.state!;
      const ctx = h.ctx!;
      const signature = dedupSignature(spec, state.instruction, ctx);
      const others = accepted.get(spec.id) ?? [];
      if (others.some((o) => isNearDuplicate(signature, o, config.FORGE_DEDUP_THRESHOLD)))
        return rejectWith('near_duplicate');
      const manifestBytes = h.files!.initial[OS_MANIFEST_PATH];
      packageFor({
        task,
        version: 1,
        spec,
        state,
        ctx,
        manifest: osManifestOf(manifestBytes ? { [OS_MANIFEST_PATH]: manifestBytes } : {}),
        provenance: {
          roundId,
          taxonomyVersion: null,
          specSha: sha256,
          models: ['offline'],
          costUsd: 0,
          tokens: 0,
          createdAt: new Date().toISOString(),
        },
      });
      accepted.set(spec.id, [...others, signature]);
      return { ok: true };
    }),
  };

  let acceptedCount = 0;
  let total = 0;
  const t0 = performance.now();
  for (const skillId of skillIds) {
    const spec = library.get(skillId)!;
    for (let taskIndex = 0; taskIndex < tasksPerSkill; taskIndex++) {
      const task: TaskRef = {
        roundId,
        skillId,
        specVersion: 1,
        taskIndex,
        taskId: taskIdFor(roundId, skillId, taskIndex),
        taskSeed: deriveSeed(seed, skillId, taskIndex),
        level: levelFor(DEFAULT_LEVEL_MIX, tasksPerSkill, taskIndex, deriveSeed(seed, skillId)),
      };
      held.set(task.taskId, { spec });
      total++;
      try {
        // The production composition: in process up to the office check, then on from there.
        const outcome = await runFusedPipeline({ stages }, (t) => runInProcess(stages, t), task);
        if (outcome === 'accepted') acceptedCount++;
      } catch (err) {
        rejectWith(`failed: ${(err as Error).message.slice(0, 80)}`);
      }
      held.delete(task.taskId);
    }
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  return {
    tasks: total,
    accepted: acceptedCount,
    rejected,
    wallSeconds,
    acceptedPerSecond: acceptedCount / wallSeconds,
    cpuMsPerTask: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v / Math.max(1, total)])),
  };
}

/** The office files (initial and solved) of one task per skill, as a round would send them to LibreOffice. */
export async function libraryOfficeFiles(
  library: Map<string, LoadedSpec>,
  skillIds: string[],
  seed: number,
): Promise<{ name: string; bytes: Uint8Array; format: 'xlsx' | 'docx' | 'pptx' }[]> {
  const llm = inProcessLlm();
  const out: { name: string; bytes: Uint8Array; format: 'xlsx' | 'docx' | 'pptx' }[] = [];
  for (const skillId of skillIds) {
    const { spec } = library.get(skillId)!;
    const taskSeed = deriveSeed(seed, skillId, 0);
    const a = await authorTask(spec, taskSeed, llm, {
      level: 'natural',
      roundId: `office-${seed}`,
      taskIndex: 0,
    });
    if (!a.ok) continue;
    const p = await prepareInMemory(spec, 'file', a.context);
    if (!p.ok) continue;
    for (const [role, files] of [
      ['initial', p.initial],
      ['solved', p.solved],
    ] as const) {
      for (const [path, bytes] of Object.entries(files)) {
        const ext = path.split('.').pop()?.toLowerCase();
        if (ext === 'xlsx' || ext === 'docx' || ext === 'pptx')
          out.push({ name: `${skillId}:${role}:${path}`, bytes, format: ext });
      }
    }
  }
  return out;
}

/** Skill ids of the library matching the selectors (globs or ids); none = every skill. */
export function selectFromLibrary(library: Map<string, LoadedSpec>, selectors: string[]): string[] {
  const ids = [...library.keys()].sort();
  if (selectors.length === 0) return ids;
  return ids.filter((id) => selectors.some((s) => (isGlob(s) ? matchGlob(s, id) : s === id)));
}

/** Configures the process-wide LibreOffice backend as a worker would (FORGE_OFFICE_*). */
export function configureOfficeFromEnv(): void {
  configureOffice(officeSettingsOf(loadConfig()));
}

export { closeOffice };

const fmt = (n: number, d = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function floorTable(name: string, runs: FloorResult[]): string {
  const med = (f: (r: FloorResult) => number) => {
    const s = runs.map(f).sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const stagesSeen = [...new Set(runs.flatMap((r) => Object.keys(r.cpuMsPerTask)))];
  return [
    `## floor, ${name}: ${runs[0]!.tasks} tasks per run, ${runs.length} run(s), median`,
    '',
    '| metric | median | runs |',
    '|---|---:|---:|',
    `| accepted tasks / s (one process, one task at a time) | ${fmt(
      med((r) => r.acceptedPerSecond),
      2,
    )} | ${runs.map((r) => fmt(r.acceptedPerSecond, 2)).join(', ')} |`,
    `| accepted / tasks | ${runs.map((r) => `${r.accepted}/${r.tasks}`).join(', ')} | |`,
    ...stagesSeen.map(
      (s) =>
        `| CPU ms / task, ${s} | ${fmt(med((r) => r.cpuMsPerTask[s] ?? 0))} | ${runs.map((r) => fmt(r.cpuMsPerTask[s] ?? 0)).join(', ')} |`,
    ),
    `rejected: ${JSON.stringify(runs.map((r) => r.rejected))}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const knobs = z
    .object({
      BENCH_VARIANT: z.enum(['all', 'no-office', 'both']).default('both'),
      BENCH_RUNS: z.coerce.number().int().min(1).max(20).default(3),
      BENCH_TASKS_PER_SKILL: z.coerce.number().int().min(1).max(1000).default(3),
      BENCH_SKILLS: z.string().optional(),
    })
    .parse(process.env);
  configureOfficeFromEnv();
  const { specs: library } = readSkillLibrary();
  const variants = knobs.BENCH_SKILLS
    ? [{ name: 'selected skills', skills: knobs.BENCH_SKILLS.split(',').map((s) => s.trim()) }]
    : [
        ...(knobs.BENCH_VARIANT !== 'no-office' ? [{ name: 'all skills', skills: [] as string[] }] : []),
        ...(knobs.BENCH_VARIANT !== 'all'
          ? [{ name: 'no office files (OS, Thunderbird)', skills: NO_OFFICE }]
          : []),
      ];
  const load = os.loadavg();
  const out: string[] = [
    `bench:floor — ${os.cpus().length} cores, node ${process.version}, load average before ${load.map((l) => l.toFixed(2)).join(' ')}`,
  ];
  try {
    for (const v of variants) {
      const ids = selectFromLibrary(library, v.skills);
      const runs: FloorResult[] = [];
      for (let i = 0; i < knobs.BENCH_RUNS; i++) {
        const r = await runFloor(library, ids, knobs.BENCH_TASKS_PER_SKILL, Math.floor(Date.now() % 1e9));
        process.stderr.write(
          `floor: ${v.name} run ${i + 1}: ${r.accepted}/${r.tasks} accepted in ${r.wallSeconds.toFixed(1)} s\n`,
        );
        runs.push(r);
      }
      out.push(floorTable(`${v.name} (${ids.length} skills × ${knobs.BENCH_TASKS_PER_SKILL})`, runs));
    }
  } finally {
    await closeOffice();
  }
  out.push(
    `load average after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.stdout.write(`${out.join('\n\n')}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
