import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { exportPack, MANIFEST_PATH, REPORT_PATH } from '../../export/exportPack.ts';
import { validatePack } from '../../export/validate.ts';
import { packages, rounds, tasks } from '../../infra/db/schema.ts';
import { buildTaskPackage } from '../../taskpack/taskPackage.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';
import { calcPackageInput } from '../unit/packageFixtures.ts';

const round = `export-test-${randomUUID()}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'forge-export-it-'));
let svc: TestServices;
const ids: string[] = [];
/** Each task's stored task.json hash: its revision's hash part. */
const shas = new Map<string, string>();

before(async () => {
  svc = await testServices();
  // An export names an existing round (an unknown one is an error, not an empty pack).
  await svc.database.db.insert(rounds).values({
    id: round,
    status: 'completed',
    seed: 1,
    settings: {},
    workflowId: `round-${round}`,
  });
  const checks = [
    [
      {
        kind: 'calc.cell_value',
        file: 'Desktop/sales.xlsx',
        sheet: 'Sales',
        cell: 'B10',
        value: 42,
        tolerance: 0.01,
      },
    ],
    [{ kind: 'calc.sheet_names', file: 'Desktop/sales.xlsx', names: ['Sales'] }],
    [{ kind: 'calc.formula', file: 'Desktop/sales.xlsx', sheet: 'Sales', cell: 'B10', matches: '^SUM\\(' }],
    // A task that cannot be done: the right outcome is to change nothing and say so.
    [
      { kind: 'os.reported_infeasible' },
      { kind: 'calc.sheet_names', file: 'Desktop/sales.xlsx', names: ['Sales'] },
    ],
  ];
  for (const c of checks) {
    const { input, files } = calcPackageInput({ roundId: round, checks: c });
    if (c[0]?.kind === 'os.reported_infeasible') input.expected = 'infeasible';
    for (const f of files) {
      const stored = await svc.store.putArtifact(f.bytes, 'application/octet-stream');
      const a = input.artifacts.find((x) => x.vmPath === f.vmPath && x.role === f.role);
      if (!a) throw new Error('fixture');
      a.key = stored.key;
    }
    const download = input.setup[0];
    if (download?.type !== 'download') throw new Error('fixture');
    download.files = input.artifacts
      .filter((a) => a.role === 'initial')
      .map((a) => ({ artifactKey: a.key, sha256: a.sha256, vmPath: a.vmPath }));
    const built = buildTaskPackage(input);
    const key = `packages/${round}/${input.id}/task.json`;
    await svc.store.putObject(key, built.taskJsonText, 'application/json');
    await svc.database.db.insert(tasks).values({
      id: input.id,
      roundId: round,
      skillId: input.skill.id,
      specVersion: 1,
      taskIndex: ids.length,
      seed: input.seed,
      apps: input.apps,
      status: 'accepted',
      instruction: input.instruction,
      packageKey: key,
    });
    await svc.database.db.insert(packages).values({
      taskId: input.id,
      roundId: round,
      skillId: input.skill.id,
      taskJsonKey: key,
      setupKey: key,
      sha256: built.sha256,
    });
    ids.push(input.id);
    shas.set(input.id, built.sha256);
  }
});

after(async () => {
  if (ids.length) {
    await svc.database.db.delete(packages).where(inArray(packages.taskId, ids));
    await svc.database.db.delete(tasks).where(inArray(tasks.id, ids));
  }
  await svc.database.db.delete(rounds).where(eq(rounds.id, round));
  await closeTestServices();
  rmSync(dir, { recursive: true, force: true });
});

test('OSWorld export is reproducible, validates, and grades what no metric can with the portable checker', async () => {
  const a = path.join(dir, 'a.tar.gz');
  const b = path.join(dir, 'b.tar.gz');
  const progress: number[] = [];
  const report = await exportPack(svc, { round, format: 'osworld', out: a }, (p) => progress.push(p.done));
  await exportPack(svc, { round, format: 'osworld', out: b });
  assert.deepEqual(progress, [1, 2, 3, 4]);
  assert.equal(report.exported, 4);
  assert.deepEqual(report.excluded, []);
  // The pack says what made it: the models of its tasks' provenance (the offline model here).
  assert.deepEqual(report.models, ['offline']);
  assert.deepEqual(report.byEvaluator, { compare_table: 2, forge_check: 1, infeasible: 2 });
  const formulaTask = report.evaluators?.find((e) => e.checks[0]?.kind === 'calc.formula');
  assert.equal(formulaTask?.checks[0]?.evaluator, 'forge_check');
  // The infeasible task is graded by OSWorld's own evaluator, every check of it, in the report as shipped.
  const declining = report.evaluators?.find((e) => e.checks[0]?.kind === 'os.reported_infeasible');
  assert.deepEqual(
    declining?.checks.map((c) => c.evaluator),
    ['infeasible', 'infeasible'],
  );
  assert.ok(readFileSync(a).equals(readFileSync(b)), 'two exports differ');
  assert.deepEqual(await validatePack(a), []);

  const folder = path.join(dir, 'osworld');
  await exportPack(svc, { round, format: 'osworld', out: folder });
  assert.deepEqual(await validatePack(folder), []);
  const index = JSON.parse(readFileSync(path.join(folder, 'evaluation_examples/test_all.json'), 'utf8'));
  assert.equal(index.libreoffice_calc.length, 4);
  assert.deepEqual(JSON.parse(readFileSync(path.join(folder, MANIFEST_PATH), 'utf8')).models, ['offline']);
  const shippedReport = JSON.parse(readFileSync(path.join(folder, REPORT_PATH), 'utf8'));
  assert.deepEqual(
    shippedReport.evaluators.find((e: { taskId: string }) => e.taskId === declining?.taskId)?.checks[0],
    declining?.checks[0],
  );
  const read = (taskId: string) =>
    JSON.parse(
      readFileSync(path.join(folder, `evaluation_examples/examples/libreoffice_calc/${taskId}.json`), 'utf8'),
    );
  // Every task names its revision: the package format and its stored package's hash.
  for (const taskId of index.libreoffice_calc as string[])
    assert.equal(read(taskId).revision, `cua-forge/task@1:${shas.get(taskId)?.slice(0, 12)}`);
  // A task graded by an OSWorld metric is graded by the checker as well (conj "and").
  const funcs = (taskId: string) => [read(taskId).evaluator.func].flat() as string[];
  const id = index.libreoffice_calc.find((t: string) => funcs(t).includes('compare_table'));
  assert.deepEqual(funcs(id), ['compare_table', 'exact_match']);
  const task = read(id);
  const infeasible = read(declining?.taskId ?? '');
  assert.deepEqual(infeasible.evaluator, { func: 'infeasible' });
  // Same setup as any task: the workbook is still placed for the agent to look at.
  assert.ok(infeasible.config.some((s: { type: string }) => s.type === 'upload_file'));
  const checked = read(formulaTask?.taskId ?? '');
  assert.equal(checked.evaluator.func, 'exact_match');
  assert.deepEqual(checked.evaluator.expected, { type: 'rule', rules: { expected: 'PASS' } });
  const uploads = checked.config.filter((s: { type: string }) => s.type === 'upload_file').at(-1)
    .parameters.files;
  const checks = JSON.parse(readFileSync(path.join(folder, uploads[1].local_path), 'utf8'));
  assert.deepEqual(
    checks.checks.map((c: { kind: string }) => c.kind),
    ['calc.formula'],
  );
  assert.equal(task.evaluator.expected[0].type, 'cache_file');
  assert.equal(
    task.config.find((s: { type: string }) => s.type === 'upload_file').parameters.files[0].path,
    '/home/user/Desktop/sales.xlsx',
  );

  // Corrupt the pack: a shipped file changes, another disappears, a task file breaks, the index lies.
  const manifest = JSON.parse(readFileSync(path.join(folder, 'cua-forge-pack.json'), 'utf8'));
  const [first, second] = Object.keys(manifest.files);
  writeFileSync(path.join(folder, first as string), 'tampered');
  rmSync(path.join(folder, second as string));
  writeFileSync(path.join(folder, `evaluation_examples/examples/libreoffice_calc/${id}.json`), '{"id": ');
  index.os = [randomUUID()];
  writeFileSync(path.join(folder, 'evaluation_examples/test_all.json'), JSON.stringify(index));
  const problems = await validatePack(folder);
  const text = problems.map((p) => `${p.file}: ${p.message}`).join('\n');
  assert.match(text, new RegExp(`${first}: sha256 is [0-9a-f]{64}, the manifest says`));
  assert.match(text, new RegExp(`${second}: listed in the manifest but missing`));
  assert.match(text, new RegExp(`examples/libreoffice_calc/${id}.json: invalid JSON`));
  assert.match(text, /test_all\.json: os\/[0-9a-f-]+ has no file/);
});

test('JSONL export has one line per task with artifact URIs', async () => {
  const out = path.join(dir, 'tasks.jsonl');
  const report = await exportPack(svc, {
    round,
    format: 'jsonl',
    out,
    files: 'url',
    baseUrl: 'https://files.example.test/forge',
  });
  assert.equal(report.exported, ids.length);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.id),
    [...ids].sort(),
  );
  for (const l of lines) assert.equal(l.revision, `cua-forge/task@1:${shas.get(l.id)?.slice(0, 12)}`);
  assert.deepEqual(report.models, ['offline']);
  assert.match(lines[0].artifacts[0].uri.s3, new RegExp(`^s3://${svc.store.bucket}/artifacts/sha256/`));
  assert.match(lines[0].artifacts[0].uri.url, /^https:\/\/files\.example\.test\/forge\/artifacts\/sha256\//);
  const packed = path.join(dir, 'jsonl.tar.gz');
  await exportPack(svc, { round, format: 'jsonl', out: packed });
  assert.deepEqual(await validatePack(packed), []);
});

