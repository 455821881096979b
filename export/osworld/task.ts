import type { SetupStep, TaskPackage } from '../../taskpack/taskPackage.ts';
import { type Getter, type GoldComparison, type MetricCall, mapCheck } from './metrics.ts';
import { baseName, vmAbsolute } from './vm.ts';

export const DOMAIN_BY_APP = {
  calc: 'libreoffice_calc',
  writer: 'libreoffice_writer',
  impress: 'libreoffice_impress',
  thunderbird: 'thunderbird',
  os: 'os',
} as const;

export function domainOf(apps: readonly (keyof typeof DOMAIN_BY_APP)[]): string {
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
}

export type OsworldResult =
  | { ok: true; domain: string; task: Record<string, unknown> }
  | { ok: false; unmapped: { checkKind: string; reason: string }[] };

const WINDOW_SUFFIX: Record<string, string> = {
  calc: 'LibreOffice Calc',
  writer: 'LibreOffice Writer',
  impress: 'LibreOffice Impress',
};

/** Builds the OSWorld task JSON, or lists every check without a faithful OSWorld metric. */
export async function toOsworldTask(pkg: TaskPackage, ctx: OsworldContext): Promise<OsworldResult> {
  const calls: MetricCall[] = [];
  const unmapped: { checkKind: string; reason: string }[] = [];
  const tables = new Map<string, { rules: Record<string, unknown>[]; needsGold: boolean }>();
  const prefs = new Map<string, Record<string, { method: string; ref: unknown }>>();
  // Several checks on one document collapse into one call per metric and option set.
  const comparisons = new Map<string, GoldComparison>();
  for (const check of pkg.rubric.checks) {
    const m = mapCheck(check);
    if (!m.ok) unmapped.push({ checkKind: check.kind, reason: m.reason });
    else if (m.app === 'calc') {
      for (const r of m.rules) {
        const t = tables.get(r.file) ?? { rules: [], needsGold: false };
        t.rules.push(r.rule);
        t.needsGold ||= r.needsGold;
        tables.set(r.file, t);
      }
    } else if (m.app === 'gold') {
      for (const c of m.comparisons) comparisons.set(JSON.stringify([c.file, c.func, c.options]), c);
    } else if (m.app === 'thunderbird') {
      const expect = prefs.get(m.prefs.profile) ?? {};
      expect[m.prefs.name] = { method: 'eq', ref: m.prefs.value };
      prefs.set(m.prefs.profile, expect);
    } else calls.push(m.call);
  }
  const postconfig: Record<string, unknown>[] = [];
  for (const [file, table] of [...tables].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const gold = pkg.artifacts.find((a) => a.role === 'solved' && a.vmPath === file);
    if (table.needsGold && !gold) {
      unmapped.push({ checkKind: 'calc.*', reason: `no oracle-solved copy of ${file} to serve as gold` });
      continue;
    }
    const call: MetricCall = {
      func: 'compare_table',
      result: { type: 'vm_file', path: vmAbsolute(file), dest: baseName(file) },
      options: { rules: table.rules },
    };
    if (gold) call.expected = goldGetter(await ctx.goldFile(gold.key, gold.vmPath), gold.vmPath);
    calls.push(call);
    postconfig.push(...saveDocument(file, 'calc'));
  }
  const saved = new Set<string>();
  for (const [, c] of [...comparisons].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const gold = pkg.artifacts.find((a) => a.role === 'solved' && a.vmPath === c.file);
    if (!gold) {
      unmapped.push({
        checkKind: `${c.app}.*`,
        reason: `no oracle-solved copy of ${c.file} to serve as gold`,
      });
      continue;
    }
    calls.push({
      func: c.func,
      result: { type: 'vm_file', path: vmAbsolute(c.file), dest: baseName(c.file) },
      expected: goldGetter(await ctx.goldFile(gold.key, gold.vmPath), gold.vmPath),
      options: c.options,
    });
    if (!saved.has(c.file)) postconfig.push(...saveDocument(c.file, c.app));
    saved.add(c.file);
  }
  if (prefs.size > 0) {
    postconfig.push(
      { type: 'close_window', parameters: { window_name: 'Mail.thunderbird', strict: true, by_class: true } },
      { type: 'sleep', parameters: { seconds: 1 } },
    );
  }
  for (const [profile, expect] of [...prefs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    calls.push({
      func: 'check_thunderbird_prefs',
      result: { type: 'vm_file', path: vmAbsolute(`${profile}/prefs.js`), dest: 'prefs.js' },
      expected: { type: 'rule', rules: { expect, unexpect: {} } },
    });
  }
  if (unmapped.length > 0) return { ok: false, unmapped };
  if (calls.length === 0)
    return { ok: false, unmapped: [{ checkKind: '-', reason: 'the rubric has no checks' }] };

  const domain = domainOf(pkg.apps);
  const evaluator: Record<string, unknown> =
    calls.length === 1 && calls[0]
      ? { ...calls[0] }
      : {
          func: calls.map((c) => c.func),
          result: calls.map((c) => c.result),
          expected: calls.map((c) => c.expected ?? { type: 'rule', rules: {} }),
          options: calls.map((c) => c.options ?? {}),
          conj: 'and',
        };
  if (postconfig.length > 0) evaluator.postconfig = postconfig;
  return {
    ok: true,
    domain,
    task: {
      id: pkg.id,
      snapshot: domain,
      instruction: pkg.instruction,
      ...(pkg.instructionLevel ? { instruction_level: pkg.instructionLevel } : {}),
      source: 'cua-forge',
      config: await setupConfig(pkg, ctx),
      trajectory: 'trajectories/',
      related_apps: [...new Set(pkg.apps.map((a) => DOMAIN_BY_APP[a]))],
      evaluator,
      proxy: false,
      fixed_ip: false,
      possibility_of_env_change: 'low',
    },
  };
}

function goldGetter(where: FileLocator, vmPath: string): Getter {
  const dest = `gold_${baseName(vmPath)}`;
  // cache_file paths are relative to OSWorld's per-task cache dir (cache/<task id>/).
  return 'url' in where
    ? { type: 'cloud_file', path: where.url, dest }
    : { type: 'cache_file', path: where.packPath };
}

/** OSWorld's document save: focus the window, ctrl+s, keep the format (Enter), wait. */
function saveDocument(file: string, app: string): Record<string, unknown>[] {
  const save =
    "import pyautogui; import time; pyautogui.hotkey('ctrl', 's'); time.sleep(0.5); pyautogui.press('enter');";
  return [
    {
      type: 'activate_window',
      parameters: { window_name: `${baseName(file)} - ${WINDOW_SUFFIX[app]}`, strict: true },
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

async function setupStep(step: SetupStep, ctx: OsworldContext): Promise<Record<string, unknown>[]> {
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
