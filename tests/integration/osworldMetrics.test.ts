import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { VM_HOME } from '../../export/osworld/vm.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import {
  closeOffice,
  officeFormatOf,
  ResidentOffice,
  residentOptions,
  roundTripOfficeSettled,
} from '../../preparers/office/index.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { madeInLibreOffice } from '../support/madeInLibreOffice.ts';
import { packageOffline } from '../support/offlinePackage.ts';
import { type OfflineTask, offlineTask } from '../support/offlineTasks.ts';
import {
  exportToPack,
  type MetricJob,
  type MetricScore,
  osworldPython,
  scoreMetrics,
} from '../support/osworldMetrics.ts';

const STATES = ['initial', 'gold', 'resaved gold', 'gold made in LibreOffice'] as const;

/** Whether any call of the evaluator reads a file (not only command output, which the gate grades). */
function readsFiles(evaluator: Record<string, unknown>): boolean {
  const results = (Array.isArray(evaluator.result) ? evaluator.result : [evaluator.result]) as {
    type: string;
  }[];
  return results.some((g) => g.type !== 'vm_command_line');
}

/**
 * OSWorld's own metric functions (desktop-env from PyPI, in a venv the bootstrap makes) on a
 * whole-library export: for one task of every skill, every metric call of the exported evaluator
 * except the checker's and the OS commands' vm_command_line calls (the export gate plays those) is
 * scored on the initial state, the gold (oracle) state, the gold as LibreOffice saves it again, and
 * the gold made by LibreOffice itself (the oracle's edits driven over UNO, as a person works).
 * The three golds and every correct alternative of the task (its package names the gold comparisons an
 * alternative would fail, and the export leaves those to the checker) must score 1 on every call
 * (else OSWorld fails a correct agent), and no call may
 * score 1 on the initial state (the exporter leaves checks that hold initially to the checker).
 */
const resident = new ResidentOffice(residentOptions({ processes: 1 }));

