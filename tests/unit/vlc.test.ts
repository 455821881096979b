import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { profileProblem } from '../../preparers/profiles/gate.ts';
import { applyEdits, parseCheck, parseDoc, parseEdit, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { vlcPreparer } from '../../preparers/vlc/index.ts';
import { parsePlaylist } from '../../preparers/vlc/playlist.ts';
import { effectiveValue, normaliseHotkey, PREFS, setPref, VLCRC_PATH } from '../../preparers/vlc/vlcrc.ts';
import { runCheckerBatch, SYSTEM_PYTHON } from '../support/checkerHome.ts';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'forge-vlc-unit-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('vlcrc is read as VLC 3 reads it', () => {
  test('later active lines win; comments, sections and a BOM line are skipped', () => {
    const text = '\uFEFF###\n[qt]\nqt-max-volume=150\n#qt-max-volume=300\n[core]\nqt-max-volume=200\n';
    assert.equal(effectiveValue(text, 'qt-max-volume'), 200);
  });
  test('an integer VLC rejects is ignored: a percent sign, an out-of-range value, spaces around "="', () => {
    assert.equal(effectiveValue('qt-max-volume=200%\n', 'qt-max-volume'), 125);
    assert.equal(effectiveValue('qt-max-volume=500\n', 'qt-max-volume'), 125);
    assert.equal(effectiveValue('qt-max-volume = 200\n', 'qt-max-volume'), 125);
    assert.equal(effectiveValue('qt-max-volume=0xC8\n', 'qt-max-volume'), 200);
    assert.equal(effectiveValue('loop=1\nloop=yes\n', 'loop'), 1);
  });
  test('strings are taken verbatim, defaults when unset', () => {
    assert.equal(
      effectiveValue('snapshot-path=/home/user/My Pictures \n', 'snapshot-path'),
      '/home/user/My Pictures ',
    );
    assert.equal(effectiveValue(undefined, 'key-snapshot'), 'Shift+s');
    assert.equal(effectiveValue('volume-step=25.6abc\n', 'volume-step'), 25.6);
  });
  test('setting an option replaces its commented default in place, as VLC saves', () => {
    const full =
      '[core] # core program\n\n# Repeat all (boolean)\n#loop=0\n\n# Random (boolean)\n#random=0\n';
    const out = setPref(full, 'loop', '1');
    assert.equal(out, full.replace('#loop=0', 'loop=1'));
    assert.equal(setPref(out, 'loop', undefined), full);
    assert.equal(effectiveValue(setPref('loop=1\nloop=0\n', 'loop', '1'), 'loop'), 1);
  });
  test('hotkeys compare with modifiers in any order and any case', () => {
    assert.equal(normaliseHotkey('ctrl+ALT+P'), normaliseHotkey('Alt+Ctrl+p'));
    assert.notEqual(normaliseHotkey('Ctrl+p'), normaliseHotkey('Alt+p'));
    assert.equal(normaliseHotkey('Ctrl++'), 'ctrl++');
  });
});

describe('playlists resolve to the files VLC would open', () => {
  test('XSPF: percent-encoded file URIs, localhost, relative entries; a stream URL stays as written', () => {
    const xml = `<?xml version="1.0"?><playlist xmlns="http://xspf.org/ns/0/" version="1"><trackList>
      <track><location>file:///home/user/Music/intro%20tune.ogg</location></track>
      <track><location>file://localhost/home/user/Videos/a.mp4</location></track>
      <track><location>../Music/b%26c.mp3</location></track>
      <track><location>https://example.org/live</location></track>
      <track><location>file:///etc/passwd</location></track></trackList></playlist>`;
    assert.deepEqual(parsePlaylist('Videos/p.xspf', xml), {
      format: 'xspf',
      items: [
        'Music/intro tune.ogg',
        'Videos/a.mp4',
        'Music/b&c.mp3',
        'https://example.org/live',
        'file:///etc/passwd',
      ],
    });
  });
  test('M3U: directives skipped, CRLF, absolute and relative paths (not URI-decoded)', () => {
    const m3u = '#EXTM3U\r\n#EXTINF:3,Song\r\n/home/user/Music/a%20b.mp3\r\nsub/c.ogg\r\n\r\n';
    assert.deepEqual(parsePlaylist('Music/list.m3u', m3u), {
      format: 'm3u',
      items: ['Music/a%20b.mp3', 'Music/sub/c.ogg'],
    });
  });
  test('malformed XML is an error, not an empty playlist', () => {
    assert.throws(() => parsePlaylist('p.xspf', '<playlist><trackList><track></trackList>'), /well-formed/);
  });
});

