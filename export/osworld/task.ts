import { canonicalJsonLine } from '../../infra/canonicalJson.ts';
import { resolveLinkTarget } from '../../preparers/paths.ts';
import { preparers } from '../../preparers/registry.ts';
import { APPS, type AppId, type AppStaging } from '../../preparers/types.ts';
import { checkpointsOf } from '../../taskpack/checkpoints.ts';
import { packageRevision } from '../../taskpack/revision.ts';
import {
  type OffGold,
  offGoldKey,
  type RubricCheck,
  type SetupStep,
  type TaskPackage,
} from '../../taskpack/taskPackage.ts';
import { type Getter, type GoldComparison, type MetricCall, mapCheck } from './metrics.ts';
import { baseName, vmAbsolute } from './vm.ts';

/** The OSWorld domain of each app, as its preparer declares it. */
export const DOMAIN_BY_APP = Object.fromEntries(
  APPS.map((app) => [app, preparers[app].staging.osworldDomain]),
) as Record<AppId, string>;

export function domainOf(apps: readonly AppId[]): string {
  const unique = [...new Set(apps)];
  return unique.length === 1 && unique[0] ? DOMAIN_BY_APP[unique[0]] : 'multi_apps';
}

/** How a file reaches the harness: a URL, or a path inside the pack (relative to the OSWorld root). */
export type FileLocator = { url: string } | { packPath: string };

export interface OsworldContext {
  /** Where an initial artifact is fetched from for the setup. */
  initialFile(key: string, vmPath: string): Promise<FileLocator>;
  /** Where the gold (oracle-solved) copy of a document is fetched from for the evaluator. */
  goldFile(key: string, vmPath: string): Promise<FileLocator>;
  /** Ships the portable checker and this task's checks file; where each is uploaded from. */
  checkerFiles(checksJson: Uint8Array): Promise<{ checker: FileLocator; checks: FileLocator }>;
}

/** What graded one rubric check: an OSWorld metric function, or the portable checker. */
export interface CheckEvaluator {
  kind: string;
  evaluator: string;
  /** Why no OSWorld metric grades it (checker checks only). */
  reason?: string;
}

export type OsworldResult =
  | { ok: true; domain: string; task: Record<string, unknown>; evaluators: CheckEvaluator[] }
  | { ok: false; unmapped: { checkKind: string; reason: string }[] };

/** The evaluator name the export report gives checks graded by the portable checker. */
export const CHECKER_EVALUATOR = 'forge_check';

/** Why a check whose gold comparison would fail a proven correct alternative is left to the checker. */
export const offGoldReason = (o: OffGold): string =>
  `${o.func} would fail the correct alternative "${o.right}", which reads differently from the gold copy of ${o.file}`;

/** Why a mappable check is left to the checker alone. */
export const GUARD_REASON =
  'the untouched state passes it too (it guards against collateral damage): an OSWorld metric over it would not see the change';

/** Where the checker and the task's checks land in the VM (home-relative), and the command that runs it. */
export const CHECKER_VM_DIR = '.cache/cua-forge/check';
export const CHECKER_COMMAND = [
  'sh',
  '-c',
  // $HOME, not /home/user: the same command grades a scratch home in tests; exec keeps one process.
  `exec python3 "$HOME/${CHECKER_VM_DIR}/forge_check.py" "$HOME/${CHECKER_VM_DIR}/checks.json"`,
];

/**
 * OSWorld's own evaluator for a task that cannot be done: it scores 1 exactly when the agent's last
 * action is FAIL. It takes no result getter, so the task's rubric checks (the report and the
 * "nothing changed" invariants) are all graded by it, and none reaches the portable checker.
 */
export const INFEASIBLE_EVALUATOR = 'infeasible';

/** The preparer of a check's app (its kind's prefix), if the kind names one. */
const stagingOf = (kind: string): AppStaging | undefined =>
  (preparers as Record<string, { staging: AppStaging } | undefined>)[kind.split('.')[0] ?? '']?.staging;

/**
 * Builds the OSWorld task JSON. Every check goes to the portable checker, which the config uploads
 * with the task's checks and the evaluator runs through `vm_command_line`, expecting `PASS`; a check
 * with a faithful OSWorld metric is graded by that metric as well. All calls are combined with
 * `conj: and`.
 */
