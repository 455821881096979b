import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { osworldExampleText } from '../../export/exportPack.ts';
import { type ConfigStep, playConfig } from '../../export/osworld/play.ts';
import { CHECKER_EVALUATOR, CHECKER_VM_DIR, toOsworldTask } from '../../export/osworld/task.ts';
import { VM_HOME } from '../../export/osworld/vm.ts';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { probeCheck } from '../../preparers/registry.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { materializeHome, SYSTEM_PATH } from '../support/checkerHome.ts';
import { packageOffline } from '../support/offlinePackage.ts';
import { offlineTask } from '../support/offlineTasks.ts';

const run = promisify(execFile);
const SAMPLE_PER_APP = 3;

type Getter = { type: string; command?: string[] };

let work: string;
before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'forge-harness-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * Runs the checker's vm_command_line getter exactly as the task JSON writes it, with HOME at the
 * scratch home (the metric getters name /home/user itself and are OSWorld's own business).
 */
async function evaluatorOutputs(evaluator: Record<string, unknown>, home: string): Promise<string[]> {
  const results = (Array.isArray(evaluator.result) ? evaluator.result : [evaluator.result]) as Getter[];
  const out: string[] = [];
  const ours = (g: Getter) =>
    g.type === 'vm_command_line' && (g.command ?? []).some((a) => a.includes(CHECKER_VM_DIR));
  for (const g of results.filter(ours)) {
    const [cmd, ...args] = g.command!;
    const { stdout } = await run(cmd!, args, { env: { ...process.env, HOME: home, PATH: SYSTEM_PATH } });
    out.push(stdout);
  }
  return out;
}

test('plays the harness: the exported evaluator command fails the initial state and passes the oracle state', async () => {
  const library = [...loadSkillLibrary().values()].map((l) => l.spec).sort((a, b) => (a.id < b.id ? -1 : 1));
  const groups = new Map<string, typeof library>();
  for (const spec of library) {
    const group = spec.apps.length > 1 ? 'multi' : spec.apps[0]!;
    groups.set(group, [...(groups.get(group) ?? []), spec]);
  }
  const root = path.join(work, 'osworld');
  const checker = checkerSource();
  const failedInitially = new Map<string, number>();
  const report: string[] = [];
  for (const [group, specs] of [...groups].sort()) {
    let sampled = 0;
    for (const spec of specs) {
      if (sampled === SAMPLE_PER_APP) break;
      const task = await offlineTask(spec);
      const { pkg, bytes } = await packageOffline(task);
      const ship = async (packPath: string, data: Uint8Array) => {
        await mkdir(path.dirname(path.join(root, packPath)), { recursive: true });
        await writeFile(path.join(root, packPath), data);
      };
      const packFile = (packPath: string) => {
        const file = path.join(root, packPath);
        return existsSync(file) ? readFileSync(file) : undefined;
      };
      const result = await toOsworldTask(pkg, {
        initialFile: async (key, vmPath) => {
          const packPath = `evaluation_examples/files/${pkg.id}/${vmPath}`;
          await ship(packPath, bytes.get(key)!);
          return { packPath };
        },
        goldFile: async (key, vmPath) => {
          await ship(`cache/${pkg.id}/gold/${vmPath}`, bytes.get(key)!);
          return { packPath: `gold/${vmPath}` };
        },
        checkerFiles: async (checks) => {
          await ship('evaluation_examples/files/cua-forge/forge_check.py', Buffer.from(checker.text));
          await ship(`evaluation_examples/files/${pkg.id}/cua-forge/checks.json`, checks);
          return {
            checker: { packPath: 'evaluation_examples/files/cua-forge/forge_check.py' },
            checks: { packPath: `evaluation_examples/files/${pkg.id}/cua-forge/checks.json` },
          };
        },
      });
      assert.ok(result.ok, `${spec.id}: ${JSON.stringify(result)}`);
      if (spec.expected === 'infeasible') {
        // OSWorld grades a task that cannot be done by the agent's FAIL answer, not by any check.
        assert.deepEqual(result.task.evaluator, { func: 'infeasible' }, spec.id);
        continue;
      }
      const graded = result.evaluators.flatMap((e, i) => (e.evaluator === CHECKER_EVALUATOR ? [i] : []));
      if (graded.length === 0) continue;
      sampled++;
      // The task JSON as the pack holds it (canonical: keys sorted) and the harness reads it.
      const json = JSON.parse(osworldExampleText(result.task)) as {
        config: ConfigStep[];
        evaluator: Record<string, unknown>;
      };

      const initialHome = path.join(work, `${pkg.id}-initial`);
      await mkdir(initialHome, { recursive: true });
      await playConfig(json.config, initialHome, packFile);
      // The checker grades every check of the rubric (the metric-mapped ones too).
      const probes = await Promise.all(task.checks.map((c) => probeCheck(task.initial, c)));
      const expectFail = probes.some((p) => !p.pass);
      const [initialOut] = await evaluatorOutputs(json.evaluator, initialHome);
      if (expectFail) {
        assert.match(initialOut ?? '', /^FAIL #\d+ [a-z]+\.[a-z_]+ /, `${spec.id} initial: ${initialOut}`);
        failedInitially.set(group, (failedInitially.get(group) ?? 0) + 1);
      } else assert.equal(initialOut, 'PASS', `${spec.id} initial (its checker checks pass the probes too)`);

      const oracleHome = path.join(work, `${pkg.id}-oracle`);
      await materializeHome(oracleHome, task.solved);
      const checkDir = `${VM_HOME}/${CHECKER_VM_DIR}`;
      await playConfig(json.config, oracleHome, packFile, (p) => p.startsWith(checkDir));
      const [oracleOut] = await evaluatorOutputs(json.evaluator, oracleHome);
      assert.equal(oracleOut, 'PASS', `${spec.id} oracle`);
      report.push(`${spec.id}: initial ${initialOut?.slice(0, 60)} / oracle ${oracleOut}`);
    }
    assert.ok(sampled > 0, `no ${group} task uses the checker`);
  }
  console.log(report.join('\n'));
  for (const group of groups.keys())
    assert.ok(failedInitially.get(group), `no sampled ${group} task fails its checker on the initial state`);
});