describe('profile policy', () => {
  test('a vlcrc the builder writes passes; module, interface and script options are refused', async () => {
    const built = await vlcPreparer.build(
      'home',
      parseDoc('vlc', { prefs: { 'qt-max-volume': 200, 'key-snapshot': 'F12' } }) as never,
    );
    assert.equal(profileProblem(VLCRC_PATH, { type: 'file', bytes: built[VLCRC_PATH]! }), null);
    for (const line of [
      'extraintf=http',
      'control=lua',
      'lua-intf=evil',
      'intf=qt',
      'vout=x11',
      'video-filter=sepia',
    ])
      assert.match(
        profileProblem(VLCRC_PATH, { type: 'file', bytes: bytes(`[core]\n${line}\n`) }) ?? '',
        /not one of/,
      );
    assert.match(
      profileProblem(VLCRC_PATH, { type: 'file', bytes: bytes('[core]\nnonsense line\n') }) ?? '',
      /neither/,
    );
    for (const line of [
      'snapshot-path=/home/user/.config/autostart',
      'input-record-path=/etc',
      'snapshot-format=desktop',
      'snapshot-prefix=../x',
    ])
      assert.match(
        profileProblem(VLCRC_PATH, { type: 'file', bytes: bytes(`[core]\n${line}\n`) }) ?? '',
        /gives/,
        line,
      );
    const folder = bytes('[core]\nsnapshot-path=/home/user/Pictures/VLC/\n');
    assert.equal(profileProblem(VLCRC_PATH, { type: 'file', bytes: folder }), null);
  });
  test('nothing under .local/share/vlc, no other file in .config/vlc, no symlinks', () => {
    assert.match(profileProblem('.local/share/vlc/lua/extensions/x.lua', { type: 'file' }) ?? '', /lua/);
    assert.match(profileProblem('.config/vlc/vlc-qt-interface.conf', { type: 'file' }) ?? '', /only/);
    assert.match(profileProblem(VLCRC_PATH, { type: 'symlink', target: '/etc/passwd' }) ?? '', /symlink/);
    assert.equal(profileProblem('.config/vlc', { type: 'dir' }), null);
  });
  test('doc schema refuses an option the preparer does not know', () => {
    assert.throws(() => parseDoc('vlc', { prefs: { extraintf: 'http' } }), /prefs.extraintf/);
  });
});

