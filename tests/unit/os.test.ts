import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  OS_MANIFEST_PATH,
  osPreparer as os,
  osManifestOf,
  withoutOsManifest,
} from '../../preparers/os/index.ts';
import { safeRelativePath } from '../../preparers/paths.ts';
import type { FileMap } from '../../preparers/types.ts';

const DOC = os.docSchema.parse({
  entries: [
    { path: 'Documents/notes.txt', content: 'alpha\nbeta\n' },
    { path: 'Documents/empty', type: 'dir' },
    { path: 'bin/run.sh', content: '#!/bin/sh\necho hi\n', mode: '0644' },
    { path: 'latest', type: 'symlink', target: 'Documents/notes.txt' },
    { path: 'Pictures/a.png', base64: 'iVBORw0KGgo=' },
  ],
});

const probe = async (files: FileMap, check: unknown) =>
  (await os.probe(files, os.checkSchema.parse(check))).pass;
const apply = (files: FileMap, edit: unknown) => os.apply(files, [os.editSchema.parse(edit)]);

describe('os preparer', () => {
  test('build records dirs, symlinks and modes in the manifest', async () => {
    const files = await os.build('', DOC);
    const manifest = osManifestOf(files);
    assert.deepEqual(
      manifest.entries.find((e) => e.path === 'Documents/empty'),
      { path: 'Documents/empty', type: 'dir', mode: '0755' },
    );
    assert.deepEqual(
      manifest.entries.find((e) => e.path === 'latest'),
      { path: 'latest', type: 'symlink', target: 'Documents/notes.txt' },
    );
    assert.equal(OS_MANIFEST_PATH in withoutOsManifest(files), false);
    assert.deepEqual(Object.keys(withoutOsManifest(files)).sort(), [
      'Documents/notes.txt',
      'Pictures/a.png',
      'bin/run.sh',
    ]);
  });

  const cases: [string, unknown, unknown][] = [
    [
      'write_file',
      { op: 'os.write_file', path: 'out/report.txt', content: 'done\n' },
      { kind: 'os.content_equals', path: 'out/report.txt', content: 'done', ignoreTrailingWhitespace: true },
    ],
    [
      'mkdir',
      { op: 'os.mkdir', path: 'Projects/2024' },
      { kind: 'os.exists', path: 'Projects/2024', type: 'dir' },
    ],
    [
      'move',
      { op: 'os.move', from: 'Documents', to: 'Archive/Docs' },
      { kind: 'os.tree', path: 'Archive', entries: ['Docs/', 'Docs/empty/', 'Docs/notes.txt'] },
    ],
    [
      'move removes source',
      { op: 'os.move', from: 'Documents/notes.txt', to: 'notes.txt' },
      { kind: 'os.absent', path: 'Documents/notes.txt' },
    ],
    [
      'copy',
      { op: 'os.copy', from: 'Documents/notes.txt', to: 'Backup/notes.txt' },
      { kind: 'os.content_matches', path: 'Backup/notes.txt', pattern: '^beta$', flags: 'm' },
    ],
    ['delete', { op: 'os.delete', path: 'Pictures' }, { kind: 'os.absent', path: 'Pictures/a.png' }],
    [
      'chmod',
      { op: 'os.chmod', path: 'bin/run.sh', mode: '755' },
      { kind: 'os.mode', path: 'bin/run.sh', mode: '0755' },
    ],
    [
      'archive tar.gz',
      { op: 'os.archive', sources: ['Documents'], to: 'docs.tar.gz' },
      {
        kind: 'os.archive_contains',
        path: 'docs.tar.gz',
        entries: ['Documents/notes.txt', 'Documents/empty/'],
        exact: true,
      },
    ],
    [
      'archive zip with base',
      { op: 'os.archive', sources: ['Documents/notes.txt'], base: 'Documents', to: 'n.zip' },
      { kind: 'os.archive_contains', path: 'n.zip', entries: ['notes.txt'] },
    ],
    [
      'replace_in_file',
      { op: 'os.replace_in_file', path: 'Documents/notes.txt', find: 'beta', replace: 'gamma' },
      { kind: 'os.content_equals', path: 'latest', content: 'alpha\ngamma\n' },
    ],
    [
      'replace_in_file regex',
      {
        op: 'os.replace_in_file',
        path: 'Documents/notes.txt',
        find: '^(a\\w+)$',
        replace: '[$1]',
        regex: true,
      },
      { kind: 'os.content_matches', path: 'Documents/notes.txt', pattern: '^\\[alpha\\]$', flags: 'm' },
    ],
  ];
  for (const [name, edit, check] of cases) {
    test(`${name}: the check fails initially and passes after the edit`, async () => {
      const files = await os.build('', DOC);
      assert.equal(await probe(files, check), false, 'initial state fails');
      assert.equal(await probe(await apply(files, edit), check), true, 'edited state passes');
    });
  }

  test('binary content and non-recursive tree', async () => {
    const files = await os.build('', DOC);
    assert.equal(
      await probe(files, { kind: 'os.content_equals', path: 'Pictures/a.png', base64: 'iVBORw0KGgo=' }),
      true,
    );
    assert.equal(
      await probe(files, {
        kind: 'os.tree',
        path: 'Documents',
        entries: ['empty/', 'notes.txt'],
        recursive: false,
      }),
      true,
    );
    assert.equal(await probe(files, { kind: 'os.tree', path: 'Documents', entries: ['notes.txt'] }), false);
  });

  test('edits fail loudly on missing paths and file/dir clashes', async () => {
    const files = await os.build('', DOC);
    await assert.rejects(apply(files, { op: 'os.delete', path: 'nope' }), /nope does not exist/);
    await assert.rejects(
      apply(files, { op: 'os.write_file', path: 'Documents/notes.txt/x', content: '' }),
      /not a directory/,
    );
    await assert.rejects(
      apply(files, { op: 'os.replace_in_file', path: 'Documents/notes.txt', find: 'zzz', replace: '' }),
      /does not contain/,
    );
  });

  test('safeRelativePath refuses unsafe paths', () => {
    for (const bad of [
      '/etc/passwd',
      '../x',
      'a/../b',
      'a//b',
      'a/',
      '-rf',
      'a/-x',
      'a\u0000b',
      'a\\b',
      '.',
      '',
    ])
      assert.equal(safeRelativePath.safeParse(bad).success, false, JSON.stringify(bad));
    for (const good of ['a', '.bashrc', 'Documents/My File (1).txt', 'a/b-c/d'])
      assert.equal(safeRelativePath.safeParse(good).success, true, good);
    assert.equal(
      os.docSchema.safeParse({ entries: [{ path: OS_MANIFEST_PATH, content: '' }] }).success,
      false,
    );
  });

  test('property: probe reads back what build wrote', async () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
    const entry = fc.record({
      path: fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/')),
      content: fc.string({ maxLength: 50 }),
      mode: fc.constantFrom('0600', '0644', '0755', '0700'),
    });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(entry, { selector: (e) => e.path, maxLength: 6 }), async (entries) => {
        // Drop entries that would need another entry to be both a file and a directory.
        const kept = entries.filter((e) => !entries.some((o) => o !== e && o.path.startsWith(`${e.path}/`)));
        const files = await os.build('', os.docSchema.parse({ entries: kept }));
        for (const e of kept) {
          assert.equal(
            await probe(files, { kind: 'os.content_equals', path: e.path, content: e.content }),
            true,
          );
          assert.equal(await probe(files, { kind: 'os.mode', path: e.path, mode: e.mode }), true);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('os preparer: links, extraction, appending, archive formats', () => {
  const pyChecker = async () => {
    const { checkerSource } = await import('../../preparers/checker/assemble.ts');
    return checkerSource().text;
  };

  test('os.symlink + os.symlink_to: relative targets resolve; a copy, a wrong target or a leaving link fail', async () => {
    const files = await os.build('', DOC);
    const check = { kind: 'os.symlink_to', path: 'Desktop/notes', to: 'Documents/notes.txt' };
    assert.equal(await probe(files, check), false, 'missing link');
    const linked = await apply(files, {
      op: 'os.symlink',
      path: 'Desktop/notes',
      target: '../Documents/notes.txt',
    });
    assert.equal(await probe(linked, check), true);
    // The existing root link points at the same file: also "to" it.
    assert.equal(
      await probe(files, { kind: 'os.symlink_to', path: 'latest', to: 'Documents/notes.txt' }),
      true,
    );
    const copied = await apply(files, { op: 'os.copy', from: 'Documents/notes.txt', to: 'Desktop/notes' });
    assert.equal(await probe(copied, check), false, 'a copy is not a link');
    const wrong = await apply(files, {
      op: 'os.symlink',
      path: 'Desktop/notes',
      target: 'Documents/notes.txt',
    });
    assert.equal(await probe(wrong, check), false, 'target relative to the wrong directory');
    await assert.rejects(
      apply(files, { op: 'os.symlink', path: 'Desktop/x', target: '../../etc/passwd' }),
      /leaves the home directory/,
    );
    await assert.rejects(
      apply(files, { op: 'os.symlink', path: 'x', target: '/etc/passwd' }),
      /leaves the home/,
    );
    // `ln -s ~/Documents/notes.txt Desktop/notes`: the shell expands ~, so the target is absolute.
    const absolute = await apply(files, {
      op: 'os.symlink',
      path: 'Desktop/notes',
      target: '/home/user/Documents/notes.txt',
    });
    assert.equal(await probe(absolute, check), true, 'an absolute target inside home');
    for (const target of ['/home/user/../../etc/passwd', '/home/username/Documents/notes.txt', '/home/user'])
      await assert.rejects(
        apply(files, { op: 'os.symlink', path: 'Desktop/y', target }),
        /leaves the home/,
        target,
      );
    await assert.rejects(apply(files, { op: 'os.symlink', path: 'latest', target: 'bin' }), /already exists/);
  });

  test('doc archives build deterministically and os.extract lays their members out', async () => {
    const doc = os.docSchema.parse({
      entries: [{ path: 'Downloads/readme.txt', content: 'hi\n' }],
      archives: [
        {
          path: 'Downloads/bank.zip',
          members: [
            { path: 'statements/june.csv', content: 'a,b\n1,2\n' },
            { path: 'statements/run.sh', content: '#!/bin/sh\n', mode: '0755' },
          ],
        },
        { path: 'Downloads/logs.tar.gz', members: [{ path: 'app.log', content: 'ok\n' }] },
      ],
    });
    const a = await os.build('', doc);
    const b = await os.build('', doc);
    assert.deepEqual(a['Downloads/bank.zip'], b['Downloads/bank.zip'], 'same members, same bytes');
    for (const [archive, format] of [
      ['Downloads/bank.zip', 'zip'],
      ['Downloads/logs.tar.gz', 'tar.gz'],
    ] as const) {
      assert.equal(
        await probe(a, { kind: 'os.archive_contains', path: archive, entries: ['x'], format }),
        false,
        'missing member',
      );
    }
    const out = await apply(a, { op: 'os.extract', archive: 'Downloads/bank.zip', to: 'Documents/bank' });
    assert.equal(
      await probe(out, {
        kind: 'os.content_equals',
        path: 'Documents/bank/statements/june.csv',
        content: 'a,b\n1,2\n',
      }),
      true,
    );
    assert.equal(
      await probe(out, { kind: 'os.mode', path: 'Documents/bank/statements/run.sh', mode: '0755' }),
      true,
    );
    const tgz = await apply(a, { op: 'os.extract', archive: 'Downloads/logs.tar.gz', to: 'logs' });
    assert.equal(await probe(tgz, { kind: 'os.tree', path: 'logs', entries: ['app.log'] }), true);
    await assert.rejects(apply(a, { op: 'os.extract', archive: 'Downloads/readme.txt', to: 'x' }), /edit 0/);
  });

  test('archive_contains format: the bytes decide, not the name', async () => {
    const files = await os.build('', DOC);
    const members = { entries: ['Documents/notes.txt'], exact: false };
    for (const format of ['tar', 'tar.gz', 'zip'] as const) {
      const made = await apply(files, {
        op: 'os.archive',
        sources: ['Documents'],
        to: 'docs.tar.gz',
        format,
      });
      for (const want of ['tar', 'tar.gz', 'zip'] as const)
        assert.equal(
          await probe(made, { kind: 'os.archive_contains', path: 'docs.tar.gz', ...members, format: want }),
          want === format,
          `${format} bytes checked as ${want}`,
        );
    }
  });

  test('os.append_file appends, creating the file when missing', async () => {
    const files = await os.build('', DOC);
    const out = await apply(files, { op: 'os.append_file', path: 'Documents/notes.txt', content: 'gamma\n' });
    assert.equal(
      await probe(out, {
        kind: 'os.content_equals',
        path: 'Documents/notes.txt',
        content: 'alpha\nbeta\ngamma\n',
      }),
      true,
    );
    const fresh = await apply(files, { op: 'os.append_file', path: 'new/log.txt', content: 'x' });
    assert.equal(await probe(fresh, { kind: 'os.content_equals', path: 'new/log.txt', content: 'x' }), true);
  });

  test('the Python checker gives the same verdicts for symlink_to (relative and absolute targets) and archive formats', async (t) => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { materializeHome, SYSTEM_PYTHON } = await import('../support/checkerHome.ts');
    const work = mkdtempSync(join(tmpdir(), 'forge-os-unit-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const checker = join(work, 'check.py');
    writeFileSync(checker, await pyChecker());
    const base = await os.build('', DOC);
    const states = [
      base,
      await apply(base, { op: 'os.symlink', path: 'Desktop/notes', target: '../Documents/notes.txt' }),
      await apply(base, { op: 'os.symlink', path: 'Desktop/notes', target: 'Documents/notes.txt' }),
      await apply(base, {
        op: 'os.symlink',
        path: 'Desktop/notes',
        target: '/home/user/Documents/notes.txt',
      }),
      await apply(base, { op: 'os.symlink', path: 'Desktop/notes', target: '/home/user/Documents' }),
      await apply(base, { op: 'os.copy', from: 'Documents/notes.txt', to: 'Desktop/notes' }),
      await apply(base, { op: 'os.archive', sources: ['Documents'], to: 'Desktop/notes', format: 'tar' }),
      await apply(base, { op: 'os.archive', sources: ['Documents'], to: 'Desktop/notes', format: 'zip' }),
    ];
    const checks = [
      { kind: 'os.symlink_to', path: 'Desktop/notes', to: 'Documents/notes.txt' },
      { kind: 'os.symlink_to', path: 'latest', to: 'Documents/notes.txt' },
      { kind: 'os.symlink_to', path: 'latest', to: 'Documents' },
      ...(['tar', 'tar.gz', 'zip'] as const).map((format) => ({
        kind: 'os.archive_contains',
        path: 'Desktop/notes',
        entries: ['Documents/notes.txt'],
        format,
      })),
    ].map((c) => os.checkSchema.parse(c));
    const jobs = [];
    for (const [i, files] of states.entries()) {
      const home = join(work, `home-${i}`);
      await materializeHome(home, files);
      jobs.push({ home, checks });
    }
    const jobsFile = join(work, 'jobs.json');
    writeFileSync(jobsFile, JSON.stringify(jobs));
    const python = JSON.parse(
      execFileSync(SYSTEM_PYTHON, [checker, jobsFile, '--batch'], { encoding: 'utf8' }),
    );
    for (const [i, files] of states.entries())
      for (const [k, check] of checks.entries())
        assert.equal(python[i][k].pass, (await os.probe(files, check)).pass, `state ${i} check ${k}`);
    assert.deepEqual(
      python.map((verdicts: { pass: boolean }[]) => verdicts[0]!.pass),
      [false, true, false, true, false, false, false, false],
    );
  });
});
