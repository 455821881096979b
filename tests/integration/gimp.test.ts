import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { imageInfo } from '../../preparers/gimp/measure.ts';
import type { GimpEdit } from '../../preparers/gimp/schema.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap, ProbeResult } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { runCheckerBatch } from '../support/checkerHome.ts';
import { runInGimp } from '../support/gimpBatch.ts';
import { type OfflineTask, offlineTask } from '../support/offlineTasks.ts';

/**
 * The real GIMP against every feasible GIMP skill (one task each, made offline): GIMP's batch mode
 * (1) does the oracle's edits itself — scale, crop, flip, rotate, desaturate, brightness, saturation,
 * select-by-colour and clear, fill, canvas size, text, JPEG export — and that state passes every
 * check and invariant; (2) re-exports the oracle's images, which still pass; (3) exports the
 * untouched picture to the oracle's output, which fails; (4) types the text skills' lettering in
 * other faces, which pass, and in GIMP's default black, which fails. Every GIMP-made state is also
 * graded by the shipped Python checker, which must agree with the TypeScript probes verdict for
 * verdict and observation for observation (GIMP writes PNG with adaptive row filters, which our own
 * encoder never does).
 */

let tasks: OfflineTask[] = [];
let work: string;
let checker: string;

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'forge-gimp-it-'));
  checker = path.join(work, 'forge_check.py');
  writeFileSync(checker, checkerSource().text);
  const specs = [...loadSkillLibrary().values()]
    .map((l) => l.spec)
    // GIMP's own skills: a multi-app skill's other steps (a VLC snapshot, a draft) are not GIMP's
    // to replay; those skills are proved by their own rounds (the whole-library test).
    .filter((s) => s.apps.length === 1 && s.apps[0] === 'gimp' && s.expected !== 'infeasible')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  tasks = [];
  for (const spec of specs) tasks.push(await offlineTask(spec));
});
after(() => rmSync(work, { recursive: true, force: true }));

const gimpEdits = (t: OfflineTask) => t.edits.filter((e) => e.op.startsWith('gimp.')) as GimpEdit[];
/** The files each task's oracle wrote (a new export, or an image it changed). */
const outputs = (t: OfflineTask) =>
  Object.keys(t.solved).filter(
    (p) => t.initial[p] === undefined || !Buffer.from(t.initial[p]!).equals(Buffer.from(t.solved[p]!)),
  );

/** Every task's files under its own folder, so one GIMP process serves them all. */
const prefix = (i: number, p: string) => `t${i}/${p}`;
function merged(states: FileMap[]): FileMap {
  const out: FileMap = {};
  states.forEach((files, i) => {
    for (const [p, bytes] of Object.entries(files)) out[prefix(i, p)] = bytes;
  });
  return out;
}
function split(files: FileMap, i: number): FileMap {
  const out: FileMap = {};
  for (const [p, bytes] of Object.entries(files))
    if (p.startsWith(`t${i}/`)) out[p.slice(`t${i}/`.length)] = bytes;
  return out;
}
const moved = (i: number, e: GimpEdit): GimpEdit => ({
  ...e,
  path: prefix(i, e.path),
  ...(e.to === undefined ? {} : { to: prefix(i, e.to) }),
});

async function grade(t: OfflineTask, files: FileMap): Promise<ProbeResult[]> {
  return Promise.all([...t.checks, ...t.invariants].map((c) => probeCheck(files, c)));
}

/** The shipped checker's verdicts over the states must equal the probes'. */
async function sameInPython(
  name: string,
  states: { task: OfflineTask; files: FileMap; probes: ProbeResult[] }[],
) {
  const jobs = states.map((s, k) => {
    const home = path.join(work, `${name}-${k}`);
    for (const [rel, bytes] of Object.entries(s.files)) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      writeFileSync(path.join(home, rel), bytes);
    }
    return { home, checks: [...s.task.checks, ...s.task.invariants] };
  });
  const verdicts = await runCheckerBatch(checker, path.join(work, `${name}.json`), jobs);
  states.forEach((s, k) => {
    s.probes.forEach((p, j) => {
      const py = verdicts[k]![j]!;
      assert.equal(
        py.pass,
        p.pass,
        `${s.task.skillId} ${name} check #${j + 1}: Python ${py.pass}, TypeScript ${p.pass}`,
      );
      assert.ok(
        jsonEqual(py.observed, p.observed),
        `${s.task.skillId} ${name} check #${j + 1}: Python sees ${JSON.stringify(py.observed)}, TypeScript ${JSON.stringify(p.observed)}`,
      );
    });
  });
}

