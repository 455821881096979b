import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { packageFor } from '../../activities/packageTask.ts';
import { type PreparedTask, prepareInMemory } from '../../activities/prepareCore.ts';
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
import { type Checkpoint, checkpointsOf, scoreCheckpoints } from '../../taskpack/checkpoints.ts';
import { parseTaskPackage, type TaskPackage } from '../../taskpack/taskPackage.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Partial credit on a real three-step composite made offline (rename a sheet in Calc, retitle its
 * slide in Impress, draft a mail in Thunderbird): the oracle scores 1, the untouched state 0 on
 * every checkpoint the task changes, and the oracle's first k steps score exactly the checkpoints
 * of those steps — in the TypeScript probes, in the checker an OSWorld pack ships (`--score`), and
 * in a bundle's check.sh after its setup.sh laid the task into a scratch home, all run for real.
 */
const COMPOSITE = 'composite.calc-impress-thunderbird.rename-sheet-slide-mail';
const STEPS = ['calc.sheets.rename-sheet', 'impress.titles.change-title', 'thunderbird.drafts.new-message'];
/** The composite's own items, by the step whose work they check (the slide's title, the mail). */
const HANDOFF_STEP = [2, 3];
/** The composite's wrong solutions that are the oracle's first steps: sheet only, then sheet and slide. */
const PREFIXES = [
  { name: 'sheet-only', steps: 1 },
  { name: 'no-announcement', steps: 2 },
];

let work: string;
let p: Extract<PreparedTask, { ok: true }>;
let pkg: TaskPackage;
let checkpoints: Checkpoint[];
/** Each checkpoint's step (1..3); undefined for guards, which every state here passes. */
let stepOf: (number | undefined)[];
const states: { name: string; steps: number; files: FileMap }[] = [];
/** The pack files an exporter would write for the task, by pack path. */
const osworldPack = new Map<string, Uint8Array>();
let bundleRoot: string;