describe('build, apply, probe, invariants', async () => {
  const doc = parseDoc('vlc', {
    prefs: { 'snapshot-path': '/home/user/Pictures' },
    media: [
      {
        path: 'Videos/a.mp4',
        seconds: 2,
        picture: { width: 160, height: 90, look: 'colours', colours: ['red', 'blue'] },
        sound: {},
      },
      { path: 'Videos/b.mp3', seconds: 1, sound: {} },
    ],
  });
  const initial = await vlcPreparer.build('home', doc as never);
  const oracle = [
    parseEdit({ op: 'vlc.set_pref', key: 'loop', value: true }),
    parseEdit({
      op: 'vlc.write_playlist',
      file: 'Videos/list.xspf',
      items: ['Videos/b.mp3', 'Videos/a.mp4'],
    }),
  ];
  const solved = await applyEdits(initial, oracle);
  const invariants = await vlcPreparer.invariants(initial, solved, Object.keys(initial));
  const rubric = [
    parseCheck({ kind: 'vlc.pref', key: 'loop', value: true }),
    parseCheck({ kind: 'vlc.playlist', file: 'Videos/list.xspf', items: ['Videos/b.mp3', 'Videos/a.mp4'] }),
    ...invariants,
  ];
  const verdicts = async (files: FileMap) =>
    Promise.all(rubric.map(async (c) => (await probeCheck(files, c)).pass));

  test('the same doc builds the same bytes (ffmpeg bit-exact)', async () => {
    const again = await vlcPreparer.build('home', doc as never);
    for (const [path, b] of Object.entries(initial))
      assert.ok(Buffer.from(b).equals(Buffer.from(again[path]!)), path);
  });
  test('the oracle passes everything; the initial state fails the task checks', async () => {
    assert.deepEqual(await verdicts(solved), [true, true, true]);
    assert.deepEqual((await verdicts(initial)).slice(0, 2), [false, false]);
  });
  test('collateral damage fails the invariant: another option, an unknown option, a stray file, a touched media file', async () => {
    const cases: FileMap[] = [
      await applyEdits(solved, [
        parseEdit({ op: 'vlc.set_pref', key: 'snapshot-path', value: '/home/user/Desktop' }),
      ]),
      {
        ...solved,
        [VLCRC_PATH]: bytes(`${Buffer.from(solved[VLCRC_PATH]!).toString()}audio-filter=normvol\n`),
      },
      { ...solved, 'Videos/notes.txt': bytes('x') },
      await applyEdits(solved, [
        parseEdit({ op: 'vlc.convert', from: 'Videos/b.mp3', to: 'Videos/b.mp3', end: 0.5 }),
      ]),
    ];
    for (const files of cases) assert.equal((await probeCheck(files, invariants[0]!)).pass, false);
  });
  test('enqueueing in one-instance mode is held only while a one-instance option stays on', async () => {
    const start = await vlcPreparer.build(
      'home',
      parseDoc('vlc', { prefs: { 'one-instance': true, 'playlist-enqueue': true } }) as never,
    );
    const set = (key: string, value: boolean) => parseEdit({ op: 'vlc.set_pref', key, value });
    const bothOff = await applyEdits(start, [
      set('one-instance', false),
      set('one-instance-when-started-from-file', false),
    ]);
    const [inv] = await vlcPreparer.invariants(start, bothOff, Object.keys(start));
    const tidied = await applyEdits(bothOff, [set('playlist-enqueue', false)]);
    assert.equal((await probeCheck(tidied, inv!)).pass, true);
    // Files opened from the file manager still go to one instance: enqueueing still matters.
    const fileManagerOn = await applyEdits(start, [set('one-instance', false)]);
    const [held] = await vlcPreparer.invariants(start, fileManagerOn, Object.keys(start));
    const changed = await applyEdits(fileManagerOn, [set('playlist-enqueue', false)]);
    assert.equal((await probeCheck(changed, held!)).pass, false);
  });
  test("VLC's own rewrite (defaults as comments, other order) keeps the invariant", async () => {
    const text = Buffer.from(solved[VLCRC_PATH]!).toString();
    const rewritten = `\uFEFF###\n[core] # core program\n#random=0\nloop=1\n#snapshot-prefix=vlcsnap-\nsnapshot-path=/home/user/Pictures\n[qt] # Qt\nqt-privacy-ask=0\n#qt-max-volume=125\n`;
    assert.ok(text.includes('loop=1'));
    assert.equal(
      (await probeCheck({ ...solved, [VLCRC_PATH]: bytes(rewritten) }, invariants[0]!)).pass,
      true,
    );
  });
  test('every app-specific mutant of the oracle fails the rubric', async () => {
    const mutants = await vlcPreparer.mutants!(oracle as never, initial);
    assert.ok(mutants.some((m) => m.name.includes('repeat instead of loop')));
    assert.ok(mutants.some((m) => m.name.includes('reverse order')));
    // The oracle's edits and a change to the option beside one of them: only the invariant sees it.
    assert.ok(mutants.some((m) => m.also !== undefined && /changed too/.test(m.name)));
    for (const m of mutants) {
      const v = await verdicts(await applyEdits(initial, [...m.edits, ...(m.also ?? [])]));
      assert.ok(v.includes(false), m.name);
    }
  });
  test('media and image checks read the files ffmpeg made', async () => {
    const made = await applyEdits(initial, [
      parseEdit({ op: 'vlc.convert', from: 'Videos/a.mp4', to: 'Videos/a-end.mp4', start: 1 }),
      parseEdit({ op: 'vlc.snapshot', from: 'Videos/a.mp4', at: 1.5, to: 'Pictures/s.png' }),
    ]);
    const ok = async (c: unknown) => (await probeCheck(made, parseCheck(c))).pass;
    assert.equal(
      await ok({
        kind: 'vlc.media',
        file: 'Videos/a-end.mp4',
        duration: 1,
        startColour: 'blue',
        container: 'mp4',
      }),
      true,
    );
    assert.equal(await ok({ kind: 'vlc.media', file: 'Videos/a-end.mp4', startColour: 'red' }), false);
    assert.equal(await ok({ kind: 'vlc.media', file: 'Videos/b.mp3', videoStreams: 1 }), false);
    assert.equal(
      await ok({ kind: 'vlc.image', file: 'Pictures/s.png', width: 160, height: 90, colour: 'blue' }),
      true,
    );
    assert.equal(await ok({ kind: 'vlc.image', file: 'Pictures/s.png', width: 320, height: 180 }), false);
    assert.equal(await ok({ kind: 'vlc.media', file: 'Videos/missing.mp4' }), false);
  });
  test("the checker's option table is the probe's (section, type, default, range)", () => {
    const checker = join(work, 'forge_check_table.py');
    writeFileSync(checker, checkerSource().text);
    const code =
      "import json,runpy,sys;ns=runpy.run_path(sys.argv[1]);print(json.dumps({k:[v['section'],v['type'],v['default'],v['min'],v['max']] for k,v in ns['VLC_PREFS'].items()}))";
    const py = JSON.parse(execFileSync(SYSTEM_PYTHON, ['-c', code, checker], { encoding: 'utf8' }));
    const ts = Object.fromEntries(
      Object.entries(PREFS).map(([k, v]) => [
        k,
        [v.section, v.type, v.default, v.min ?? null, v.max ?? null],
      ]),
    );
    assert.deepEqual(py, ts);
  });
  test('the portable checker reads tricky vlcrc and playlist files as the probe does', async () => {
    const states: FileMap[] = [
      solved,
      { [VLCRC_PATH]: bytes('loop=1\n#loop=0\nqt-max-volume=300%\nglobal-key-play-pause=alt+CTRL+p\n') },
      {
        [VLCRC_PATH]: bytes('loop=0x1\nqt-max-volume=0310\nsnapshot-path=/home/user/Pictures///\n'),
        'Videos/list.xspf': bytes('<playlist/>'),
      },
      { 'Videos/list.xspf': bytes('#EXTM3U\n../Videos/b.mp3\r\n/home/user/Videos/a.mp4\n') },
    ];
    const checks = [
      ...rubric,
      parseCheck({ kind: 'vlc.pref', key: 'qt-max-volume', value: 200 }),
      parseCheck({ kind: 'vlc.pref', key: 'snapshot-path', value: '/home/user/Pictures', path: true }),
      parseCheck({ kind: 'vlc.hotkey', action: 'play-pause', key: 'Ctrl+Alt+p', global: true }),
    ];
    const jobs = states.map((files, i) => {
      const home = join(work, `state${i}`);
      for (const [rel, b] of Object.entries(files)) {
        mkdirSync(dirname(join(home, rel)), { recursive: true });
        writeFileSync(join(home, rel), b);
      }
      return { home, checks };
    });
    const checker = join(work, 'forge_check.py');
    writeFileSync(checker, checkerSource().text);
    const py = await runCheckerBatch(checker, join(work, 'jobs.json'), jobs);
    for (const [i, files] of states.entries()) {
      const probes = await Promise.all(checks.map(async (c) => (await probeCheck(files, c)).pass));
      assert.deepEqual(
        py[i]!.map((v) => v.pass),
        probes,
        `state ${i}`,
      );
    }
  });
});