test('the bundle export writes a self-contained folder per task, reproducibly, and JSONL carries the checkpoints', async () => {
  const a = path.join(dir, 'bundle-a.tar.gz');
  const b = path.join(dir, 'bundle-b.tar.gz');
  const report = await exportPack(svc, { round, format: 'bundle', out: a });
  await exportPack(svc, { round, format: 'bundle', out: b });
  assert.ok(readFileSync(a).equals(readFileSync(b)), 'two bundle exports differ');
  assert.deepEqual(await validatePack(a), []);
  // The infeasible task is left out with the reason: no script over the files reads the agent's answer.
  assert.equal(report.exported, 3);
  assert.equal(report.excluded.length, 1);
  assert.match(report.excluded[0]?.reason ?? '', /infeasible/);

  const folder = path.join(dir, 'bundle');
  await exportPack(svc, { round, format: 'bundle', out: folder });
  assert.deepEqual(await validatePack(folder), []);
  const index = JSON.parse(readFileSync(path.join(folder, 'bundles.json'), 'utf8'));
  assert.equal(index.format, 'cua-forge/bundle@1');
  assert.equal(index.tasks.length, 3);
  for (const t of index.tasks as { id: string; dir: string }[]) {
    for (const f of ['instruction.md', 'setup.sh', 'check.sh', 'checks.json', 'forge_check.py'])
      assert.ok(readFileSync(path.join(folder, t.dir, f)).length > 0, `${t.dir}/${f}`);
    // setup.sh into a scratch home, then check.sh: the untouched workbook scores 0, as one JSON object.
    const home = path.join(dir, `bundle-home-${t.id}`);
    execFileSync('bash', [path.join(folder, t.dir, 'setup.sh'), home, '--no-launch']);
    assert.ok(readFileSync(path.join(home, 'Desktop/sales.xlsx')).length > 0);
    const graded = JSON.parse(
      execFileSync('bash', [path.join(folder, t.dir, 'check.sh'), home], { encoding: 'utf8' }),
    );
    assert.deepEqual(Object.keys(graded).sort(), ['errors', 'overall_score', 'subscores']);
    assert.equal(graded.overall_score, 0);
  }
  const manifest = JSON.parse(readFileSync(path.join(folder, MANIFEST_PATH), 'utf8'));
  assert.equal(manifest.kind, 'bundle');
  // A checks file whose checkpoints leave a check out (or name one it lacks) is named.
  const checksFile = path.join(folder, index.tasks[0].dir, 'checks.json');
  const checks = JSON.parse(readFileSync(checksFile, 'utf8'));
  checks.checkpoints[0].checks = [99];
  writeFileSync(checksFile, JSON.stringify(checks));
  const broken = (await validatePack(folder)).map((p) => `${p.file}: ${p.message}`).join('\n');
  assert.match(broken, /checks\.json: a checkpoint names a check beyond the 1 it holds/);
  assert.match(broken, /checks\.json: some checks belong to no checkpoint/);
  assert.match(broken, /checks\.json: sha256 is/);
  assert.ok(Object.keys(manifest.files).every((f) => f === 'bundles.json' || f.startsWith('tasks/')));

  // A bundle ships its files: by URL, or as one .jsonl file, it is refused before anything is written.
  await assert.rejects(
    exportPack(svc, { round, format: 'bundle', out: path.join(dir, 'bundle-url'), files: 'url' }),
    /ships every file/,
  );
  await assert.rejects(
    exportPack(svc, { round, format: 'bundle', out: path.join(dir, 'bundle.jsonl') }),
    /folder or a \.tar\.gz, not a \.jsonl file/,
  );
  assert.ok(!existsSync(path.join(dir, 'bundle-url')) && !existsSync(path.join(dir, 'bundle.jsonl')));

  // JSONL: every record names its checkpoints and the checks each covers (one per check here:
  // the fixture's item names none), and a record whose checkpoints were edited is refused.
  const jsonl = path.join(dir, 'checkpoints.jsonl');
  await exportPack(svc, { round, format: 'jsonl', out: jsonl });
  const lines = readFileSync(jsonl, 'utf8').trim().split('\n');
  for (const line of lines) {
    const record = JSON.parse(line);
    assert.deepEqual(
      record.checkpoints.map((c: { checks: number[] }) => c.checks),
      record.rubric.checks.map((_: unknown, i: number) => [i]),
    );
  }
  const packed = path.join(dir, 'checkpoints-pack');
  await exportPack(svc, { round, format: 'jsonl', out: packed });
  const record = JSON.parse(readFileSync(path.join(packed, 'tasks.jsonl'), 'utf8').split('\n')[0] as string);
  record.checkpoints[0].weight = 5;
  writeFileSync(path.join(packed, 'tasks.jsonl'), `${JSON.stringify(record)}\n`);
  const problems = (await validatePack(packed)).map((p) => `${p.file}: ${p.message}`).join('\n');
  assert.match(problems, /tasks\.jsonl:1: checkpoints do not match/);
});
