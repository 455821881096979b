// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash text, where ${…} is literal.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  BUNDLE_INDEX_PATH,
  bundleDir,
  bundleFormat,
  bundleOptionsProblem,
} from '../../export/bundle/format.ts';
import type { FormatReport } from '../../export/format.ts';
import { openSink } from '../../export/sink.ts';
import { buildTaskPackage, type TaskPackage } from '../../taskpack/taskPackage.ts';
import { calcPackageInput, type FixtureFile, sha256Of } from './packageFixtures.ts';

/**
 * A bundle's scripts quote everything: a task whose paths, command words and instruction are
 * hostile (but legal) is bundled, its setup.sh lays every file at its exact name under a home given
 * as an argument (itself a hostile name), nothing the task says runs, and check.sh grades it.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'forge-bundle-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const marker = path.join(os.tmpdir(), `forge-bundle-pwned-${process.pid}-${Date.now()}`);
const hostile = [`$(touch ${marker})`, `\`touch ${marker}\``, `'; touch ${marker}; '`, '${HOME} * ? [a]'];
const weirdNames = [
  `Desktop/it's "quoted" $(touch ${marker}).xlsx`,
  `Desktop/back\`tick\` \`touch ${marker}\`/ünïcødé ✓ 数据.xlsx`,
  'Documents/$HOME and ${PATH} * ? [x] ;|&<>.txt',
];

const files: FixtureFile[] = weirdNames.map((vmPath, i) => ({
  role: 'initial',
  vmPath,
  key: `tasks/weird/${i}/${path.basename(vmPath)}`,
  bytes: Buffer.from(`content ${i}`),
}));
const bytes = new Map<string, Uint8Array>();
let pkg: TaskPackage;
const pack = path.join(root, 'pack');

before(async () => {
  const archiveDir = path.join(root, 'profile-src');
  mkdirSync(path.join(archiveDir, '.thunderbird', 'forge.default'), { recursive: true });
  execFileSync('sh', [
    '-c',
    'printf "[Profile0]\\nPath=forge.default\\n" > "$1/.thunderbird/profiles.ini"',
    '-',
    archiveDir,
  ]);
  const archive: FixtureFile = {
    role: 'initial',
    vmPath: '.cache/profile $(x).tar.gz',
    key: 'tasks/weird/profile.tar.gz',
    bytes: execFileSync('tar', ['-cz', '-C', archiveDir, '.thunderbird']),
  };
  const { input } = calcPackageInput({
    files,
    checks: [
      { kind: 'os.exists', path: weirdNames[2] },
      { kind: 'os.exists', path: `${weirdNames[2]}.done` },
    ],
  });
  input.instruction = `Open it's "file" ${hostile.join(' ')}\nand finish it.`;
  input.rubric.items = [
    { text: `The file ${hostile[0]} is there.`, weight: 1, checks: [0] },
    { text: `The file's "done" copy is there; ${hostile[2]}`, weight: 3, checks: [1] },
  ];
  input.rubric.guards = [0];
  input.artifacts.push({
    role: 'initial',
    app: 'thunderbird',
    vmPath: archive.vmPath,
    key: archive.key,
    sha256: sha256Of(archive.bytes),
    size: archive.bytes.length,
  });
  input.setup = [
    {
      type: 'download',
      files: [...files, archive].map((f) => ({
        artifactKey: f.key,
        sha256: sha256Of(f.bytes),
        vmPath: f.vmPath,
      })),
    },
    { type: 'extract', archiveVmPath: archive.vmPath, into: '~' },
    { type: 'mkdir', vmPath: `Work/new dir $(touch ${marker})` },
    { type: 'chmod', vmPath: weirdNames[2] as string, mode: '0600' },
    { type: 'launch', command: ['true', ...hostile] },
    { type: 'sleep', seconds: 0.1 },
  ];
  for (const f of [...files, archive]) bytes.set(f.key, f.bytes);
  pkg = buildTaskPackage(input).taskJson;

  const sink = await openSink(pack);
  const report: FormatReport = { excluded: [] };
  const writer = await bundleFormat.open(
    {
      sink,
      ship: async (packPath, key) => sink.addFile(packPath, bytes.get(key)!),
      file: (packPath, b) => sink.addFile(packPath, b),
      url: async () => assert.fail('a bundle ships its files'),
      bucket: 'unused',
      files: 'ship',
      out: pack,
    },
    report,
  );
  assert.equal(await writer.add(pkg), true);
  assert.equal(
    await writer.add({ ...pkg, id: '00000000-0000-4000-8000-000000000001', expected: 'infeasible' }),
    false,
  );
  assert.match(report.excluded[0]?.reason ?? '', /infeasible/);
  await writer.finish();
  await sink.finish();
});

describe('a bundle with hostile but legal task text', () => {
  const dir = () => path.join(pack, bundleDir(pkg.id));

  test('the task text stays out of the scripts, and shellcheck finds nothing at any severity', () => {
    for (const script of ['setup.sh', 'check.sh']) {
      const text = readFileSync(path.join(dir(), script), 'utf8');
      assert.ok(!text.includes('Open it'), `${script} holds the instruction`);
      assert.ok(!text.includes('is there'), `${script} holds a checkpoint name`);
      const result = spawnSync('shellcheck', ['--severity=style', '--shell=bash', path.join(dir(), script)], {
        encoding: 'utf8',
      });
      assert.equal(result.stdout + result.stderr, '', script);
      assert.equal(result.status, 0);
    }
    assert.equal(readFileSync(path.join(dir(), 'instruction.md'), 'utf8'), `${pkg.instruction}\n`);
    const index = JSON.parse(readFileSync(path.join(pack, BUNDLE_INDEX_PATH), 'utf8'));
    assert.deepEqual(
      index.tasks.map((t: { id: string }) => t.id),
      [pkg.id],
    );
  });

  test('setup.sh lays every file at its exact name under the home it is given, and runs nothing it is told', () => {
    const pwnedBefore = existsSync('/tmp/pwned');
    const home = path.join(root, `home $(touch ${marker}) 'q'`);
    const cwd = mkdtempSync(path.join(root, 'cwd-'));
    const result = spawnSync('bash', [path.join(dir(), 'setup.sh'), home], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: path.join(root, 'not-this-one') },
    });
    assert.equal(result.status, 0, result.stderr);
    for (const f of files) assert.deepEqual(readFileSync(path.join(home, f.vmPath)), f.bytes, f.vmPath);
    assert.equal(
      readFileSync(path.join(home, '.thunderbird/profiles.ini'), 'utf8'),
      '[Profile0]\nPath=forge.default\n',
    );
    assert.ok(existsSync(path.join(home, `Work/new dir $(touch ${marker})`)));
    assert.equal(
      spawnSync('stat', ['-c', '%a', path.join(home, weirdNames[2] as string)], {
        encoding: 'utf8',
      }).stdout.trim(),
      '600',
    );
    assert.ok(!existsSync(marker), 'a command substitution ran');
    if (!pwnedBefore) assert.ok(!existsSync('/tmp/pwned'), '/tmp/pwned was created');
    assert.deepEqual(readdirSync(cwd), []);
    assert.ok(!existsSync(path.join(root, 'not-this-one')), 'the argument, not $HOME, is the home');

    // check.sh: the guard holds, the progress checkpoint (weight 3) is not done yet.
    const check = (): { overall_score: number; subscores: Record<string, number>; errors: string[] } =>
      JSON.parse(execFileSync('bash', [path.join(dir(), 'check.sh'), home], { encoding: 'utf8' }));
    const before = check();
    assert.deepEqual(before, {
      overall_score: 0,
      subscores: { [pkg.rubric.items[0]!.text]: 1, [pkg.rubric.items[1]!.text]: 0 },
      errors: [],
    });
    execFileSync('cp', ['--', path.join(home, weirdNames[2]!), path.join(home, `${weirdNames[2]}.done`)]);
    assert.equal(check().overall_score, 1);
    // The guard fails (the file the task keeps is gone): no credit for the rest.
    rmSync(path.join(home, weirdNames[2]!));
    const voided = check();
    assert.equal(voided.overall_score, 0);
    assert.equal(voided.subscores[pkg.rubric.items[1]!.text], 1);
    assert.ok(!existsSync(marker));
  });

  test('a file whose bytes do not match its sha256 stops setup.sh before it is put in place', () => {
    const copy = path.join(root, 'tampered');
    execFileSync('cp', ['-r', '--', dir(), copy]);
    execFileSync('sh', ['-c', 'printf tampered > "$1"', '-', path.join(copy, 'files', weirdNames[0]!)]);
    const home = path.join(root, 'home-tampered');
    const result = spawnSync('bash', [path.join(copy, 'setup.sh'), home, '--no-launch'], {
      encoding: 'utf8',
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /FAILED|did NOT match/);
    assert.ok(!existsSync(path.join(home, weirdNames[0]!)));
  });
});

test('the bundle format refuses options it cannot honour, with the reason', () => {
  assert.match(bundleOptionsProblem('out/pack', 'url') ?? '', /ships every file.*--files ship/);
  assert.match(bundleOptionsProblem('out/tasks.jsonl', 'ship') ?? '', /folder or a \.tar\.gz/);
  assert.equal(bundleOptionsProblem('out/pack.tar.gz', 'ship'), null);
});