describe("OSWorld's own metrics score the exported evaluators", () => {
  let work: string;
  let python: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'forge-osworld-metrics-'));
    python = osworldPython();
  });
  after(async () => {
    await closeOffice();
    await resident.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('every skill: initial scores 0; gold, LibreOffice-resaved gold, gold made in LibreOffice and every correct alternative score 1 on every metric call', async () => {
    const packRoot = path.join(work, 'pack');
    const tasks: {
      task: OfflineTask;
      id: string;
      evaluator: Record<string, unknown>;
      /** Per rubric check, the evaluator(s) grading it (`a+b` when several). */
      graders: string[];
      /** The task's correct alternatives: the export left the gold comparisons they fail to the checker. */
      rights: { name: string; files: FileMap }[];
    }[] = [];
    let infeasible = 0;
    let checkerOnly = 0;
    for (const { spec } of [...loadSkillLibrary().values()].sort((a, b) =>
      a.spec.id < b.spec.id ? -1 : 1,
    )) {
      const task = await offlineTask(spec);
      const { pkg, bytes, rights } = await packageOffline(task);
      const result = await exportToPack(pkg, bytes, packRoot);
      assert.ok(result.ok, `${spec.id}: ${JSON.stringify(result)}`);
      const evaluator = JSON.parse(JSON.stringify(result.task.evaluator)) as Record<string, unknown>;
      if (evaluator.func === 'infeasible') infeasible++;
      else if (!readsFiles(evaluator)) checkerOnly++;
      else
        tasks.push({
          task,
          id: pkg.id,
          evaluator,
          graders: result.evaluators.map((e) => e.evaluator),
          rights,
        });
    }

    // One LibreOffice batch for every office file of every gold state.
    const office = tasks.flatMap(({ task }, i) =>
      Object.entries(task.solved).flatMap(([file, bytes]) => {
        const format = officeFormatOf(file);
        return format ? [{ task: i, file, office: { name: `${task.skillId}:${file}`, bytes, format } }] : [];
      }),
    );
    const saved = await roundTripOfficeSettled(office.map((o) => o.office));
    const resaved: FileMap[] = tasks.map(({ task }) => ({ ...task.solved }));
    for (const [j, o] of office.entries()) {
      const r = saved[j]!;
      assert.ok(r.ok, `LibreOffice could not save ${o.office.name}: ${r.ok ? '' : r.error}`);
      resaved[o.task]![o.file] = r.bytes;
    }

    // The oracle's edits made by LibreOffice itself (tests/support/madeInLibreOffice.ts).
    const made: FileMap[] = [];
    for (const { task } of tasks)
      made.push((await madeInLibreOffice(task.skillId, task.initial, task.edits as never, resident)).files);

    const jobs: MetricJob[] = [];
    for (const [i, { task, id, evaluator }] of tasks.entries()) {
      for (const [s, files] of [task.initial, task.solved, resaved[i]!, made[i]!].entries()) {
        const home = path.join(work, `home-${i}-${s}`);
        await materializeHome(home, files);
        jobs.push({ evaluator, home, cache: path.join(packRoot, 'cache', id), cloud: {} });
      }
    }
    // Every correct alternative after the four states, in task order.
    const rightJobs: { task: number; name: string }[] = [];
    for (const [i, { id, evaluator, rights }] of tasks.entries())
      for (const [r, right] of rights.entries()) {
        const home = path.join(work, `home-${i}-right-${r}`);
        await materializeHome(home, right.files);
        jobs.push({ evaluator, home, cache: path.join(packRoot, 'cache', id), cloud: {} });
        rightJobs.push({ task: i, name: right.name });
      }
    const scores = await scoreMetrics(python, path.join(work, 'jobs.json'), jobs);
    const rightScores = scores.slice(tasks.length * STATES.length);

    const failures: string[] = [];
    // A call scoring 1 on the untouched state: where one of the checks it grades fails there, the
    // metric misses the change the check sees (a wrong mapping); where all of them already hold
    // (guards such as "the title is still there"), no metric over those checks could see it.
    const blind: string[] = [];
    const guardsOnly: string[] = [];
    let scored = 0;
    let skipped = 0;
    const skills = new Set<string>();
    for (const [i, { task, evaluator, graders }] of tasks.entries()) {
      const [initial, gold, resavedGold, madeGold] = [0, 1, 2, 3].map((s) => scores[i * STATES.length + s]!);
      const getters = (Array.isArray(evaluator.result) ? evaluator.result : [evaluator.result]) as {
        path?: string;
      }[];
      const initialProbes = await Promise.all(task.checks.map((c) => probeCheck(task.initial, c)));
      for (const [k, call] of initial!.entries()) {
        if ('skipped' in call) {
          skipped++;
          continue;
        }
        scored++;
        skills.add(task.skillId);
        const at = `${task.skillId} #${k + 1} ${call.func}`;
        const show = (c: MetricScore | undefined) => (c && 'score' in c ? `${c.score}` : JSON.stringify(c));
        for (const [label, c] of [
          [STATES[1], gold![k]],
          [STATES[2], resavedGold![k]],
          [STATES[3], madeGold![k]],
        ] as const)
          if (!(c && 'score' in c && c.score === 1)) failures.push(`${at} on the ${label}: ${show(c)}`);
        if ('score' in call && call.score === 1) {
          // The checks this call grades: those mapped to its metric on the file its getter reads.
          const graded = task.checks.flatMap((c, j) => {
            const file = (c as { file?: string }).file;
            const reads = file !== undefined && getters[k]?.path?.startsWith(`${VM_HOME}/${file}`);
            return reads && graders[j]!.split('+').includes(call.func) ? [j] : [];
          });
          assert.ok(graded.length > 0, `${at}: no check maps to it`);
          const failing = graded.filter((j) => !initialProbes[j]!.pass);
          if (failing.length > 0)
            blind.push(`${at} (misses ${failing.map((j) => task.checks[j]!.kind).join(', ')})`);
          else guardsOnly.push(`${at} (grades only ${graded.map((j) => task.checks[j]!.kind).join(', ')})`);
        }
      }
    }
    // A correct alternative scores 1 on every call: where it would not, the package names the
    // comparison (rubric.offGold) and the export leaves it to the checker.
    const rightFailures = rightJobs.flatMap(({ task, name }, j) =>
      rightScores[j]!.flatMap((c, k) =>
        'skipped' in c || ('score' in c && c.score === 1)
          ? []
          : [
              `${tasks[task]!.task.skillId} #${k + 1} ${c.func} fails the correct alternative "${name}": ${JSON.stringify(c)}`,
            ],
      ),
    );
    console.log(`${rightJobs.length} correct alternatives scored, ${rightFailures.length} calls failing one`);
    if (rightFailures.length) console.log(rightFailures.join('\n'));
    console.log(
      `${tasks.length} tasks with OSWorld metric calls (${skills.size} skills), ${scored} calls scored ×${STATES.length} states, ` +
        `${skipped} vm_command_line calls not scored; ${infeasible} infeasible and ${checkerOnly} checker-only tasks; ` +
        `${failures.length} failures on gold or resaved gold; ${blind.length + guardsOnly.length} calls score 1 on the initial state ` +
        `(${blind.length} blind to a change a check sees, ${guardsOnly.length} grading only checks that already hold)`,
    );
    for (const [title, lines] of [
      ['failures', failures],
      ['blind', blind],
      ['guards only', guardsOnly],
    ] as const)
      if (lines.length) console.log(`${title}:\n${lines.join('\n')}`);
    assert.ok(scored > 0, 'no metric call was scored');
    assert.deepEqual(failures, [], `${failures.length} metric calls fail a correct state`);
    assert.ok(rightJobs.length > 0, 'no correct alternative was scored');
    assert.deepEqual(rightFailures, [], `${rightFailures.length} metric calls fail a correct alternative`);
    assert.deepEqual(blind, [], `${blind.length} metric calls score 1 on the untouched state`);
    // The exporter leaves checks the untouched state passes to the checker (rubric.guards).
    assert.deepEqual(guardsOnly, [], `${guardsOnly.length} metric calls grade only guards`);
  });
});
