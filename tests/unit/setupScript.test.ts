// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash text, where ${…} is literal.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TaskState } from '../../activities/taskState.ts';
import { type OsworldContext, setupStep } from '../../export/osworld/task.ts';
import { commandProblem } from '../../export/packRules.ts';
import { setupStepsFor } from '../../taskcore/setupSteps.ts';
import { buildTaskPackage } from '../../taskpack/taskPackage.ts';
import { calcPackageInput, type FixtureFile, sha256Of } from './packageFixtures.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'forge-setup-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A marker unique to this run, so other processes on the machine cannot make the test pass or fail. */
const marker = path.join(os.tmpdir(), `forge-pwned-${process.pid}-${Date.now()}`);
const hostile = [
  `$(touch ${marker})`,
  `\`touch ${marker}\``,
  `'; touch ${marker}; '`,
  `"; touch ${marker}; "`,
  '$(touch /tmp/pwned)',
  '${HOME} $PATH * ? [a]',
];

describe('setup.sh path validation', () => {
  const unsafe: [string, string][] = [
    ['../etc/passwd', '".." segment'],
    ['Desktop/../../etc/passwd', '".." segment'],
    ['/etc/passwd', 'is absolute'],
    ['~/Desktop/x.xlsx', 'without ~'],
    ['Desktop/a\nb.xlsx', 'control character'],
    ['Desktop/a\rb.xlsx', 'control character'],
    ['Desktop/a\u0000b.xlsx', 'control character'],
    ['-rf', 'starting with "-"'],
    ['Desktop/--version', 'starting with "-"'],
    [`Desktop/${'a'.repeat(256)}.xlsx`, 'longer than 255'],
    [`${'é'.repeat(130)}.xlsx`, 'longer than 255'],
    [`${'abcdefgh/'.repeat(120)}x.xlsx`, 'longer than 1024'],
    ['Desktop//x.xlsx', 'empty segment'],
    ['Desktop\\x.xlsx', 'backslash'],
  ];
  for (const [vmPath, reason] of unsafe) {
    test(`rejects ${JSON.stringify(vmPath.slice(0, 40))}`, () => {
      const files: FixtureFile[] = [
        { role: 'initial', vmPath, key: 'tasks/x/initial.xlsx', bytes: Buffer.from('x') },
      ];
      const { input } = calcPackageInput({ files });
      assert.throws(
        () => buildTaskPackage(input),
        (err: Error) => err.message.includes('unsafe path') && err.message.includes(reason),
      );
    });
  }

  test('rejects an unsafe object key and an extract target outside the downloads', () => {
    const files: FixtureFile[] = [
      { role: 'initial', vmPath: 'Desktop/a.xlsx', key: '../../secret', bytes: Buffer.from('x') },
    ];
    assert.throws(() => buildTaskPackage(calcPackageInput({ files }).input), /unsafe path "..\/..\/secret"/);
    const ok = calcPackageInput().input;
    ok.setup.push({ type: 'extract', archiveVmPath: 'profile.tar.gz', into: '~' });
    assert.throws(() => buildTaskPackage(ok), /extracts profile\.tar\.gz, which no earlier step downloads/);
  });
});

describe('setup.sh symlinks stay inside the home directory', () => {
  const refused: [string, string, RegExp][] = [
    ['Desktop/passwd', '/etc/passwd', /target "\/etc\/passwd" is absolute/],
    ['Desktop/up', '../../etc/shadow', /leaves the home directory/],
    ['latest', '..', /leaves the home directory/],
    ['Desktop/home', '~/.ssh', /starts with ~/],
    ['Desktop/x', 'a\nb', /control character/],
    ['Desktop/x', '', /an empty target/],
  ];
  for (const [link, target, reason] of refused) {
    test(`refuses a link ${link} -> ${JSON.stringify(target)}`, () => {
      const { input } = calcPackageInput();
      input.setup.push({ type: 'symlink', vmPath: link, target });
      assert.throws(
        () => buildTaskPackage(input),
        (err: Error) => reason.test(err.message) && err.message.includes(link),
      );
    });
  }
});