export async function toOsworldTask(pkg: TaskPackage, ctx: OsworldContext): Promise<OsworldResult> {
  if (pkg.expected === 'infeasible') return infeasibleTask(pkg, ctx);
  const calls: MetricCall[] = [];
  const evaluators: CheckEvaluator[] = [];
  const checkerChecks: RubricCheck[] = [];
  const tables = new Map<string, { rules: Record<string, unknown>[]; needsGold: boolean }>();
  // Expectations on one file for one metric merge into one call, keyed by [func, file].
  const expectations = new Map<string, Record<string, { method: string; ref: unknown }>>();
  // Several checks on one document collapse into one call per metric and option set.
  const comparisons = new Map<string, GoldComparison>();
  const goldOf = (file: string) => pkg.artifacts.find((a) => a.role === 'solved' && a.vmPath === file);
  const toChecker = (check: RubricCheck, reason: string) => {
    evaluators.push({ kind: check.kind, evaluator: CHECKER_EVALUATOR, reason });
  };
  const guards = new Set(pkg.rubric.guards ?? []);
  // A comparison with gold that a proven correct alternative fails (taskpack offGold) is the checker's.
  const offGold = new Map((pkg.rubric.offGold ?? []).map((o) => [offGoldKey(o), o]));
  const offGoldOf = (file: string, func: string) => offGold.get(offGoldKey({ file, func }));
  for (const [i, check] of pkg.rubric.checks.entries()) {
    // The checker grades every check, the mapped ones too: OSWorld's metric then adds its own
    // verdict (conj "and"), and the task's proof (initial fails, oracle passes, wrong solutions
    // fail) holds for the shipped evaluator even where a metric alone would not see the change.
    checkerChecks.push(check);
    const m = mapCheck(check);
    if (!m.ok) toChecker(check, m.reason);
    // A metric over a check the untouched state passes would score the untouched state 1 too.
    else if (guards.has(i)) toChecker(check, GUARD_REASON);
    else if (m.shape === 'table') {
      const missing = m.rules.find((r) => r.needsGold && !goldOf(r.file));
      if (missing) {
        toChecker(check, `no oracle-solved copy of ${missing.file} to serve as gold`);
        continue;
      }
      const off = m.rules.flatMap((r) => (r.needsGold ? (offGoldOf(r.file, 'compare_table') ?? []) : []))[0];
      if (off) {
        toChecker(check, offGoldReason(off));
        continue;
      }
      for (const r of m.rules) {
        const t = tables.get(r.file) ?? { rules: [], needsGold: false };
        t.rules.push(r.rule);
        t.needsGold ||= r.needsGold;
        tables.set(r.file, t);
      }
      evaluators.push({ kind: check.kind, evaluator: 'compare_table' });
    } else if (m.shape === 'gold') {
      const missing = m.comparisons.find((c) => !goldOf(c.file));
      if (missing) {
        toChecker(check, `no oracle-solved copy of ${missing.file} to serve as gold`);
        continue;
      }
      const off = m.comparisons.flatMap((c) => offGoldOf(c.file, c.func) ?? [])[0];
      if (off) {
        toChecker(check, offGoldReason(off));
        continue;
      }
      // Sorted keys: two checks asking for the same options in another key order are one comparison.
      for (const c of m.comparisons) comparisons.set(canonicalJsonLine([c.file, c.func, c.options]), c);
      evaluators.push({
        kind: check.kind,
        evaluator: [...new Set(m.comparisons.map((c) => c.func))].join('+'),
      });
    } else if (m.shape === 'expect') {
      const key = JSON.stringify([m.expect.func, m.expect.file]);
      const expect = expectations.get(key) ?? {};
      expect[m.expect.name] = m.expect.rule;
      expectations.set(key, expect);
      evaluators.push({ kind: check.kind, evaluator: m.expect.func });
    } else {
      calls.push(m.call);
      evaluators.push({ kind: check.kind, evaluator: m.call.func });
    }
  }
  if (pkg.rubric.checks.length === 0)
    return { ok: false, unmapped: [{ checkKind: '-', reason: 'the rubric has no checks' }] };

  // Every document a check reads is saved first, whichever evaluator reads it.
  const postconfig: Record<string, unknown>[] = [];
  const documents = new Map<string, string>();
  for (const check of pkg.rubric.checks) {
    const window = stagingOf(check.kind)?.documentWindow;
    if (check.file && window && !documents.has(check.file)) documents.set(check.file, window);
  }
  for (const [file, window] of [...documents].sort(([a], [b]) => (a < b ? -1 : 1)))
    postconfig.push(...saveDocument(file, window));

  for (const [file, table] of [...tables].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const gold = goldOf(file);
    const call: MetricCall = {
      func: 'compare_table',
      result: { type: 'vm_file', path: vmAbsolute(file), dest: baseName(file) },
      options: { rules: table.rules },
    };
    if (gold) call.expected = goldGetter(await ctx.goldFile(gold.key, gold.vmPath), gold.vmPath);
    calls.push(call);
  }
  for (const [, c] of [...comparisons].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const gold = goldOf(c.file)!;
    calls.push({
      func: c.func,
      result: { type: 'vm_file', path: vmAbsolute(c.file), dest: baseName(c.file) },
      expected: goldGetter(await ctx.goldFile(gold.key, gold.vmPath), gold.vmPath),
      options: c.options,
    });
  }
  // An app that writes its state out on close (a mail client's prefs, filters, folders) is closed first.
  const closing = new Map<string, { windowName: string; byClass: boolean }>();
  for (const check of pkg.rubric.checks) {
    const close = stagingOf(check.kind)?.closeBeforeEvaluation;
    if (close) closing.set(close.windowName, close);
  }
  for (const close of closing.values()) {
    postconfig.push(
      {
        type: 'close_window',
        parameters: { window_name: close.windowName, strict: true, by_class: close.byClass },
      },
      { type: 'sleep', parameters: { seconds: 1 } },
    );
  }
  for (const [key, expect] of [...expectations].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [func, file] = JSON.parse(key) as [string, string];
    calls.push({
      func,
      result: { type: 'vm_file', path: vmAbsolute(file), dest: baseName(file) },
      expected: { type: 'rule', rules: { expect, unexpect: {} } },
    });
  }
  const config = await setupConfig(pkg, ctx);
  if (checkerChecks.length > 0) {
    const where = await ctx.checkerFiles(
      // The checkpoints ride along: the evaluator wants PASS (every checkpoint), `--score` gives the partial credit.
      new Uint8Array(
        Buffer.from(
          `${JSON.stringify({ checks: checkerChecks, checkpoints: checkpointsOf(pkg.rubric) })}\n`,
          'utf8',
        ),
      ),
    );
    const upload = (loc: FileLocator, name: string) => ({
      loc,
      path: vmAbsolute(`${CHECKER_VM_DIR}/${name}`),
    });
    const files = [upload(where.checker, 'forge_check.py'), upload(where.checks, 'checks.json')];
    config.push({ type: 'execute', parameters: { command: ['mkdir', '-p', vmAbsolute(CHECKER_VM_DIR)] } });
    const urls = files.filter((f) => 'url' in f.loc);
    const local = files.filter((f) => 'packPath' in f.loc);
    if (urls.length > 0)
      config.push({
        type: 'download',
        parameters: { files: urls.map((f) => ({ url: (f.loc as { url: string }).url, path: f.path })) },
      });
    if (local.length > 0)
      config.push({
        type: 'upload_file',
        parameters: {
          files: local.map((f) => ({ local_path: (f.loc as { packPath: string }).packPath, path: f.path })),
        },
      });
    calls.push({
      func: 'exact_match',
      result: { type: 'vm_command_line', command: CHECKER_COMMAND, shell: false },
      expected: { type: 'rule', rules: { expected: 'PASS' } },
    });
  }

  const evaluator: Record<string, unknown> =
    calls.length === 1 && calls[0]
      ? { ...calls[0] }
      : {
          func: calls.map((c) => c.func),
          result: calls.map((c) => c.result),
          // A call with no expected state still needs a getter in the list; `rules: null` hands the
          // metric None, its default (compare_table opens any non-None expected as a workbook and crashes on {}).
          expected: calls.map((c) => c.expected ?? { type: 'rule', rules: null }),
          options: calls.map((c) => c.options ?? {}),
          conj: 'and',
        };
  if (postconfig.length > 0) evaluator.postconfig = postconfig;
  return osworldTask(pkg, config, evaluator, evaluators);
}

