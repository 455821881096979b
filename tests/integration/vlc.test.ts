/**
 * What this proves, with the real VLC (Debian's 3.0) and ffmpeg, headless (dummy interface, video
 * and audio outputs), VLC running as an unprivileged user in a private mount namespace whose
 * /home/user is a scratch copy of the task's home (VLC refuses to run as root, and our playlists
 * name /home/user as the VM does):
 *  1. The media we build and the files the oracle makes with ffmpeg (a trim, an extracted MP3) are
 *     ones VLC opens, and the XSPF and M3U playlists we write play exactly the files our probe
 *     reads from them, in the same order.
 *  2. A vlcrc we build is one VLC accepts: started with it, and made to save its preferences (a lua
 *     interface script sets the oracle's option, as the Preferences dialog does), VLC rewrites the
 *     whole file; our options survive the rewrite, the oracle's option check and the invariant from
 *     our own initial/solved pair pass on VLC's file, a neighbouring option set instead fails both,
 *     and the portable checker gives the same verdicts as the probes on VLC's files.
 * It does not prove how the Qt dialogs look. Bounded: every VLC run is killed after 40 s.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { applyEdits, parseCheck, parseDoc, parseEdit, probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { vlcPreparer } from '../../preparers/vlc/index.ts';
import { VLCRC_PATH } from '../../preparers/vlc/vlcrc.ts';
import { runCheckerBatch } from '../support/checkerHome.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'forge-vlc-it-'));

/** Whether this machine lets root make a private mount namespace (the test needs one for /home/user). */
function canUnshare(): boolean {
  try {
    execFileSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs tmpfs /home'], {
      stdio: 'ignore',
    });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

/** Lays a FileMap out under a directory. */
function layOut(dir: string, files: FileMap): void {
  for (const [rel, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), bytes);
  }
}

const SCRIPT = `
stage="$1"; shift
mount -t tmpfs tmpfs /home || exit 90
mkdir /home/user && cp -a "$stage/home/." /home/user/ && chown -R 65534:65534 /home/user || exit 91
cd /home/user
timeout -k 5 40 setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME=/home/user PATH=/usr/bin:/bin LANG=C.UTF-8 cvlc "$@" >"$stage/log" 2>&1
rc=$?
mkdir -p "$stage/out" && cp -a /home/user/. "$stage/out/"
exit $rc
`;

/** Runs cvlc as nobody with `files` as /home/user; returns VLC's log and the home as VLC left it. */
async function vlc(name: string, files: FileMap, args: string[]): Promise<{ log: string; out: string }> {
  const stage = join(work, name);
  layOut(join(stage, 'home'), files);
  try {
    await run('unshare', ['-m', '--propagation', 'private', 'sh', '-c', SCRIPT, 'sh', stage, ...args], {
      timeout: 60_000,
    });
  } catch (err) {
    const log = (() => {
      try {
        return readFileSync(join(stage, 'log'), 'utf8');
      } catch {
        return '';
      }
    })();
    throw new Error(`VLC run ${name} failed: ${(err as Error).message}\n${log.slice(-2000)}`);
  }
  return { log: readFileSync(join(stage, 'log'), 'utf8'), out: join(stage, 'out') };
}

const QUIET = ['--vout', 'dummy', '--aout', 'dummy', '--no-qt-privacy-ask', '--no-metadata-network-access'];