describe('setup.sh with hostile but legal names', () => {
  const weirdNames = [
    `Desktop/it's "quoted" $(touch ${marker}).xlsx`,
    `Desktop/back\`tick\` \`touch ${marker}\`/ünïcødé ✓ 数据.xlsx`,
    `Documents/$HOME and \${PATH} * ? [x] ;|&<>.txt`,
  ];
  const files: FixtureFile[] = weirdNames.map((vmPath, i) => ({
    role: 'initial',
    vmPath,
    key: `tasks/weird/${i}/${path.basename(vmPath)}`,
    bytes: Buffer.from(`content ${i} ${vmPath}`),
  }));
  const { input } = calcPackageInput({ files });
  // The marker holds slashes, so the link sits several directories down; its target climbs back.
  const hostileLink = `Links/$(touch ${marker}) latest`;
  const hostileTarget = `${'../'.repeat(hostileLink.split('/').length - 1)}${weirdNames[2]}`;
  input.instruction = `Open it's "file" ${hostile.join(' ')}\nand do things.`;
  const archiveDir = path.join(root, 'profile-src');
  mkdirSync(path.join(archiveDir, '.thunderbird', 'forge.default'), { recursive: true });
  writeFileSync(path.join(archiveDir, '.thunderbird', 'profiles.ini'), '[Profile0]\nPath=forge.default\n');
  writeFileSync(path.join(archiveDir, '.thunderbird', 'forge.default', 'prefs.js'), 'user_pref("a", 1);\n');
  const archiveBytes = execFileSync('tar', ['-cz', '-C', archiveDir, '.thunderbird']);
  const archive: FixtureFile = {
    role: 'initial',
    vmPath: `.cache/profile $(x).tar.gz`,
    key: 'tasks/weird/profile.tar.gz',
    bytes: archiveBytes,
  };
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
    { type: 'symlink', vmPath: hostileLink, target: hostileTarget },
    { type: 'symlink', vmPath: 'Links/sheet', target: "../Desktop/nested/../it's.xlsx" },
    { type: 'execute', command: ['printf', '%s\n', ...hostile] },
    { type: 'launch', command: ['true', ...hostile] },
    { type: 'sleep', seconds: 0.1 },
  ];
  const built = buildTaskPackage(input);

  test('the instruction keeps its text verbatim in task.json and never reaches the script', () => {
    assert.equal(built.taskJson.instruction, input.instruction);
    assert.ok(!built.setupSh.includes('Open it'));
  });

  test('shellcheck passes with no findings at any severity', () => {
    const script = path.join(root, 'check.sh');
    writeFileSync(script, built.setupSh);
    const result = spawnSync('shellcheck', ['--severity=style', '--shell=bash', script], {
      encoding: 'utf8',
    });
    assert.equal(result.stdout + result.stderr, '');
    assert.equal(result.status, 0);
  });

  test('running it places every file at its exact name and stays inert', () => {
    const pwnedBefore = existsSync('/tmp/pwned');
    const run = mkdtempSync(path.join(root, 'run-'));
    const home = path.join(run, 'home');
    const artifactDir = path.join(run, 'artifacts');
    const cwd = path.join(run, 'cwd');
    for (const dir of [home, artifactDir, cwd]) mkdirSync(dir);
    for (const f of [...files, archive]) {
      mkdirSync(path.dirname(path.join(artifactDir, f.key)), { recursive: true });
      writeFileSync(path.join(artifactDir, f.key), f.bytes);
    }
    const script = path.join(run, 'setup.sh');
    writeFileSync(script, built.setupSh);
    const result = spawnSync('bash', [script], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, FORGE_ARTIFACT_DIR: artifactDir },
    });
    assert.equal(result.status, 0, result.stderr);
    for (const f of files) assert.deepEqual(readFileSync(path.join(home, f.vmPath)), f.bytes, f.vmPath);
    assert.equal(
      readFileSync(path.join(home, '.thunderbird/forge.default/prefs.js'), 'utf8'),
      'user_pref("a", 1);\n',
    );
    assert.ok(existsSync(path.join(home, `Work/new dir $(touch ${marker})`)));
    assert.equal(
      spawnSync('stat', ['-c', '%a', path.join(home, weirdNames[2] as string)], {
        encoding: 'utf8',
      }).stdout.trim(),
      '600',
    );
    // Symlinks: created with their relative targets, exactly as given.
    const link = path.join(home, hostileLink);
    assert.equal(readlinkSync(link), hostileTarget);
    assert.deepEqual(readFileSync(link), (files[2] as FixtureFile).bytes, 'the link resolves to the file');
    assert.equal(readlinkSync(path.join(home, 'Links/sheet')), "../Desktop/nested/../it's.xlsx");
    // The hostile arguments were printed literally, not run.
    assert.equal(result.stdout, `${hostile.join('\n')}\n`);
    assert.ok(!existsSync(marker), 'a command substitution ran');
    if (!pwnedBefore) assert.ok(!existsSync('/tmp/pwned'), '/tmp/pwned was created');
    // Nothing was written outside HOME: the working and artifact directories are untouched.
    assert.deepEqual(readdirSync(cwd), []);
    assert.deepEqual(readdirSync(run).sort(), ['artifacts', 'cwd', 'home', 'setup.sh']);
    assert.ok(
      !readdirSync(home).some((n) => n.startsWith('.cua-forge-setup')),
      'temporary directory left behind',
    );
  });

  test('a file whose bytes do not match its sha256 is refused and not put in place', () => {
    const run = mkdtempSync(path.join(root, 'bad-'));
    const home = path.join(run, 'home');
    const artifactDir = path.join(run, 'artifacts');
    mkdirSync(home);
    for (const f of [...files, archive]) {
      mkdirSync(path.dirname(path.join(artifactDir, f.key)), { recursive: true });
      writeFileSync(path.join(artifactDir, f.key), f === files[0] ? Buffer.from('tampered') : f.bytes);
    }
    const script = path.join(run, 'setup.sh');
    writeFileSync(script, built.setupSh);
    const result = spawnSync('bash', [script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, FORGE_ARTIFACT_DIR: artifactDir },
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /FAILED|did NOT match/);
    assert.ok(!existsSync(path.join(home, (files[0] as FixtureFile).vmPath)));
  });
});

describe("the OS manifest's symlinks become setup steps", () => {
  test('a manifest symlink is a symlink step; its OSWorld form passes the pack rules', async () => {
    const state = { prepares: [] } as unknown as TaskState;
    const steps = setupStepsFor(
      state,
      [],
      {
        version: 1,
        entries: [
          { path: 'shared', type: 'dir' },
          { path: 'bin/latest', type: 'symlink', target: '../shared/run.sh' },
        ],
      },
      [],
    );
    assert.deepEqual(
      steps.filter((s) => s.type === 'symlink'),
      [{ type: 'symlink', vmPath: 'bin/latest', target: '../shared/run.sh' }],
    );
    const [osworld] = await setupStep(steps.find((s) => s.type === 'symlink')!, {} as OsworldContext);
    assert.ok(osworld);
    const command = (osworld.parameters as { command: string[] }).command;
    assert.deepEqual(command, ['ln', '-sfnr', '--', '/home/user/shared/run.sh', '/home/user/bin/latest']);
    assert.equal(commandProblem(command), null);
    assert.match(
      commandProblem(['ln', '-sfn', '--', '../../etc/passwd', '/home/user/x']) ?? '',
      /"\.\." segment/,
    );
  });
});
