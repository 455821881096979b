import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleDir, bundleFormat } from '../../export/bundle/format.ts';
import type { FormatReport } from '../../export/format.ts';
import { osworldPackContext, packPaths } from '../../export/osworld/packContext.ts';
import { toOsworldTask } from '../../export/osworld/task.ts';
import { openSink } from '../../export/sink.ts';
import { SYSTEM_PYTHON } from '../../preparers/checker/runner.ts';
import { OS_MANIFEST_PATH } from '../../preparers/home/manifest.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import { applyEdits, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { type Context, render, scopeContext } from '../../skills/template.ts';
import { packageFor } from '../../taskcore/packageTask.ts';
import { type PreparedTask, prepareInMemory } from '../../taskcore/prepareCore.ts';
import { type Checkpoint, checkpointsOf, scoreCheckpoints } from '../../taskpack/checkpoints.ts';
import { parseTaskPackage, type TaskPackage } from '../../taskpack/taskPackage.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Partial credit on real composites made offline — a three-step one (rename a sheet in Calc,
 * retitle its slide in Impress, draft a mail in Thunderbird) and a six-step workflow over five
 * applications: the oracle scores 1, the untouched state 0 on every checkpoint the task changes,
 * and the oracle's first k steps (every k) score exactly the checkpoints of those steps — in the
 * TypeScript probes, in the checker an OSWorld pack ships (`--score`), and in a bundle's check.sh
 * after its setup.sh laid the task into a scratch home, all run for real.
 */
const CASES = [
  {
    id: 'composite.calc-impress-thunderbird.rename-sheet-slide-mail',
    /** The composite's own items, by the step whose work they check (the slide's title, the mail). */
    handoff: [2, 3],
  },
  // The slide's title (deck), the plan's header (plan), the mail filter (mail).
  { id: 'composite.writer-calc-impress-os-thunderbird.codename-rollout', handoff: [3, 5, 6] },
];