function osworldTask(
  pkg: TaskPackage,
  config: Record<string, unknown>[],
  evaluator: Record<string, unknown>,
  evaluators: CheckEvaluator[],
): OsworldResult {
  const domain = domainOf(pkg.apps);
  return {
    ok: true,
    domain,
    evaluators,
    task: {
      id: pkg.id,
      // Which version of the task this is (OSWorld keeps extra fields): traces it to its package.
      revision: packageRevision(pkg),
      snapshot: domain,
      instruction: pkg.instruction,
      ...(pkg.instructionLevel ? { instruction_level: pkg.instructionLevel } : {}),
      // How many distinct features the task needs; like instruction_level, metadata the harness ignores.
      ...(pkg.depth ? { depth: pkg.depth } : {}),
      source: 'cua-forge',
      config,
      trajectory: 'trajectories/',
      related_apps: [...new Set(pkg.apps.map((a) => DOMAIN_BY_APP[a]))],
      evaluator,
      proxy: false,
      fixed_ip: false,
      possibility_of_env_change: 'low',
    },
  };
}

/** An infeasible task: the same setup, graded by OSWorld's `infeasible` evaluator (the agent answers FAIL). */
async function infeasibleTask(pkg: TaskPackage, ctx: OsworldContext): Promise<OsworldResult> {
  if (pkg.rubric.checks.length === 0)
    return { ok: false, unmapped: [{ checkKind: '-', reason: 'the rubric has no checks' }] };
  const reason = 'the task is infeasible: OSWorld grades it by the agent answering FAIL';
  const evaluators = pkg.rubric.checks.map((c) => ({
    kind: c.kind,
    evaluator: INFEASIBLE_EVALUATOR,
    reason,
  }));
  return osworldTask(pkg, await setupConfig(pkg, ctx), { func: INFEASIBLE_EVALUATOR }, evaluators);
}