test('the oracle done in GIMP itself passes every check of every GIMP skill, in both checkers', async () => {
  assert.ok(tasks.length >= 12, `only ${tasks.length} feasible GIMP skills`);
  const edits = tasks.flatMap((t, i) => gimpEdits(t).map((e) => moved(i, e)));
  const made = await runInGimp(merged(tasks.map((t) => t.initial)), edits);
  const states = await Promise.all(
    tasks.map(async (task, i) => {
      const files = split(made, i);
      return { task, files, probes: await grade(task, files) };
    }),
  );
  const failing = states.flatMap((s) =>
    s.probes.flatMap((p, j) =>
      p.pass
        ? []
        : [
            `${s.task.skillId}: ${[...s.task.checks, ...s.task.invariants][j]!.kind} ${JSON.stringify(p.observed)}`,
          ],
    ),
  );
  assert.deepEqual(failing, []);
  await sameInPython('made', states);
});

test("GIMP re-exporting the oracle's images keeps them passing; the untouched picture exported by GIMP fails", async () => {
  // Re-export: each output opened from the oracle's bytes and exported over itself (a JPEG at the quality it has).
  const reexports = tasks.flatMap((t, i) =>
    outputs(t).map((p): GimpEdit => {
      const info = imageInfo(t.solved[p]!);
      return {
        op: 'gimp.export',
        path: prefix(i, p),
        ...(info.format === 'jpeg' && info.quality !== null ? { quality: info.quality } : {}),
      };
    }),
  );
  const again = await runInGimp(merged(tasks.map((t) => t.solved)), reexports);
  const passing = await Promise.all(
    tasks.map(async (task, i) => {
      const files = split(again, i);
      return { task, files, probes: await grade(task, files) };
    }),
  );
  const failing = passing.flatMap((s) =>
    s.probes.flatMap((p, j) =>
      p.pass
        ? []
        : [
            `${s.task.skillId}: ${[...s.task.checks, ...s.task.invariants][j]!.kind} ${JSON.stringify(p.observed)}`,
          ],
    ),
  );
  assert.deepEqual(failing, []);

  // The untouched source exported by GIMP to where the oracle's result goes (GIMP's default quality).
  const untouched = tasks.flatMap((t, i) =>
    gimpEdits(t)
      .filter((e) => e.to !== undefined && t.initial[e.to] === undefined)
      .map((e): GimpEdit => ({ op: 'gimp.export', path: prefix(i, e.path), to: prefix(i, e.to!) })),
  );
  const plain = await runInGimp(merged(tasks.map((t) => t.initial)), untouched);
  const failed = await Promise.all(
    tasks.map(async (task, i) => {
      const files = split(plain, i);
      return { task, files, probes: await grade(task, files) };
    }),
  );
  const passed = failed.filter((s) => s.probes.every((p) => p.pass)).map((s) => s.task.skillId);
  assert.deepEqual(passed, [], 'the untouched picture exported by GIMP passes these skills');
  await sameInPython('reexported', passing);
  await sameInPython('untouched', failed);
});

test('lettering GIMP types in other faces passes the text skills; left in its default black it fails', async () => {
  // The rubric reads new marks of a colour, not one font: a bold serif, a monospace and a narrow
  // sans (capitals 0.66, 0.73 and 0.72 of the size, a character 0.45–0.7 of it) all pass.
  const FACES = ['Serif Bold', 'Monospace', 'Liberation Sans Narrow'];
  const lettered = tasks.filter((t) => gimpEdits(t).some((e) => e.op === 'gimp.text'));
  assert.ok(lettered.length >= 2, `only ${lettered.length} GIMP skills type text`);
  const variants = lettered.flatMap((task) => [
    ...FACES.map((font) => ({ task, font, black: false })),
    { task, font: undefined, black: true },
  ]);
  const faceOf = new Map<GimpEdit, string>();
  const edits = variants.flatMap((v, i) =>
    gimpEdits(v.task).map((e) => {
      const m = moved(i, v.black && e.op === 'gimp.text' ? { ...e, color: '#000000' } : e);
      if (v.font !== undefined) faceOf.set(m, v.font);
      return m;
    }),
  );
  const made = await runInGimp(merged(variants.map((v) => v.task.initial)), edits, {
    font: (e) => faceOf.get(e),
  });
  const states = await Promise.all(
    variants.map(async (v, i) => {
      const files = split(made, i);
      return { task: v.task, files, probes: await grade(v.task, files), v };
    }),
  );
  const wrong = states.flatMap((s) => {
    const failing = s.probes.flatMap((p, j) =>
      p.pass ? [] : [`${[...s.task.checks, ...s.task.invariants][j]!.kind} ${JSON.stringify(p.observed)}`],
    );
    if (s.v.black) return failing.length > 0 ? [] : [`${s.task.skillId} in black passes`];
    return failing.map((f) => `${s.task.skillId} in ${s.v.font}: ${f}`);
  });
  assert.deepEqual(wrong, []);
  await sameInPython('faces', states);
});
