/**
 * Rubrics proved on states the real Thunderbird makes: for Thunderbird skills of the library, the
 * oracle's profile is laid out in a home, the real Thunderbird (Debian package, headless) opens it,
 * loads every folder and quits — rewriting prefs.js, writing .msf indexes, session files and its
 * address book as it does for a person — and the profile it leaves is graded with the TypeScript
 * probes and the shipped checker: every check (declared and "nothing else changed") must still pass.
 * Bounded: each Thunderbird is killed after 60 s.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CheckerRunner } from '../../preparers/checker/runner.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import { probeCheck } from '../../preparers/registry.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { Marionette } from '../support/marionette.ts';
import { offlineTask } from '../support/offlineTasks.ts';
import { readHome } from '../support/readHome.ts';

const PORT = 29000 + (process.pid % 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SKILLS = [
  'thunderbird.filters.move-by-sender',
  'thunderbird.settings.identity',
  // A Settings-page pref: prefs.js held against the app's own rewrite (thunderbird.prefs_kept).
  'thunderbird.settings.preferences',
  'thunderbird.contacts.add-contact',
  'thunderbird.messages.tag-message',
  'thunderbird.drafts.new-message',
];

/** Opens every folder (so Thunderbird parses and indexes it), then quits the way a person's close does. */
const LOAD_FOLDERS = `
const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
let n = 0;
for (const f of MailServices.accounts.localFoldersServer.rootFolder.descendants) {
  try { f.updateFolder(null); n += [...f.messages].length; } catch {}
}
return n;`;

async function runThunderbird(home: string): Promise<void> {
  const child: ChildProcess = spawn(
    'thunderbird',
    ['--headless', '--marionette', '-remote-allow-system-access'],
    {
      env: { ...process.env, HOME: home },
      stdio: 'ignore',
      detached: true,
    },
  );
  try {
    const deadline = Date.now() + 60_000;
    const marionette = await Marionette.connect(PORT, deadline);
    try {
      await marionette.command('WebDriver:NewSession', { capabilities: {} });
      await marionette.command('Marionette:SetContext', { value: 'chrome' });
      // Folders parse asynchronously: poll until the count of messages settles.
      let last = -1;
      for (;;) {
        const n = await marionette.run<number>(LOAD_FOLDERS);
        if (n === last || Date.now() > deadline) break;
        last = n;
        await sleep(1500);
      }
      await marionette.command('Marionette:Quit', { flags: ['eAttemptQuit'] }).catch(() => undefined);
    } finally {
      marionette.close();
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await Promise.race([exited, sleep(20_000)]);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }
}

const runner = new CheckerRunner();
const work = mkdtempSync(join(tmpdir(), 'forge-tb-oracle-'));
after(async () => {
  await runner.close();
  rmSync(work, { recursive: true, force: true });
});

const library = loadSkillLibrary();
// THUNDERBIRD_ORACLE_ALL=1: every feasible Thunderbird-only skill (~15 s each) instead of the sample.
const ids = process.env.THUNDERBIRD_ORACLE_ALL
  ? [...library.values()]
      .map((l) => l.spec)
      .filter((s) => s.apps.length === 1 && s.apps[0] === 'thunderbird' && s.expected !== 'infeasible')
      .map((s) => s.id)
  : SKILLS;
for (const id of ids) {
  test(`${id}: the oracle's profile, after the real Thunderbird opened and closed it, passes every check`, {
    timeout: 180_000,
  }, async () => {
    const spec = library.get(id)?.spec;
    assert.ok(spec, `${id} is in the library`);
    const task = await offlineTask(spec);
    const checks = [...task.checks, ...task.invariants];
    const home = join(work, id);
    await materializeHome(home, task.solved);
    const profile = Object.keys(task.solved)
      .find((p) => p.endsWith('/prefs.js'))!
      .replace(/\/prefs\.js$/, '');
    // Test-only: open Marionette on a loopback port; removed before grading.
    const userJs = join(home, profile, 'user.js');
    writeFileSync(userJs, `user_pref("marionette.port", ${PORT});\n`);
    await runThunderbird(home);
    unlinkSync(userJs);

    const left = readHome(home, '.thunderbird');
    assert.notDeepEqual(
      Buffer.from(left[`${profile}/prefs.js`]!).toString(),
      Buffer.from(task.solved[`${profile}/prefs.js`]!).toString(),
      'Thunderbird rewrote prefs.js',
    );
    const ours = await Promise.all(checks.map((c) => probeCheck(left, c)));
    const python = (await runner.run({ home, checks })) as { pass: boolean; observed: unknown }[];
    const failing = checks.flatMap((c, i) =>
      ours[i]!.pass && python[i]!.pass
        ? []
        : [
            `${c.kind}: probe ${ours[i]!.pass} ${JSON.stringify(ours[i]!.observed).slice(0, 300)} / checker ${python[i]!.pass}`,
          ],
    );
    assert.deepEqual(failing, [], `${id}: checks that fail on Thunderbird's own profile`);
  });
}