function goldGetter(where: FileLocator, vmPath: string): Getter {
  const dest = `gold_${baseName(vmPath)}`;
  // cache_file paths are relative to OSWorld's per-task cache dir (cache/<task id>/).
  return 'url' in where
    ? { type: 'cloud_file', path: where.url, dest }
    : { type: 'cache_file', path: where.packPath };
}

/** OSWorld's document save: focus the window, ctrl+s, keep the format (Enter), wait. */
function saveDocument(file: string, windowSuffix: string): Record<string, unknown>[] {
  const save =
    "import pyautogui; import time; pyautogui.hotkey('ctrl', 's'); time.sleep(0.5); pyautogui.press('enter');";
  return [
    {
      type: 'activate_window',
      parameters: { window_name: `${baseName(file)} - ${windowSuffix}`, strict: true },
    },
    { type: 'sleep', parameters: { seconds: 0.5 } },
    { type: 'execute', parameters: { command: ['python', '-c', save] } },
    { type: 'sleep', parameters: { seconds: 1.5 } },
  ];
}

async function setupConfig(pkg: TaskPackage, ctx: OsworldContext): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const step of pkg.setup) out.push(...(await setupStep(step, ctx)));
  return out;
}

export async function setupStep(step: SetupStep, ctx: OsworldContext): Promise<Record<string, unknown>[]> {
  switch (step.type) {
    case 'download': {
      const dirs = [
        ...new Set(step.files.map((f) => f.vmPath.split('/').slice(0, -1).join('/')).filter(Boolean)),
      ];
      const mkdirs = dirs.length
        ? [{ type: 'execute', parameters: { command: ['mkdir', '-p', ...dirs.sort().map(vmAbsolute)] } }]
        : [];
      const urls: { url: string; path: string }[] = [];
      const local: { local_path: string; path: string }[] = [];
      for (const f of step.files) {
        const where = await ctx.initialFile(f.artifactKey, f.vmPath);
        if ('url' in where) urls.push({ url: where.url, path: vmAbsolute(f.vmPath) });
        else local.push({ local_path: where.packPath, path: vmAbsolute(f.vmPath) });
      }
      return [
        ...mkdirs,
        ...(urls.length ? [{ type: 'download', parameters: { files: urls } }] : []),
        ...(local.length ? [{ type: 'upload_file', parameters: { files: local } }] : []),
      ];
    }
    case 'extract':
      return [
        {
          type: 'execute',
          parameters: {
            command: [
              'tar',
              '-xz',
              '--recursive-unlink',
              '-f',
              vmAbsolute(step.archiveVmPath),
              '-C',
              '/home/user/',
            ],
          },
        },
      ];
    case 'mkdir':
      return [{ type: 'execute', parameters: { command: ['mkdir', '-p', vmAbsolute(step.vmPath)] } }];
    case 'chmod':
      return [{ type: 'execute', parameters: { command: ['chmod', step.mode, vmAbsolute(step.vmPath)] } }];
    case 'symlink': {
      // Absolute paths for the pack rules (no `..` arguments); -r makes the link relative again.
      const target = resolveLinkTarget(step.vmPath, step.target);
      if (target === undefined)
        throw new Error(`symlink ${step.vmPath}: its target leaves the home directory`);
      return [
        {
          type: 'execute',
          parameters: { command: ['ln', '-sfnr', '--', vmAbsolute(target), vmAbsolute(step.vmPath)] },
        },
      ];
    }
    case 'open':
      return [{ type: 'open', parameters: { path: vmAbsolute(step.vmPath) } }];
    case 'launch':
      return [{ type: 'launch', parameters: { command: step.command } }];
    case 'execute':
      return [{ type: 'execute', parameters: { command: step.command } }];
    case 'sleep':
      return [{ type: 'sleep', parameters: { seconds: step.seconds } }];
  }
}
