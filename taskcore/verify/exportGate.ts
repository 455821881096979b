import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { jsonlLine, osworldExampleText } from '../../export/exportPack.ts';
import { osworldPackContext, packPaths } from '../../export/osworld/packContext.ts';
import { ConfigPlayError, type ConfigStep, playConfig } from '../../export/osworld/play.ts';
import { CHECKER_COMMAND, CHECKER_VM_DIR, toOsworldTask } from '../../export/osworld/task.ts';
import { VM_HOME, vmAbsolute } from '../../export/osworld/vm.ts';
import { commandProblem } from '../../export/packRules.ts';
import { childEnv } from '../../infra/childEnv.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { type RunError, runProgram } from '../../infra/spawner.ts';
import {
  type CheckerAnswer,
  type CheckerRunner,
  type CheckerVerdict,
  checkerRunner,
  SYSTEM_PYTHON,
} from '../../preparers/checker/runner.ts';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { osManifestOf } from '../../preparers/home/manifest.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import { packArchivedProfile } from '../../preparers/registry.ts';
import type { AppId, FileMap, ProbeResult } from '../../preparers/types.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import type { Context } from '../../skills/template.ts';
import { parseTaskPackage } from '../../taskpack/taskPackage.ts';
import { packageFor } from '../packageTask.ts';
import type { StoredFile, TaskState } from '../taskState.ts';

/** A state the exported task is graded on, with what the TypeScript probes said of every check. */
export interface GateState {
  name: string;
  files: FileMap;
  /** The harness's verdict the task needs on this state. */
  expect: 'pass' | 'fail';
  probes: ProbeResult[];
  /** The untouched state as the config itself lays it out (its files are then the package's own). */
  played?: boolean;
}

/** A task as its package will be made: its state (artifacts by key) and those artifacts' bytes. */
export interface GateTask {
  spec: SkillSpec;
  ctx: Context;
  state: TaskState;
  bytes: Map<string, Uint8Array>;
}

/** The packed profile archive of a draft, when the task has one. */
export function profileArchiveOf(task: GateTask): { app: AppId; bytes: Uint8Array } | undefined {
  const ref = task.state.profileArchive;
  const bytes = ref && task.bytes.get(ref.key);
  return ref && bytes ? { app: ref.app, bytes } : undefined;
}

export type GateResult = { ok: true; states: number } | { ok: false; detail: string };

/**
 * The task state a prepare stage would store, described rather than stored (content keys are
 * hashes), so the gate can build the package before any object is written.
 */
export type GateTaskFields = Omit<
  TaskState,
  'initial' | 'solved' | 'verdicts' | 'profileArchive' | 'osManifest'
>;

export async function draftTask(a: {
  spec: SkillSpec;
  ctx: Context;
  fields: GateTaskFields;
  initial: FileMap;
  solved: FileMap;
  appOf: (path: string) => AppId;
  /** The probes' verdicts on both states, per check (the package names the checks the initial passes). */
  verdicts: TaskState['verdicts'];
}): Promise<GateTask> {
  const bytes = new Map<string, Uint8Array>();
  const describe = (files: FileMap) => {
    const out: Record<string, StoredFile> = {};
    for (const [p, b] of Object.entries(files)) {
      const d = ObjectStore.describeArtifact(b);
      bytes.set(d.key, b);
      out[p] = { ...d, app: a.appOf(p) };
    }
    return out;
  };
  const profile = await packArchivedProfile(a.initial);
  let profileArchive: StoredFile | undefined;
  if (profile) {
    const d = ObjectStore.describeArtifact(profile.bytes);
    bytes.set(d.key, profile.bytes);
    profileArchive = { ...d, app: profile.app };
  }
  const state: TaskState = {
    ...a.fields,
    initial: describe(a.initial),
    solved: describe(a.solved),
    verdicts: a.verdicts,
    ...(profileArchive ? { profileArchive } : {}),
    osManifest: osManifestOf(a.initial),
  };
  return { spec: a.spec, ctx: a.ctx, state, bytes };
}

