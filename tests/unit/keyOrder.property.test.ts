import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { canonicalJson, canonicalJsonLine } from '../../infra/canonicalJson.ts';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { jsonEqual } from '../../preparers/deepEqual.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { materializeHome, runCheckerBatch, SYSTEM_PYTHON } from '../support/checkerHome.ts';
import { type OfflineTask, offlineTask } from '../support/offlineTasks.ts';

const run = promisify(execFile);

/**
 * Task packages ship with sorted keys (infra/canonicalJson.ts), so a check payload reaches both
 * checkers in some other key order than it was authored in. Key order must never change a verdict:
 * the TypeScript probes and the Python checker give the same verdicts on a payload with its keys in
 * any order, and the oracle passes the checks exactly as shipped.
 */

/** A permutation source from a seed (mulberry32): the same seed shuffles the same way. */
function shuffler(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffle = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shuffle);
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      // defineProperty keeps a "__proto__" key an own key, as JSON.parse makes it.
      Object.defineProperty(out, k, {
        value: shuffle((value as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return shuffle;
}

/** Check kinds a skill's rubric names (its payloads are rendered later; the names are literal). */
const kindsOf = (checks: unknown) =>
  new Set([...JSON.stringify(checks).matchAll(/"kind":"([a-z_]+\.[a-z_]+)"/g)].map((m) => m[1]!));

/**
 * A sample of the library that covers every app group and every check kind its rubrics name:
 * per group (calc, writer, impress, thunderbird, os, multi, composite), the skills that add a kind
 * not yet covered, and at least three.
 */
function sampleSkills() {
  const library = loadSkillLibrary();
  const ids = [...library.keys()].sort();
  const picked: string[] = [];
  const seen = new Set<string>();
  const perGroup = new Map<string, number>();
  for (const id of ids) {
    const group = id.split('.')[0]!;
    const kinds = kindsOf(library.get(id)!.spec.rubric.checks);
    const adds = [...kinds].some((k) => !seen.has(k));
    if (!adds && (perGroup.get(group) ?? 0) >= 3) continue;
    picked.push(id);
    perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
    for (const k of kinds) seen.add(k);
  }
  return { library, picked, groups: [...perGroup.keys()] };
}

interface State {
  label: string;
  files: FileMap;
  home: string;
  checks: { kind: string }[];
}

describe('check payloads: key order never decides a verdict', () => {
  let work: string;
  let checker: string;
  const states: State[] = [];
  let tsBase: boolean[][] = [];
  let pyBase: boolean[][] = [];

  const tsVerdicts = (checksOf: (s: State) => { kind: string }[]) =>
    Promise.all(
      states.map(async (s) => Promise.all(checksOf(s).map(async (c) => (await probeCheck(s.files, c)).pass))),
    );
  const pyVerdicts = async (checksOf: (s: State) => unknown[]) =>
    (
      await runCheckerBatch(
        checker,
        path.join(work, 'jobs.json'),
        states.map((s) => ({ home: s.home, checks: checksOf(s) })),
      )
    ).map((v) => v.map((x) => x.pass));

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'forge-key-order-'));
    checker = path.join(work, 'forge_check.py');
    await writeFile(checker, checkerSource().text);
    const { library, picked, groups } = sampleSkills();
    for (const g of ['calc', 'writer', 'impress', 'thunderbird', 'os', 'multi'])
      assert.ok(groups.includes(g), `the sample has ${g} skills`);
    const tasks: OfflineTask[] = [];
    for (const id of picked) tasks.push(await offlineTask(library.get(id)!.spec));
    for (const t of tasks) {
      // The declared checks and the "nothing else changed" invariants a round derives.
      const checks = [...t.checks, ...t.invariants];
      for (const [role, files] of [
        ['initial', t.initial],
        ['oracle', t.solved],
      ] as const) {
        const home = path.join(work, `home-${states.length}`);
        await materializeHome(home, files);
        states.push({ label: `${t.skillId} ${role}`, files, home, checks });
      }
    }
    tsBase = await tsVerdicts((s) => s.checks);
    pyBase = await pyVerdicts((s) => s.checks);
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const differences = (label: string, base: boolean[][], got: boolean[][]) =>
    states.flatMap((s, i) =>
      s.checks.flatMap((c, k) =>
        got[i]?.[k] === base[i]![k]
          ? []
          : [`${label} ${s.label} #${k + 1} ${c.kind}: ${base[i]![k]} → ${got[i]?.[k]}`],
      ),
    );

  test('jsonEqual and the checker’s same_json are JSON equality with keys in any order', async () => {
    const pair = fc.oneof(
      fc.tuple(fc.jsonValue(), fc.nat()).map(([v, seed]) => [v, shuffler(seed)(v)] as const),
      fc.tuple(fc.jsonValue(), fc.jsonValue()),
      fc.tuple(fc.jsonValue(), fc.jsonValue(), fc.nat()).map(([v, w, seed]) => {
        // Near misses: one more key, or the same keys with one value replaced.
        const obj = { a: v, b: [w, 1, true] };
        return [obj, shuffler(seed)({ ...obj, b: [w, 1, 1] })] as const;
      }),
    );
    const pairs = fc.sample(pair, { numRuns: 400, seed: 25 });
    const expected = pairs.map(([a, b]) => canonicalJsonLine(a) === canonicalJsonLine(b));
    assert.ok(expected.some((e) => e) && expected.some((e) => !e), 'the sample has equal and unequal pairs');
    assert.deepEqual(
      pairs.map(([a, b]) => jsonEqual(a, b)),
      expected,
    );
    const file = path.join(work, 'pairs.json');
    await writeFile(file, JSON.stringify(pairs));
    const script = [
      'import importlib.util, json, sys',
      "spec = importlib.util.spec_from_file_location('forge_check', sys.argv[1])",
      'm = importlib.util.module_from_spec(spec)',
      'spec.loader.exec_module(m)',
      'pairs = json.load(open(sys.argv[2], encoding="utf-8"))',
      'print(json.dumps([m.same_json(a, b) for a, b in pairs]))',
    ].join('\n');
    const { stdout } = await run(SYSTEM_PYTHON, ['-c', script, checker, file]);
    assert.deepEqual(JSON.parse(stdout), expected);
    assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true, 'an undefined key is no key');
    assert.equal(jsonEqual([1, 2], [2, 1]), false, 'array order counts');
    assert.equal(jsonEqual(1, true), false, 'booleans are not numbers');
  });

  test('every check payload with its keys shuffled: the probes and the checker keep their verdicts', async () => {
    assert.ok(states.length >= 24, `a broad sample (${states.length} states)`);
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (seed) => {
        const shuffled = new Map(states.map((s) => [s, s.checks.map(shuffler(seed)) as { kind: string }[]]));
        const problems = [
          ...differences('probe', tsBase, await tsVerdicts((s) => shuffled.get(s)!)),
          ...differences('checker', pyBase, await pyVerdicts((s) => shuffled.get(s)!)),
        ];
        assert.deepEqual(problems.slice(0, 12), [], `${problems.length} verdicts change with key order`);
      }),
      { numRuns: 4, seed: 25, endOnFailure: true },
    );
  });

  test('the checks as shipped (canonical JSON, sorted keys): initial fails, the oracle passes, in both', async () => {
    const shipped = (s: State) =>
      (JSON.parse(canonicalJson({ checks: s.checks })) as { checks: { kind: string }[] }).checks;
    const ts = await tsVerdicts(shipped);
    const py = await pyVerdicts(shipped);
    const problems: string[] = [];
    for (const [i, s] of states.entries()) {
      const oracle = s.label.endsWith(' oracle');
      for (const [name, verdicts] of [
        ['probe', ts[i]!],
        ['checker', py[i]!],
      ] as const) {
        const failing = s.checks.filter((_, k) => !verdicts[k]).map((c) => c.kind);
        if (oracle && failing.length > 0) problems.push(`${name} ${s.label} fails ${failing.join(', ')}`);
        if (!oracle && failing.length === 0) problems.push(`${name} ${s.label} passes every check`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