const library = loadSkillLibrary();
const work = await mkdtemp(path.join(tmpdir(), 'forge-partial-'));
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<string>((resolve, reject) =>
    execFile(cmd, args, { env: { ...process.env, ...env }, timeout: 120_000 }, (err, out, errOut) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${errOut}`)) : resolve(out),
    ),
  );

interface Fixture {
  p: Extract<PreparedTask, { ok: true }>;
  pkg: TaskPackage;
  checkpoints: Checkpoint[];
  /** Each checkpoint's step (1..n); undefined for guards, which every state here passes. */
  stepOf: (number | undefined)[];
  /** The oracle's first k steps applied, for every k from 0 (untouched) to n (the oracle). */
  states: { name: string; steps: number; files: FileMap }[];
  steps: number;
  /** The pack files the OSWorld exporter writes for the task, by pack path. */
  osworldPack: Map<string, Uint8Array>;
  /** The task's folder in a bundle written by the bundle format. */
  bundle: string;
}

async function fixture(id: string, handoff: number[]): Promise<Fixture> {
  const spec = library.get(id)?.spec;
  assert.ok(spec, `${id} is in the library`);
  let prepared: PreparedTask | undefined;
  let ctx: Context | undefined;
  for (let seed = 1; seed < 6 && !prepared?.ok; seed++) {
    const a = await authorTask(spec, seed, offlineCaller, {
      level: 'explicit',
      roundId: 'partial',
      taskIndex: 0,
    });
    if (!a.ok) continue;
    ctx = a.context;
    prepared = await prepareInMemory(spec, 'file', a.context);
  }
  assert.ok(prepared?.ok && ctx, `no accepted ${id} task in 5 seeds`);
  const p = prepared;
  const { built } = packageFor({
    task: { taskId: randomUUID(), taskSeed: 1 },
    version: 1,
    spec,
    state: p.draft.state,
    ctx: p.draft.ctx,
    manifest: p.draft.state.osManifest ?? { version: 1, entries: [] },
    provenance: {
      roundId: 'partial',
      taxonomyVersion: null,
      specSha: '0'.repeat(64),
      models: ['offline'],
      costUsd: 0,
      tokens: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  });
  const pkg = parseTaskPackage(built.taskJsonText, `the ${id} package`);
  const checkpoints = checkpointsOf(pkg.rubric);

  // The steps in order (the expanded spec's step nodes) and the oracle's edits of each (its solve
  // nodes render in the step's scope, in step order: the oracle is their concatenation).
  const stepNodes = spec.nodes.flatMap((n) => ('step' in n ? [{ as: n.id, skill: n.step.skill }] : []));
  const editsOf = new Map<string, number>();
  for (const n of spec.nodes)
    if ('solve' in n && 'scope' in n && n.scope !== undefined) {
      const rendered = (await render(n.solve, scopeContext(ctx, n.scope))) as unknown[];
      editsOf.set(n.scope, (editsOf.get(n.scope) ?? 0) + rendered.length);
    }
  const bounds = [0];
  for (const s of stepNodes) bounds.push(bounds.at(-1)! + (editsOf.get(s.as) ?? 0));
  assert.equal(bounds.at(-1), p.m.edits.length, 'the oracle is the steps’ edits, nothing else');

  // Which step each item checks: the steps' items first, in step order (an item that only promised
  // "nothing else changed" is gone when a step turns invariants off), then the composite's own.
  const off = spec.rubric.invariants?.off !== undefined;
  const itemStep = [
    ...stepNodes.flatMap((s, k) => {
      const items = library.get(s.skill)?.spec.rubric.items ?? [];
      const kept = off ? items.filter((it) => it.checks.some((c) => c !== 'invariants')) : items;
      return kept.map(() => k + 1);
    }),
    ...handoff,
  ];
  const stepOf = checkpoints.map((cp, i) => (cp.guard ? undefined : itemStep[i]));
  assert.ok(
    stepOf.every((s, i) => checkpoints[i]!.guard || s !== undefined),
    `every progress checkpoint belongs to a step: ${JSON.stringify(stepOf)}`,
  );

  const states: Fixture['states'] = [];
  for (let k = 0; k <= stepNodes.length; k++) {
    const files =
      k === 0
        ? p.initial
        : k === stepNodes.length
          ? p.solved
          : await applyEdits(p.initial, p.m.edits.slice(0, bounds[k]));
    const name = k === 0 ? 'untouched' : k === stepNodes.length ? 'oracle' : `first ${k} steps`;
    states.push({ name, steps: k, files });
  }

  const osworldPack = new Map<string, Uint8Array>();
  const rendered = await toOsworldTask(
    pkg,
    osworldPackContext(pkg, {
      artifact: async (key, _sha, packPath) => {
        osworldPack.set(packPath, p.draft.bytes.get(key)!);
        return { packPath };
      },
      file: async (packPath, b) => void osworldPack.set(packPath, b),
    }),
  );
  assert.ok(rendered.ok);

  // The bundle, as `forge export --format bundle` writes it.
  const root = path.join(work, `bundle-${pkg.id}`);
  const sink = await openSink(root);
  const report: FormatReport = { excluded: [] };
  const writer = await bundleFormat.open(
    {
      sink,
      ship: async (packPath, key) => sink.addFile(packPath, p.draft.bytes.get(key)!),
      file: (packPath, bytes) => sink.addFile(packPath, bytes),
      url: async () => assert.fail('a bundle ships its files'),
      bucket: 'unused',
      files: 'ship',
      out: root,
    },
    report,
  );
  assert.equal(await writer.add(pkg), true);
  await writer.finish();
  await sink.finish();
  return {
    p,
    pkg,
    checkpoints,
    stepOf,
    states,
    steps: stepNodes.length,
    osworldPack,
    bundle: path.join(root, bundleDir(pkg.id)),
  };
}

/** What the state with the oracle's first `steps` steps must score, checkpoint by checkpoint. */
function expected(f: Fixture, steps: number) {
  const passes = f.checkpoints.map((_, i) => f.stepOf[i] === undefined || f.stepOf[i]! <= steps);
  const progress = f.checkpoints.flatMap((cp, i) => (cp.guard ? [] : [{ w: cp.weight, pass: passes[i]! }]));
  const total = progress.reduce((s, x) => s + x.w, 0);
  const earned = progress.reduce((s, x) => s + (x.pass ? x.w : 0), 0);
  return { passes, score: Math.floor((earned / total) * 1e6 + 0.5) / 1e6 };
}

for (const c of CASES) {
  describe(c.id, () => {
    let f: Fixture;
    before(async () => {
      f = await fixture(c.id, c.handoff);
    });

    test('the checkpoints are the rubric items, weighted, with the guards marked', () => {
      const { checkpoints, pkg } = f;
      assert.equal(checkpoints.length, pkg.rubric.items.length, 'one checkpoint per item');
      assert.ok(
        checkpoints.some((cp) => cp.weight === 2),
        'an item of weight 2 keeps it',
      );
      assert.equal(
        new Set(checkpoints.map((cp) => cp.name)).size,
        checkpoints.length,
        'names are unique keys',
      );
      // Every check is in some checkpoint, so a score of 1 is the binary PASS.
      assert.deepEqual(
        [...new Set(checkpoints.flatMap((cp) => cp.checks))].sort((a, b) => a - b),
        [...pkg.rubric.checks.keys()],
      );
      for (let s = 1; s <= f.steps; s++)
        assert.ok(f.stepOf.includes(s), `step ${s} has a checkpoint of its own`);
    });

    test('TypeScript probes: oracle 1, untouched 0 on every changed checkpoint, k steps score their checkpoints', async (t) => {
      const scores: number[] = [];
      for (const s of f.states) {
        const verdicts = await Promise.all(f.pkg.rubric.checks.map((check) => probeCheck(s.files, check)));
        const scored = scoreCheckpoints(
          f.checkpoints,
          verdicts.map((v) => v.pass),
        );
        const want = expected(f, s.steps);
        assert.deepEqual(
          scored.checkpoints.map((cp) => cp.pass),
          want.passes,
          `${s.name}: ${JSON.stringify(scored.checkpoints)}`,
        );
        assert.equal(scored.score, want.score, s.name);
        scores.push(scored.score);
        t.diagnostic(
          `${s.name} (${s.steps} of ${f.steps}): score ${scored.score}, ${scored.passed}/${scored.total} checkpoints`,
        );
      }
      assert.equal(scores[0], 0);
      assert.equal(scores.at(-1), 1);
      for (let k = 1; k < scores.length; k++) assert.ok(scores[k]! > scores[k - 1]!, `step ${k} adds credit`);
    });

    test("the OSWorld pack's checker: --score gives the same partial credit, the evaluator's line stays binary", async () => {
      const checker = path.join(work, `${f.pkg.id}-forge_check.py`);
      const checks = path.join(work, `${f.pkg.id}-checks.json`);
      await writeFile(checker, f.osworldPack.get(packPaths.checker)!);
      await writeFile(checks, f.osworldPack.get(packPaths.checks(f.pkg.id))!);
      for (const s of f.states) {
        const home = path.join(work, `osworld-home-${f.pkg.id}-${s.steps}`);
        await materializeHome(home, s.files);
        const scored = JSON.parse(await run(SYSTEM_PYTHON, [checker, checks, '--home', home, '--score']));
        const want = expected(f, s.steps);
        assert.deepEqual(
          scored.checkpoints.map((cp: { pass: boolean }) => cp.pass),
          want.passes,
          `${s.name}: ${JSON.stringify(scored)}`,
        );
        assert.deepEqual(
          scored.checkpoints.map((cp: { name: string }) => cp.name),
          f.checkpoints.map((cp) => cp.name),
        );
        assert.equal(scored.score, want.score, s.name);
        assert.deepEqual(scored.errors, []);
        // What OSWorld's exact_match reads: PASS only when every checkpoint passes.
        const line = await run(SYSTEM_PYTHON, [checker, checks, '--home', home]);
        assert.equal(line === 'PASS', s.steps === f.steps, `${s.name}: ${line.slice(0, 200)}`);
      }
    });

    test("a bundle's setup.sh lays the task into a scratch home and its check.sh scores it with partial credit", async () => {
      const dir = f.bundle;
      for (const file of ['instruction.md', 'setup.sh', 'check.sh', 'checks.json', 'forge_check.py'])
        await readFile(path.join(dir, file));
      assert.equal(await readFile(path.join(dir, 'instruction.md'), 'utf8'), `${f.pkg.instruction}\n`);
      const check = async (home: string) =>
        JSON.parse(await run('bash', [path.join(dir, 'check.sh'), home])) as {
          overall_score: number;
          subscores: Record<string, number>;
          errors: string[];
        };
      const subscores = (passes: boolean[]) =>
        Object.fromEntries(f.checkpoints.map((cp, i) => [cp.name, passes[i] ? 1 : 0]));

      for (const s of f.states) {
        // setup.sh lays the untouched task (the home given as an argument, not $HOME) ...
        const home = path.join(work, `bundle-home-${f.pkg.id}-${s.steps}`);
        await run('bash', [path.join(dir, 'setup.sh'), home, '--no-launch'], {
          HOME: path.join(work, 'elsewhere'),
        });
        if (s.steps === 0)
          for (const [rel, bytes] of Object.entries(f.p.initial)) {
            if (rel === OS_MANIFEST_PATH) continue;
            assert.deepEqual(
              new Uint8Array(await readFile(path.join(home, rel))),
              bytes,
              `setup.sh laid ${rel}`,
            );
          }
        // ... and the agent's work is written over it: the state's files, folders and links.
        await materializeHome(home, s.files);
        for (const rel of Object.keys(f.p.initial))
          if (!(rel in s.files)) await rm(path.join(home, rel), { recursive: true, force: true });
        const graded = await check(home);
        const want = expected(f, s.steps);
        assert.equal(graded.overall_score, want.score, `${s.name}: ${JSON.stringify(graded)}`);
        assert.deepEqual(graded.subscores, subscores(want.passes), s.name);
        assert.deepEqual(graded.errors, []);
      }

      // $HOME is the default home of both scripts.
      const viaHome = path.join(work, `bundle-home-env-${f.pkg.id}`);
      await run('bash', [path.join(dir, 'setup.sh'), '--no-launch'], { HOME: viaHome });
      const env = JSON.parse(await run('bash', [path.join(dir, 'check.sh')], { HOME: viaHome }));
      assert.equal(env.overall_score, 0);
    });
  });
}
