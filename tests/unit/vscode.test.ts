import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { profileProblem } from '../../preparers/profiles/gate.ts';
import { preparers, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { vscodePreparer as vs } from '../../preparers/vscode/index.ts';
import { normalizeChord } from '../../preparers/vscode/keys.ts';
import { vscodeOsworld } from '../../preparers/vscode/osworld.ts';
import { USER_KEYBINDINGS, USER_SETTINGS } from '../../preparers/vscode/paths.ts';
import { assertVerdicts, shippedVerdicts } from '../support/checkerHome.ts';

const WS = 'projects/shop';
const DOC = vs.docSchema.parse({
  settings: {
    'workbench.colorTheme': 'Default Dark Modern',
    'editor.fontSize': 14,
    'files.autoSave': 'afterDelay',
  },
  settingsComments: { 'files.autoSave': 'keep: saves after a second' },
  keybindings: [{ key: 'ctrl+k ctrl+t', command: 'workbench.action.selectTheme' }],
  files: [
    { path: 'shop.py', content: 'def total(items):\n    return sum(items)\n' },
    {
      path: 'test_shop.py',
      content:
        'import unittest\nfrom shop import total\n\n\nclass T(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([1, 2]), 3)\n',
    },
  ],
});

const text = (files: FileMap, path: string) => Buffer.from(files[path]!).toString('utf8');
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const probe = async (files: FileMap, check: unknown) =>
  (await vs.probe(files, vs.checkSchema.parse(check))).pass;
const apply = (files: FileMap, ...edits: unknown[]) =>
  vs.apply(
    files,
    edits.map((e) => vs.editSchema.parse(e)),
  );
const invariantsPass = async (initial: FileMap, solved: FileMap, state: FileMap) => {
  const checks = await vs.invariants(initial, solved, Object.keys(initial));
  const verdicts = await Promise.all(checks.map((c) => vs.probe(state, c)));
  return verdicts.every((v) => v.pass);
};

describe('vscode preparer', () => {
  test('build writes settings.json as VS Code does, with the note above its key', async () => {
    const files = await vs.build(WS, DOC);
    const settings = text(files, USER_SETTINGS);
    assert.match(settings, /^\{\n {4}"workbench\.colorTheme": "Default Dark Modern",\n/);
    assert.match(
      settings,
      /\n {4}\/\/ keep: saves after a second\n {4}"files\.autoSave": "afterDelay"\n\}\n$/,
    );
    assert.match(text(files, USER_KEYBINDINGS), /^\/\/ Place your key bindings/);
    assert.ok(`${WS}/shop.py` in files);
  });

  test('set_setting keeps comments, other keys and their order', async () => {
    const files = await apply(await vs.build(WS, DOC), {
      op: 'vscode.set_setting',
      key: 'editor.tabSize',
      value: 2,
    });
    const settings = text(files, USER_SETTINGS);
    assert.match(settings, /\/\/ keep: saves after a second/);
    assert.ok(settings.indexOf('workbench.colorTheme') < settings.indexOf('editor.tabSize'));
    assert.equal(await probe(files, { kind: 'vscode.setting', key: 'editor.tabSize', value: 2 }), true);
  });

  test('a setting is read by value: comments, trailing commas, another key order and tabs all pass', async () => {
    const files: FileMap = {
      [USER_SETTINGS]: utf8(
        '// my settings\n{\n\t/* big */ "editor.fontSize": 16.0,\n\t"files.exclude": {"**/b": true, "**/a": true,},\n}\n',
      ),
    };
    assert.equal(await probe(files, { kind: 'vscode.setting', key: 'editor.fontSize', value: 16 }), true);
    assert.equal(
      await probe(files, {
        kind: 'vscode.setting',
        key: 'files.exclude',
        value: { '**/a': true, '**/b': true },
      }),
      true,
    );
    assert.equal(await probe(files, { kind: 'vscode.setting', key: 'editor.fontSize', value: '16' }), false);
  });

  test('a broken settings file fails every check on it, with the reason', async () => {
    const files: FileMap = {
      [USER_SETTINGS]: utf8('{\n    "editor.fontSize": 16\n    "editor.tabSize": 2\n}\n'),
    };
    const r = await probeCheck(
      files,
      vs.checkSchema.parse({ kind: 'vscode.setting', key: 'editor.fontSize', value: 16 }),
    );
    assert.deepEqual(r, {
      pass: false,
      observed: { error: `${USER_SETTINGS} is not valid JSON with comments` },
    });
  });

  test("an absent key has the check's default; an object setting merges over its default", async () => {
    const none: FileMap = { [USER_SETTINGS]: utf8('{}') };
    assert.equal(
      await probe(none, {
        kind: 'vscode.setting',
        key: 'editor.minimap.enabled',
        value: true,
        default: true,
      }),
      true,
    );
    assert.equal(
      await probe(none, { kind: 'vscode.setting', key: 'editor.minimap.enabled', value: true }),
      false,
    );
    assert.equal(
      await probe(none, { kind: 'vscode.setting', key: 'editor.minimap.enabled', absent: true }),
      true,
    );
    const withDefaults: FileMap = {
      [USER_SETTINGS]: utf8('{"files.exclude": {"**/.git": true, "**/dist": true, "**/__pycache__": true}}'),
    };
    const check = {
      kind: 'vscode.setting',
      key: 'files.exclude',
      value: { '**/dist': true, '**/__pycache__': true },
      default: { '**/.git': true, '**/.svn': true },
    };
    assert.equal(await probe(withDefaults, check), true);
    const dropped: FileMap = { [USER_SETTINGS]: utf8('{"files.exclude": {"**/__pycache__": true}}') };
    assert.equal(await probe(dropped, check), false);
  });

  test('rulers in any order with unordered; a missing or extra column still fails, in both checkers', async () => {
    const rulers = (json: string): FileMap => ({ [USER_SETTINGS]: utf8(`{"editor.rulers": ${json}}`) });
    const check = vs.checkSchema.parse({
      kind: 'vscode.setting',
      key: 'editor.rulers',
      value: [80, 120],
      default: [],
      unordered: true,
    });
    const states: Record<string, FileMap> = {
      same: rulers('[80, 120]'),
      reversed: rulers('[120, 80]'),
      missing: rulers('[80]'),
      extra: rulers('[80, 100, 120]'),
      twice: rulers('[80, 80]'),
    };
    const want = { same: true, reversed: true, missing: false, extra: false, twice: false };
    for (const [name, files] of Object.entries(states))
      assert.equal(await probe(files, check), want[name as keyof typeof want], name);
    // Without unordered the order counts, as before.
    assert.equal(await probe(states.reversed!, { ...check, unordered: undefined }), false);
    const verdicts = await shippedVerdicts(states, [check]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      Object.keys(states).map((k) => want[k as keyof typeof want]),
      'the shipped checker agrees',
    );
  });

  test('a language-scoped setting is read from its [language] section only', async () => {
    const files = await apply(await vs.build(WS, DOC), {
      op: 'vscode.set_setting',
      language: 'makefile',
      key: 'editor.insertSpaces',
      value: false,
    });
    assert.match(text(files, USER_SETTINGS), /"\[makefile\]": \{\n {8}"editor\.insertSpaces": false\n {4}\}/);
    const scoped = { kind: 'vscode.setting', language: 'makefile', key: 'editor.insertSpaces', value: false };
    assert.equal(await probe(files, scoped), true);
    assert.equal(
      await probe(files, { kind: 'vscode.setting', key: 'editor.insertSpaces', value: false }),
      false,
    );
  });

  test('key chords compare as VS Code reads them; the when clause counts when asked', async () => {
    assert.equal(normalizeChord('Shift+Ctrl+K'), 'ctrl+shift+k');
    assert.equal(normalizeChord('cmd+k  Ctrl+C'), 'meta+k ctrl+c');
    const files = await apply(await vs.build(WS, DOC), {
      op: 'vscode.add_keybinding',
      key: 'shift+ctrl+d',
      command: 'editor.action.copyLinesDownAction',
      when: 'editorTextFocus && !editorReadonly',
    });
    const base = {
      kind: 'vscode.keybinding',
      key: 'ctrl+shift+d',
      command: 'editor.action.copyLinesDownAction',
    };
    assert.equal(await probe(files, base), true);
    assert.equal(await probe(files, { ...base, when: 'editorTextFocus&&!editorReadonly' }), true);
    assert.equal(await probe(files, { ...base, when: 'terminalFocus' }), false);
    assert.equal(await probe(files, { ...base, key: 'alt+shift+d' }), false);
    assert.equal(await probe(files, { ...base, present: false }), false);
    assert.match(text(files, USER_KEYBINDINGS), /^\/\/ Place your key bindings/);
  });

  test('a removal rule without a when clause removes the binding under any when; with another it does not', async () => {
    const initial = await vs.build(WS, DOC);
    const removal = (when?: string) =>
      apply(initial, { op: 'vscode.add_keybinding', key: 'ctrl+f', command: '-list.find', when });
    const states: Record<string, FileMap> = {
      exact: await removal('listFocus && listSupportsFind'),
      bare: await removal(),
      always: await removal('true'),
      other: await removal('editorFocus'),
    };
    const want = { exact: true, bare: true, always: true, other: false };
    const check = {
      kind: 'vscode.keybinding',
      key: 'ctrl+f',
      command: '-list.find',
      when: 'listFocus && listSupportsFind',
    };
    for (const [name, files] of Object.entries(states))
      assert.equal(await probe(files, check), want[name as keyof typeof want], name);
    // A binding (not a removal) still needs its own when clause.
    const bound = await apply(initial, { op: 'vscode.add_keybinding', key: 'ctrl+f', command: 'list.find' });
    assert.equal(await probe(bound, { ...check, command: 'list.find' }), false);
    const verdicts = await shippedVerdicts(states, [vs.checkSchema.parse(check)]);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      Object.keys(states).map((k) => want[k as keyof typeof want]),
      'the shipped checker agrees',
    );
  });

  test('an INI file compares a key = value line however it is spaced; its key, value and other lines still count', async () => {
    const cfg = '[server]\nhost = 0.0.0.0\nport = 8080\n; staging proxy\n\n[logging]\nlevel = DEBUG\n';
    const initial = await vs.build(
      WS,
      vs.docSchema.parse({ ...DOC, files: [{ path: 'app.cfg', content: cfg }] }),
    );
    const write = (content: string) =>
      apply(initial, { op: 'vscode.write_file', path: `${WS}/app.cfg`, content });
    const oracle = cfg.replace('port = 8080', 'port = 8443');
    const states: Record<string, FileMap> = {
      oracle: await write(oracle),
      tight: await write(cfg.replace('port = 8080', 'port=8443')),
      wide: await write(cfg.replace('port = 8080', '  port   =  8443  ')),
      quoted: await write(cfg.replace('port = 8080', 'port = "8443"')),
      otherKey: await write(cfg.replace('port = 8080', 'ports = 8443')),
      commentSpaced: await write(oracle.replace('; staging proxy', ';staging proxy')),
      untouched: initial,
    };
    const checks = [true, false].map((ini) =>
      vs.checkSchema.parse({ kind: 'vscode.text', file: `${WS}/app.cfg`, content: oracle, ini }),
    );
    const want: Record<string, boolean[]> = {
      oracle: [true, true],
      tight: [true, false],
      wide: [true, false],
      quoted: [false, false],
      otherKey: [false, false],
      // Only key = value lines are read loosely: a comment is text.
      commentSpaced: [false, false],
      untouched: [false, false],
    };
    await assertVerdicts(states, checks, want, (files, c) => vs.probe(files, c));
    // OSWorld's compare_text_file compares whole texts: an INI check is left to our checker.
    assert.deepEqual(
      checks.map((c) => vscodeOsworld['vscode.text']!(c).ok),
      [false, true],
    );
  });

  test('indentation detection may be turned off with the tab settings, and only with them', async () => {
    const initial = await vs.build(WS, DOC);
    const detectOff = { op: 'vscode.set_setting', key: 'editor.detectIndentation', value: false };
    const tabs = await apply(initial, { op: 'vscode.set_setting', key: 'editor.tabSize', value: 2 });
    assert.equal(await invariantsPass(initial, tabs, await apply(tabs, detectOff)), true);
    const font = await apply(initial, { op: 'vscode.set_setting', key: 'editor.fontSize', value: 16 });
    assert.equal(await invariantsPass(initial, font, await apply(font, detectOff)), false);
  });

  test('invariants catch a setting in the wrong scope, a lost key, a lost binding and a stray file', async () => {
    const initial = await vs.build(WS, DOC);
    const solved = await apply(initial, { op: 'vscode.set_setting', key: 'editor.fontSize', value: 16 });
    assert.equal(await invariantsPass(initial, solved, solved), true);
    const both = await apply(solved, {
      op: 'vscode.set_setting',
      settings: `${WS}/.vscode/settings.json`,
      key: 'editor.fontSize',
      value: 16,
    });
    assert.equal(await invariantsPass(initial, solved, both), false);
    const lost = await apply(solved, { op: 'vscode.remove_setting', key: 'files.autoSave' });
    assert.equal(await invariantsPass(initial, solved, lost), false);
    const unbound = await apply(solved, {
      op: 'vscode.remove_keybinding',
      key: 'ctrl+k ctrl+t',
      command: 'workbench.action.selectTheme',
    });
    assert.equal(await invariantsPass(initial, solved, unbound), false);
    const stray = { ...solved, [`${WS}/notes.txt`]: utf8('x') };
    assert.equal(await invariantsPass(initial, solved, stray), false);
    // Byte-code caches and hidden folders other than .vscode are not the task's files.
    const cache = {
      ...solved,
      [`${WS}/__pycache__/shop.cpython-311.pyc`]: utf8('x'),
      [`${WS}/.git/HEAD`]: utf8('x'),
    };
    assert.equal(await invariantsPass(initial, solved, cache), true);
  });

  test('mutants: the checkbox flipped, the other scope, the language dropped, the when clause dropped', async () => {
    const initial = await vs.build(WS, DOC);
    const edits = [
      vs.editSchema.parse({ op: 'vscode.set_setting', key: 'editor.formatOnSave', value: true }),
      vs.editSchema.parse({
        op: 'vscode.set_setting',
        language: 'go',
        key: 'editor.insertSpaces',
        value: false,
      }),
      vs.editSchema.parse({
        op: 'vscode.add_keybinding',
        key: 'ctrl+j',
        command: 'workbench.action.focusActiveEditorGroup',
        when: 'terminalFocus',
      }),
    ];
    const names = (await vs.mutants!(edits, initial)).map((m) => m.name);
    assert.ok(names.some((n) => n.includes('value true → false')));
    assert.ok(names.some((n) => n.includes(`${WS}/.vscode/settings.json`)));
    assert.ok(names.some((n) => n.includes('for every language')));
    assert.ok(names.some((n) => n.includes('without its when clause')));
    assert.ok(names.some((n) => n.includes('key ctrl+j → alt+j')));
  });

  test('bulk renames without whole words', () => {
    const edits = [
      vs.editSchema.parse({
        op: 'vscode.replace_text',
        path: `${WS}/shop.py`,
        find: 'total',
        replace: 'sum_all',
        word: true,
      }),
    ];
    assert.deepEqual(
      vs.bulk(edits)?.map((e) => (e as { word?: boolean }).word),
      [false],
    );
  });

  test('text and line checks: CRLF reads as LF, lines in any order', async () => {
    const files: FileMap = { [`${WS}/.gitignore`]: utf8('dist/\r\n*.log  \r\n\r\n.env\r\n') };
    assert.equal(
      await probe(files, {
        kind: 'vscode.text',
        file: `${WS}/.gitignore`,
        content: 'dist/\n*.log  \n\n.env\n',
      }),
      true,
    );
    assert.equal(
      await probe(files, {
        kind: 'vscode.lines',
        file: `${WS}/.gitignore`,
        lines: ['.env', 'dist/', '*.log'],
      }),
      true,
    );
    assert.equal(
      await probe(files, { kind: 'vscode.lines', file: `${WS}/.gitignore`, lines: ['.env', 'dist/'] }),
      false,
    );
  });

  test('a .gitignore read with comments as nothing: a comment added passes, a pattern commented out does not', async () => {
    const file = `${WS}/.gitignore`;
    const check = { kind: 'vscode.lines', file, lines: ['# build output', 'dist/', '*.log'], comments: '#' };
    await assertVerdicts(
      {
        asked: { [file]: utf8('# build output\ndist/\n*.log\n') },
        commentAdded: { [file]: utf8('dist/\n\n# logs from the test runs\n*.log\n') },
        commentedOut: { [file]: utf8('# build output\ndist/\n#*.log\n') },
        patternLost: { [file]: utf8('# build output\n# *.log\ndist/\n') },
      },
      [check, { ...check, comments: undefined }],
      {
        asked: [true, true],
        commentAdded: [true, false],
        commentedOut: [false, false],
        patternLost: [false, false],
      },
      async (files, c) => ({ pass: await probe(files, c) }),
    );
  });

  test("tests_pass runs the folder's unit tests: passing, failing and no tests at all", async () => {
    const files = await vs.build(WS, DOC);
    assert.equal(await probe(files, { kind: 'vscode.tests_pass', dir: WS }), true);
    const broken = await apply(files, {
      op: 'vscode.replace_text',
      path: `${WS}/shop.py`,
      find: 'sum(items)',
      replace: 'sum(items) + 1',
    });
    assert.equal(await probe(broken, { kind: 'vscode.tests_pass', dir: WS }), false);
    const none = { [`${WS}/shop.py`]: files[`${WS}/shop.py`]! };
    assert.equal(await probe(none, { kind: 'vscode.tests_pass', dir: WS }), false);
  });

  test('profile policy: allowlisted settings and commands only, no tasks, launch, profiles or args', () => {
    const file = (s: string) => ({ type: 'file' as const, bytes: utf8(s) });
    assert.equal(
      profileProblem(USER_SETTINGS, file('{"editor.fontSize": 14, "[python]": {"editor.tabSize": 4}}')),
      null,
    );
    assert.match(
      profileProblem(
        USER_SETTINGS,
        file('{"terminal.integrated.profiles.linux": {"x": {"path": "/bin/sh"}}}'),
      ) ?? '',
      /VS Code/,
    );
    assert.notEqual(
      profileProblem(USER_SETTINGS, file('{"python.defaultInterpreterPath": "/tmp/evil"}')),
      null,
    );
    assert.notEqual(
      profileProblem(USER_SETTINGS, file('{"[python]": {"terminal.integrated.shell.linux": "sh"}}')),
      null,
    );
    assert.notEqual(profileProblem(USER_SETTINGS, file('{"editor.fontSize": 14')), null);
    assert.equal(
      profileProblem(
        USER_KEYBINDINGS,
        file('[{"key": "ctrl+j", "command": "workbench.action.focusActiveEditorGroup"}]'),
      ),
      null,
    );
    assert.notEqual(
      profileProblem(
        USER_KEYBINDINGS,
        file(
          '[{"key": "ctrl+j", "command": "workbench.action.terminal.sendSequence", "args": {"text": "rm -rf ~\\n"}}]',
        ),
      ),
      null,
    );
    assert.notEqual(
      profileProblem(
        USER_KEYBINDINGS,
        file('[{"key": "ctrl+j", "command": "workbench.action.tasks.runTask"}]'),
      ),
      null,
    );
    assert.equal(profileProblem(`${WS}/.vscode/settings.json`, file('{"editor.rulers": [80]}')), null);
    assert.notEqual(profileProblem(`${WS}/.vscode/tasks.json`, file('{"version": "2.0.0"}')), null);
    assert.notEqual(profileProblem(`${WS}/.vscode/launch.json`, file('{}')), null);
    assert.notEqual(profileProblem('.vscode/extensions/evil/package.json', file('{}')), null);
    assert.notEqual(profileProblem('.config/Code/User/snippets/python.json', file('{}')), null);
    assert.notEqual(profileProblem('.config/VSCodium/User/settings.json', file('{}')), null);
    assert.notEqual(profileProblem(USER_SETTINGS, { type: 'symlink', target: '../../x' }), null);
    assert.equal(preparers.vscode.profilePolicy, vs.profilePolicy);
  });

  test('the doc refuses workspace files VS Code or git would run', () => {
    for (const path of ['.vscode/tasks.json', '.git/hooks/pre-commit', 'app.code-workspace', '../escape.py'])
      assert.equal(vs.docSchema.safeParse({ files: [{ path, content: '' }] }).success, false, path);
    assert.equal(vs.docSchema.safeParse({ files: [{ path: '.gitignore', content: '' }] }).success, true);
  });
});