const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<string>((resolve, reject) =>
    execFile(cmd, args, { env: { ...process.env, ...env }, timeout: 120_000 }, (err, out, errOut) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${errOut}`)) : resolve(out),
    ),
  );

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'forge-partial-'));
  const library = loadSkillLibrary();
  const spec = library.get(COMPOSITE)?.spec;
  assert.ok(spec, `${COMPOSITE} is in the library`);
  let prepared: PreparedTask | undefined;
  for (let seed = 1; seed < 6 && !prepared?.ok; seed++) {
    const a = await authorTask(spec, seed, offlineCaller, {
      level: 'explicit',
      roundId: 'partial',
      taskIndex: 0,
    });
    if (a.ok) prepared = await prepareInMemory(spec, 'file', a.context);
  }
  assert.ok(prepared?.ok, `no accepted ${COMPOSITE} task in 5 seeds`);
  p = prepared;
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
  pkg = parseTaskPackage(built.taskJsonText, 'the partial-credit package');
  checkpoints = checkpointsOf(pkg.rubric);

  // Which step each item checks: the steps' items come first in step order, then the composite's.
  const counts = STEPS.map((id) => library.get(id)?.spec.rubric.items.length ?? 0);
  const itemStep = [...counts.flatMap((n, s) => Array<number>(n).fill(s + 1)), ...HANDOFF_STEP];
  assert.equal(checkpoints.length, pkg.rubric.items.length, 'one checkpoint per item, every check covered');
  stepOf = checkpoints.map((cp, i) => (cp.guard ? undefined : itemStep[i]));
  assert.ok(
    stepOf.every((s, i) => checkpoints[i]!.guard || s !== undefined),
    `every progress checkpoint belongs to a step: ${JSON.stringify(stepOf)}`,
  );

  states.push({ name: 'initial', steps: 0, files: p.initial }, { name: 'oracle', steps: 3, files: p.solved });
  for (const prefix of PREFIXES) {
    const w = p.m.wrong.find((x) => x.name === prefix.name);
    assert.ok(w, `the composite declares ${prefix.name}`);
    // It is the oracle's own first steps, nothing else.
    assert.ok(w.edits.length > 0 && w.edits.length < p.m.edits.length);
    assert.deepEqual(w.edits, p.m.edits.slice(0, w.edits.length), `${prefix.name} is a prefix of the oracle`);
    states.push({ name: prefix.name, steps: prefix.steps, files: await applyEdits(p.initial, w.edits) });
  }

  // The OSWorld pack's checker and checks.json, as the exporter writes them.
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
  bundleRoot = path.join(work, 'bundle');
  const sink = await openSink(bundleRoot);
  const report: FormatReport = { excluded: [] };
  const writer = await bundleFormat.open(
    {
      sink,
      ship: async (packPath, key) => sink.addFile(packPath, p.draft.bytes.get(key)!),
      file: (packPath, bytes) => sink.addFile(packPath, bytes),
      url: async () => assert.fail('a bundle ships its files'),
      bucket: 'unused',
      files: 'ship',
      out: bundleRoot,
    },
    report,
  );
  assert.equal(await writer.add(pkg), true);
  await writer.finish();
  await sink.finish();
});

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** What the state with the oracle's first `steps` steps must score, checkpoint by checkpoint. */
function expected(steps: number) {
  const passes = checkpoints.map((_, i) => stepOf[i] === undefined || stepOf[i]! <= steps);
  const progress = checkpoints.flatMap((cp, i) => (cp.guard ? [] : [{ w: cp.weight, pass: passes[i]! }]));
  const total = progress.reduce((s, x) => s + x.w, 0);
  const earned = progress.reduce((s, x) => s + (x.pass ? x.w : 0), 0);
  return { passes, score: Math.floor((earned / total) * 1e6 + 0.5) / 1e6 };
}

test('the checkpoints are the rubric items, weighted, with the guards marked', () => {
  assert.ok(checkpoints.length >= 6, `checkpoints: ${checkpoints.map((c) => c.name).join(' | ')}`);
  assert.ok(
    checkpoints.some((c) => c.weight === 2),
    'the slide title item keeps its weight 2',
  );
  assert.equal(new Set(checkpoints.map((c) => c.name)).size, checkpoints.length, 'names are unique keys');
  // Every check is in some checkpoint, so a score of 1 is the binary PASS.
  assert.deepEqual(
    [...new Set(checkpoints.flatMap((c) => c.checks))].sort((a, b) => a - b),
    [...pkg.rubric.checks.keys()],
  );
  for (const s of [1, 2, 3]) assert.ok(stepOf.includes(s), `step ${s} has a checkpoint of its own`);
});

test('TypeScript probes: oracle 1, untouched 0 on every changed checkpoint, k steps score their checkpoints', async (t) => {
  for (const s of states) {
    const verdicts = await Promise.all(pkg.rubric.checks.map((c) => probeCheck(s.files, c)));
    const scored = scoreCheckpoints(
      checkpoints,
      verdicts.map((v) => v.pass),
    );
    const want = expected(s.steps);
    assert.deepEqual(
      scored.checkpoints.map((c) => c.pass),
      want.passes,
      `${s.name}: ${JSON.stringify(scored.checkpoints)}`,
    );
    assert.equal(scored.score, want.score, s.name);
    t.diagnostic(
      `${s.name} (${s.steps} of 3 steps): score ${scored.score}, ${scored.passed}/${scored.total} checkpoints`,
    );
  }
  assert.deepEqual(
    states.map((s) => expected(s.steps).score),
    [0, 1, expected(1).score, expected(2).score],
  );
  assert.ok(expected(1).score > 0 && expected(1).score < expected(2).score && expected(2).score < 1);
});

test("the OSWorld pack's checker: --score gives the same partial credit, the evaluator's line stays binary", async () => {
  const checker = path.join(work, 'osworld_forge_check.py');
  const checks = path.join(work, 'osworld_checks.json');
  await writeFile(checker, osworldPack.get(packPaths.checker)!);
  await writeFile(checks, osworldPack.get(packPaths.checks(pkg.id))!);
  for (const [i, s] of states.entries()) {
    const home = path.join(work, `osworld-home-${i}`);
    await materializeHome(home, s.files);
    const scored = JSON.parse(await run(SYSTEM_PYTHON, [checker, checks, '--home', home, '--score']));
    const want = expected(s.steps);
    assert.deepEqual(
      scored.checkpoints.map((c: { pass: boolean }) => c.pass),
      want.passes,
      `${s.name}: ${JSON.stringify(scored)}`,
    );
    assert.deepEqual(
      scored.checkpoints.map((c: { name: string }) => c.name),
      checkpoints.map((c) => c.name),
    );
    assert.equal(scored.score, want.score, s.name);
    assert.deepEqual(scored.errors, []);
    // What OSWorld's exact_match reads: PASS only when every checkpoint passes.
    const line = await run(SYSTEM_PYTHON, [checker, checks, '--home', home]);
    assert.equal(line === 'PASS', s.steps === 3, `${s.name}: ${line.slice(0, 200)}`);
  }
});

test("a bundle's setup.sh lays the task into a scratch home and its check.sh scores it with partial credit", async () => {
  const dir = path.join(bundleRoot, bundleDir(pkg.id));
  for (const f of ['instruction.md', 'setup.sh', 'check.sh', 'checks.json', 'forge_check.py'])
    await readFile(path.join(dir, f));
  assert.equal(await readFile(path.join(dir, 'instruction.md'), 'utf8'), `${pkg.instruction}\n`);
  const check = async (home: string) =>
    JSON.parse(await run('bash', [path.join(dir, 'check.sh'), home])) as {
      overall_score: number;
      subscores: Record<string, number>;
      errors: string[];
    };
  const subscores = (passes: boolean[]) =>
    Object.fromEntries(checkpoints.map((c, i) => [c.name, passes[i] ? 1 : 0]));

  // The untouched state, laid out by setup.sh itself (the home given as an argument).
  const home = path.join(work, 'bundle-home');
  await run('bash', [path.join(dir, 'setup.sh'), home, '--no-launch'], {
    HOME: path.join(work, 'elsewhere'),
  });
  for (const [rel, bytes] of Object.entries(p.initial)) {
    if (rel === OS_MANIFEST_PATH) continue;
    assert.deepEqual(new Uint8Array(await readFile(path.join(home, rel))), bytes, `setup.sh laid ${rel}`);
  }
  const untouched = await check(home);
  assert.equal(untouched.overall_score, 0);
  assert.deepEqual(untouched.subscores, subscores(expected(0).passes));
  assert.deepEqual(untouched.errors, []);

  // The agent's work written over the same home: each state's changed files.
  for (const s of states.filter((x) => x.steps > 0)) {
    for (const [rel, bytes] of Object.entries(s.files)) {
      if (rel === OS_MANIFEST_PATH) continue;
      await mkdir(path.dirname(path.join(home, rel)), { recursive: true });
      await writeFile(path.join(home, rel), bytes);
    }
    const graded = await check(home);
    const want = expected(s.steps);
    assert.equal(graded.overall_score, want.score, `${s.name}: ${JSON.stringify(graded)}`);
    assert.deepEqual(graded.subscores, subscores(want.passes), s.name);
    assert.deepEqual(graded.errors, []);
    // Back to the untouched files before the next state.
    for (const [rel, bytes] of Object.entries(p.initial))
      if (rel !== OS_MANIFEST_PATH) await writeFile(path.join(home, rel), bytes);
    for (const rel of Object.keys(s.files))
      if (!(rel in p.initial)) await rm(path.join(home, rel), { force: true });
  }

  // $HOME is the default home of both scripts.
  const viaHome = path.join(work, 'bundle-home-env');
  await run('bash', [path.join(dir, 'setup.sh'), '--no-launch'], { HOME: viaHome });
  assert.equal((await check(viaHome)).overall_score, 0);
  const env = JSON.parse(await run('bash', [path.join(dir, 'check.sh')], { HOME: viaHome }));
  assert.equal(env.overall_score, 0);
});
