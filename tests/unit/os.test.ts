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