/** The media VLC opened, in order, from its -vv log, as home-relative paths (the playlist itself left out). */
function opened(log: string): string[] {
  return [...log.matchAll(/`file:\/\/\/home\/user\/([^']+)' successfully opened/g)]
    .map((m) => decodeURIComponent(m[1]!))
    .filter((p) => !/\.(xspf|m3u8?)$/.test(p));
}

/** Probe verdicts and the portable checker's for the same checks on a home directory VLC left. */
async function bothVerdicts(home: string, files: FileMap, checks: { kind: string }[]) {
  const probes = await Promise.all(checks.map((c) => probeCheck(files, c)));
  const checker = join(work, 'forge_check.py');
  writeFileSync(checker, checkerSource().text);
  const [py] = await runCheckerBatch(checker, join(work, `jobs-${Math.random()}.json`), [{ home, checks }]);
  return { probes: probes.map((p) => p.pass), checker: py!.map((v) => v.pass) };
}

const usable = canUnshare();
after(() => rmSync(work, { recursive: true, force: true }));

describe('VLC opens what the preparer builds and the oracle makes', {
  skip: !usable && 'needs root and a private mount namespace (unshare -m)',
}, () => {
  let initial: FileMap;
  let solved: FileMap;
  const edits = [
    { op: 'vlc.convert', from: 'Videos/talk.mp4', to: 'Videos/talk-excerpt.mp4', start: 1, end: 2 },
    { op: 'vlc.convert', from: 'Videos/talk.mp4', to: 'Music/talk.mp3', video: false },
    {
      op: 'vlc.write_playlist',
      file: 'Videos/evening.xspf',
      items: ['Music/intro tune.ogg', 'Videos/talk-excerpt.mp4', 'Videos/clip.webm', 'Music/talk.mp3'],
    },
    { op: 'vlc.write_playlist', file: 'Music/mix.m3u', items: ['Music/talk.mp3', 'Videos/clip.webm'] },
    {
      op: 'vlc.write_playlist',
      file: 'Videos/Saved/relative.xspf',
      items: ['Videos/clip.webm', 'Music/intro tune.ogg'],
      relative: true,
    },
  ].map((e) => parseEdit(e));

  before(async () => {
    const doc = parseDoc('vlc', {
      media: [
        {
          path: 'Videos/talk.mp4',
          seconds: 3,
          picture: { look: 'colours', colours: ['red', 'green', 'blue'] },
          sound: {},
        },
        {
          path: 'Videos/clip.webm',
          seconds: 1,
          picture: { width: 160, height: 90 },
          sound: { frequency: 660 },
        },
        { path: 'Music/intro tune.ogg', seconds: 1, sound: { frequency: 330, channels: 1 } },
      ],
    });
    initial = await vlcPreparer.build('home', doc as never);
    solved = await applyEdits(initial, edits);
  });

  for (const [playlist, items] of [
    [
      'Videos/evening.xspf',
      ['Music/intro tune.ogg', 'Videos/talk-excerpt.mp4', 'Videos/clip.webm', 'Music/talk.mp3'],
    ],
    ['Music/mix.m3u', ['Music/talk.mp3', 'Videos/clip.webm']],
    ['Videos/Saved/relative.xspf', ['Videos/clip.webm', 'Music/intro tune.ogg']],
  ] as const) {
    test(`${playlist} plays the files the probe reads, in order`, async () => {
      const check = parseCheck({ kind: 'vlc.playlist', file: playlist, items: [...items] });
      assert.equal((await probeCheck(solved, check)).pass, true);
      const { log } = await vlc(playlist.replace(/\W/g, '_'), solved, [
        '-vv',
        '--intf',
        'dummy',
        '--play-and-exit',
        ...QUIET,
        `/home/user/${playlist}`,
      ]);
      assert.deepEqual(opened(log), [...items], log.slice(-1500));
    });
  }

  test('VLC plays the ffmpeg-made excerpt and MP3 to the end (its log shows no demux or decoder error)', async () => {
    const { log } = await vlc('files', solved, [
      '-vv',
      '--intf',
      'dummy',
      '--play-and-exit',
      ...QUIET,
      '/home/user/Videos/talk-excerpt.mp4',
      '/home/user/Music/talk.mp3',
    ]);
    assert.deepEqual(opened(log), ['Videos/talk-excerpt.mp4', 'Music/talk.mp3']);
    assert.doesNotMatch(log, /(demux|decoder) error/);
  });

  test("ffmpeg's excerpt and MP3 pass the media checks, in the probe and the portable checker alike", async () => {
    const home = join(work, 'made');
    layOut(home, solved);
    const checks = [
      {
        kind: 'vlc.media',
        file: 'Videos/talk-excerpt.mp4',
        container: 'mp4',
        duration: 1,
        videoStreams: 1,
        audioStreams: 1,
        startColour: 'green',
      },
      {
        kind: 'vlc.media',
        file: 'Music/talk.mp3',
        container: 'mp3',
        duration: 3,
        videoStreams: 0,
        audioStreams: 1,
        audioCodec: 'mp3',
      },
      // The excerpt does not start where the source does, and the source is no MP3.
      { kind: 'vlc.media', file: 'Videos/talk-excerpt.mp4', startColour: 'red' },
      { kind: 'vlc.media', file: 'Videos/talk.mp4', container: 'mp3' },
    ].map((c) => parseCheck(c));
    const v = await bothVerdicts(home, solved, checks);
    assert.deepEqual(v.probes, [true, true, false, false]);
    assert.deepEqual(v.checker, v.probes);
  });
});

describe('VLC accepts and rewrites a vlcrc the preparer builds', {
  skip: !usable && 'needs root and a private mount namespace (unshare -m)',
}, () => {
  const prefs = {
    'qt-max-volume': 150,
    'snapshot-path': '/home/user/Pictures/Stills',
    'key-snapshot': 'F12',
    'global-key-play-pause': 'Ctrl+Alt+p',
    random: true,
  };
  let initial: FileMap;

  /** VLC started with the task's vlcrc and a lua interface that sets options and quits: it saves the whole file. */
  async function vlcSets(name: string, set: [string, string | number | boolean][]) {
    const lua = `${set.map(([k, v]) => `vlc.config.set(${JSON.stringify(k)}, ${typeof v === 'string' ? JSON.stringify(v) : String(v)})`).join('\n')}\nvlc.misc.quit()\n`;
    const files: FileMap = {
      ...initial,
      '.local/share/vlc/lua/intf/forge_set.lua': new Uint8Array(Buffer.from(lua)),
    };
    const { out } = await vlc(name, files, ['-I', 'luaintf', '--lua-intf', 'forge_set', ...QUIET]);
    const rc = new Uint8Array(readFileSync(join(out, VLCRC_PATH)));
    return { out, state: { ...initial, [VLCRC_PATH]: rc } as FileMap };
  }

  before(async () => {
    initial = await vlcPreparer.build('home', parseDoc('vlc', { prefs }) as never);
  });

  test('VLC rewrites the whole file and keeps every option we set', async () => {
    const { state } = await vlcSets('keep', [['loop', true]]);
    const text = Buffer.from(state[VLCRC_PATH]!).toString('utf8');
    assert.ok(text.split('\n').length > 1000, 'VLC wrote its full vlcrc (every option, defaults commented)');
    for (const [key, value] of Object.entries(prefs)) {
      const check = parseCheck({ kind: 'vlc.pref', key, value });
      assert.equal((await probeCheck(state, check)).pass, true, `${key} survives VLC's rewrite`);
    }
    assert.match(text, /^loop=1$/m, 'the option the script set is saved as an active line');
  });

  test("the oracle's option and the invariant pass on VLC's file; the neighbouring option fails both; the checker agrees", async () => {
    const oracle = [parseEdit({ op: 'vlc.set_pref', key: 'loop', value: true })];
    const solved = await applyEdits(initial, oracle);
    const invariants = await vlcPreparer.invariants(initial, solved, Object.keys(initial));
    const checks = [parseCheck({ kind: 'vlc.pref', key: 'loop', value: true }), ...invariants];
    const right = await vlcSets('right', [['loop', true]]);
    const wrong = await vlcSets('wrong', [['repeat', true]]);
    const r = await bothVerdicts(right.out, right.state, checks);
    const w = await bothVerdicts(wrong.out, wrong.state, checks);
    assert.deepEqual(r.probes, [true, true]);
    assert.deepEqual(w.probes, [false, false]);
    assert.deepEqual(r.checker, r.probes);
    assert.deepEqual(w.checker, w.probes);
  });
});