const GATE_PROVENANCE = {
  roundId: 'export-gate',
  taxonomyVersion: null,
  specSha: '0'.repeat(64),
  models: [],
  costUsd: 0,
  tokens: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/**
 * The export gate: the task's package rendered exactly as the exporters render it (task.json as
 * stored, the OSWorld example with its config and shipped checks.json, the JSONL record) and graded
 * as a harness grades it. Each state gets a scratch home standing for /home/user: the untouched
 * state by playing the config (uploads and the exporter's commands), the others by laying out their
 * files and playing the checker's upload. The evaluator's checker command must print `PASS` exactly
 * on the states that must pass and anything else on the others (OSWorld's `exact_match`), and the
 * checker run over the JSONL record's checks must give every check the TypeScript probe's verdict.
 */
export async function exportGate(
  task: GateTask,
  states: GateState[],
  runner: CheckerRunner = checkerRunner(),
): Promise<GateResult> {
  const { built } = packageFor({
    task: { taskId: randomUUID(), taskSeed: 0 },
    version: 1,
    spec: task.spec,
    state: task.state,
    ctx: task.ctx,
    manifest: task.state.osManifest ?? { version: 1, entries: [] },
    provenance: GATE_PROVENANCE,
  });
  // What the exporter reads back from the object store.
  const pkg = parseTaskPackage(built.taskJsonText, 'the gate package');
  const pack = new Map<string, Uint8Array>();
  const rendered = await toOsworldTask(
    pkg,
    osworldPackContext(
      pkg,
      {
        artifact: async (key, _sha, packPath) => {
          const b = task.bytes.get(key);
          if (!b) throw new Error(`the package refers to ${key}, which the task does not hold`);
          pack.set(packPath, b);
          return { packPath };
        },
        file: async (packPath, b) => void pack.set(packPath, b),
      },
      runner.source,
    ),
  );
  const record = JSON.parse(jsonlLine(pkg, pkg.artifacts)) as { rubric: { checks: unknown[] } };
  const example = rendered.ok
    ? (JSON.parse(osworldExampleText(rendered.task)) as { config: ConfigStep[]; evaluator: Evaluator })
    : undefined;
  const calls = example ? evaluatorCalls(example.evaluator) : { checker: undefined, commands: [] };
  if ('problem' in calls) return { ok: false, detail: `OSWorld example: ${calls.problem}` };

  const work = await mkdtemp(path.join(tmpdir(), 'forge-gate-'));
  try {
    const checkDir = vmAbsolute(CHECKER_VM_DIR);
    const inCheckDir = (p: string) => p === checkDir || p.startsWith(`${checkDir}/`);
    const checker = await readFile(await runner.checkerPath());
    // Settled, not raced: a failed play must not leave others writing while the folder is removed.
    const laid = await Promise.allSettled(
      states.map(async (s, i) => {
        const home = path.join(work, `home-${i}`);
        if (example && s.played) await playConfig(example.config, home, (p) => pack.get(p));
        else {
          await materializeHome(home, s.files);
          if (example) await playConfig(example.config, home, (p) => pack.get(p), inCheckDir);
        }
        return home;
      }),
    );
    const unplayed = laid.find((r) => r.status === 'rejected');
    if (unplayed) {
      const err = unplayed.reason as Error;
      if (err instanceof ConfigPlayError)
        return { ok: false, detail: `playing the OSWorld config: ${err.message}` };
      throw err;
    }
    const homes = laid.map((r) => (r as PromiseFulfilledResult<string>).value);
    if (calls.checker) {
      const shipped = pack.get(packPaths.checker);
      if (!shipped || Buffer.compare(shipped, checker) !== 0)
        return { ok: false, detail: 'the pack ships another checker than the one the gate runs' };
    }
    // One job per state: the verdicts over the JSONL record's checks and, when the example runs the
    // checker, the line it prints for the shipped checks.json (one process for them all).
    const answers = await Promise.all(
      homes.map((home) =>
        runner.run({
          home,
          checks: record.rubric.checks,
          ...(calls.checker ? { checksFile: path.join(home, CHECKER_VM_DIR, 'checks.json') } : {}),
        }),
      ),
    );
    const problems: string[] = [];
    for (const [i, s] of states.entries()) {
      const answer = answers[i] as CheckerAnswer;
      const verdicts =
        (Array.isArray(answer) ? answer : (answer as { verdicts: CheckerVerdict[] }).verdicts) ?? [];
      s.probes.forEach((probe, k) => {
        const py = verdicts[k];
        const kind = (record.rubric.checks[k] as { kind?: string }).kind;
        if (py?.pass !== probe.pass)
          problems.push(
            `${s.name}: check #${k + 1} ${kind} is ${probe.pass ? 'pass' : 'fail'} in TypeScript and ${py?.pass ? 'pass' : 'fail'} in the shipped checker (${JSON.stringify(py?.observed).slice(0, 200)})`,
          );
        else if (!jsonEqual(py.observed, probe.observed))
          problems.push(
            `${s.name}: check #${k + 1} ${kind} observes ${JSON.stringify(probe.observed).slice(0, 160)} in TypeScript and ${JSON.stringify(py.observed).slice(0, 160)} in the shipped checker`,
          );
      });
      if (calls.checker) {
        const line = (answer as { line: string }).line;
        const passed = line === calls.checker.expected;
        if (passed !== (s.expect === 'pass'))
          problems.push(
            `${s.name}: the exported checker prints ${JSON.stringify(line.slice(0, 300))}, so OSWorld scores it ${passed ? 1 : 0} (expected ${s.expect === 'pass' ? 1 : 0})`,
          );
      }
      // A state that must pass must pass every metric of the conjunction the gate can run; a state
      // that must fail already fails the checker, which grades every check.
      if (s.expect === 'pass')
        for (const c of calls.commands) {
          const output = await runMetricCommand(c.command, homes[i]!);
          if (!metricPasses(c, output))
            problems.push(
              `${s.name}: OSWorld's ${c.func} on ${JSON.stringify(c.command.slice(0, 3))}… reads ${JSON.stringify(output.slice(0, 200))} and scores 0`,
            );
        }
    }
    if (problems.length === 0) return { ok: true, states: states.length };
    const more = problems.length > 8 ? `; and ${problems.length - 8} more` : '';
    return { ok: false, detail: problems.slice(0, 8).join('; ') + more };
  } finally {
    // A state may hold folders without write permission; retried, and never fatal to the verdict.
    await rm(work, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
  }
}

type Evaluator = { func?: unknown; result?: unknown; expected?: unknown };
type Getter = { type?: string; command?: unknown; shell?: unknown; rules?: Record<string, unknown> };
/** A metric over a command's output that the gate runs as OSWorld does (desktop_env general.py). */
interface CommandCall {
  func: 'exact_match' | 'check_include_exclude';
  command: string[];
  rules: Record<string, unknown>;
}

/** The programs of the exporter's own metric commands (preparers/os/osworld.ts). */
const METRIC_PROGRAMS = new Set(['find', 'stat', 'readlink', 'cat', 'python3', 'sh']);

/**
 * The evaluator's calls the gate can run: the checker (which must be the exporter's command, with
 * exact_match on its output) and metrics over other commands' output. Metrics over files (compare_
 * table, compare_docx_files, …) are OSWorld's own code and are graded by its package in a test.
 */
function evaluatorCalls(
  evaluator: Evaluator,
): { checker: { expected: string } | undefined; commands: CommandCall[] } | { problem: string } {
  const many = Array.isArray(evaluator.func);
  const funcs = (many ? evaluator.func : [evaluator.func]) as unknown[];
  const results = (many ? evaluator.result : [evaluator.result]) as Getter[];
  const expected = (many ? evaluator.expected : [evaluator.expected]) as Getter[];
  let checker: { expected: string } | undefined;
  const commands: CommandCall[] = [];
  for (const [i, getter] of results.entries()) {
    if (getter?.type !== 'vm_command_line') continue;
    const func = funcs[i];
    const rules = expected[i]?.rules ?? {};
    if (isDeepStrictEqual(getter.command, CHECKER_COMMAND)) {
      if (func !== 'exact_match' || typeof rules.expected !== 'string')
        return { problem: `the checker's output goes to ${String(func)} without an expected string` };
      checker = { expected: rules.expected };
      continue;
    }
    const problem = commandProblem(getter.command, getter.shell);
    const program = Array.isArray(getter.command) ? String(getter.command[0]) : '';
    if (problem !== null || !METRIC_PROGRAMS.has(program))
      return {
        problem: `its vm_command_line runs ${JSON.stringify(getter.command).slice(0, 200)}: ${problem ?? 'not a command the exporter writes'}`,
      };
    if (func !== 'exact_match' && func !== 'check_include_exclude')
      return { problem: `a command's output goes to ${String(func)}, which the gate cannot run` };
    commands.push({ func, command: getter.command as string[], rules });
  }
  return { checker, commands };
}

/**
 * A metric command's stdout as OSWorld's VM server returns it, run in the scratch home: VM paths
 * moved into it on the way in and back out of it in the output (readlink prints paths), text decoded
 * with universal newlines as the server's Python does.
 */
function runMetricCommand(command: string[], home: string): Promise<string> {
  const [program, ...args] = command;
  const moved = args.map((a) =>
    a === VM_HOME || a.startsWith(`${VM_HOME}/`) ? home + a.slice(VM_HOME.length) : a,
  );
  // The harness reads stdout whatever the exit status.
  return runProgram(program === 'python3' ? SYSTEM_PYTHON : program!, moved, {
    env: childEnv({ extra: { HOME: home } }),
    timeout: 30_000,
  })
    .catch((err: RunError) => {
      // A program that ran and failed printed what it printed; a run that never ended is retried.
      if (!err.stdout) throw err;
      return { stdout: err.stdout };
    })
    .then(({ stdout }) => stdout.toString('utf8').split(home).join(VM_HOME).replace(/\r\n?/g, '\n'));
}

/** OSWorld's exact_match and check_include_exclude (metrics/general.py), scored 1 or 0. */
function metricPasses(call: CommandCall, output: string): boolean {
  if (call.func === 'exact_match') return output === call.rules.expected;
  const include = (call.rules.include as string[] | undefined) ?? [];
  const exclude = (call.rules.exclude as string[] | undefined) ?? [];
  return include.every((w) => output.includes(w)) && exclude.every((w) => !output.includes(w));
}
