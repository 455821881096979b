/**
 * What this proves, with the real Thunderbird (Debian package, 153 ESR), headless:
 *  1. A profile built by the Thunderbird preparer (and changed by oracle edits), packed with
 *     packProfile and unpacked with `tar -xzf … -C $HOME`, is the profile Thunderbird opens: it
 *     creates no profile of its own (profiles.ini still lists only ours).
 *  2. Thunderbird's own account manager, queried from inside Thunderbird over Marionette (chrome
 *     context), sees our mail account (pop3) and Local Folders, our identity with its name, e-mail
 *     and signature, every folder we wrote, each folder's message count and read/flagged/tag state
 *     parsed from our mbox files, our filter (name + action) from msgFilterRules.dat and our
 *     contact from abook.sqlite.
 *  3. After Thunderbird quits, prefs.js still holds the account and identity, the folders are
 *     still there, and Thunderbird wrote its own .msf index for every folder it opened.
 * It does not prove how the GUI renders any of this. Bounded: Thunderbird is killed after 60 s.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packProfile, thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import { Marionette } from '../support/marionette.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';

const PORT = 28000 + (process.pid % 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const INSPECT = `
const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
const accounts = MailServices.accounts.accounts.map((a) => ({
  type: a.incomingServer.type,
  identities: a.identities.map((i) => ({ email: i.email, name: i.fullName, signature: i.htmlSigText })),
}));
const root = MailServices.accounts.localFoldersServer.rootFolder;
const folders = {};
for (const f of root.descendants) {
  try { f.updateFolder(null); } catch {}
  let messages = [];
  try {
    messages = [...f.messages].map((h) => ({ subject: h.mime2DecodedSubject, read: h.isRead, flagged: h.isFlagged,
      keywords: h.getStringProperty("keywords") }));
  } catch {}
  folders[decodeURIComponent(f.URI.replace("mailbox://nobody@Local%20Folders/", ""))] = messages;
}
const filterList = MailServices.accounts.localFoldersServer.getFilterList(null);
const filters = [];
for (let i = 0; i < filterList.filterCount; i++) {
  const filter = filterList.getFilterAt(i);
  filters.push({ name: filter.filterName, actions: filter.sortedActionList.map((a) => a.targetFolderUri || String(a.type)) });
}
const contacts = MailServices.ab.directories.flatMap((d) => d.childCards.map((c) => c.primaryEmail));
return { accounts, folders, filters, contacts };`;

interface Seen {
  accounts: { type: string; identities: { email: string; name: string; signature: string }[] }[];
  folders: Record<string, { subject: string; read: boolean; flagged: boolean; keywords: string }[]>;
  filters: { name: string; actions: string[] }[];
  contacts: string[];
}

describe('real Thunderbird opens a generated profile', { timeout: 120_000 }, () => {
  let home: string;
  let child: ChildProcess | undefined;
  let seen: Seen;
  const profileDir = () => join(home, '.thunderbird', 'forge.default');

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'forge-tb-'));
    const doc = annInboxDoc({
      signature: 'Ann Lee — Acme',
      invoice: {
        text: 'From the accounts team:\nplease pay.',
        attachments: [{ filename: 'invoice-42.txt', content: 'total 42' }],
        read: true,
        tags: ['Important'],
      },
      carl: { subject: 'Café meeting', date: '2024-03-06T10:00:00Z', html: '<p>hi</p>', flagged: true },
      moreFolders: [{ path: 'Projects/Alpha', messages: [] }],
      contacts: [{ name: 'Bob Stone', email: 'bob@example.org' }],
    });
    const built = await tb.build('forge.default', doc);
    const files = await tb.apply(built, [
      tb.editSchema.parse({
        op: 'thunderbird.add_filter',
        filter: {
          name: 'Invoices',
          conditions: [{ field: 'subject', value: 'invoice' }],
          actions: [{ action: 'move', folder: 'Projects/Alpha' }],
        },
      }),
      tb.editSchema.parse({
        op: 'thunderbird.save_draft',
        to: ['dana@example.net'],
        subject: 'Report',
        body: 'See attached',
        attachments: [{ filename: 'r.csv', content: 'a,b' }],
      }),
    ]);
    writeFileSync(join(home, 'profile.tar.gz'), await packProfile(files));
    execFileSync('tar', ['-xzf', join(home, 'profile.tar.gz'), '-C', home]);
    // Test-only: open Marionette on a loopback port (user.js is read on top of prefs.js).
    writeFileSync(join(profileDir(), 'user.js'), `user_pref("marionette.port", ${PORT});\n`);
    child = spawn('thunderbird', ['--headless', '--marionette', '-remote-allow-system-access'], {
      env: { ...process.env, HOME: home },
      stdio: 'ignore',
      detached: true,
    });
    const deadline = Date.now() + 60_000;
    const marionette = await Marionette.connect(PORT, deadline);
    try {
      await marionette.command('WebDriver:NewSession', { capabilities: {} });
      await marionette.command('Marionette:SetContext', { value: 'chrome' });
      // Local folders parse their mbox asynchronously after updateFolder: poll until Inbox is read.
      do {
        seen = await marionette.run<Seen>(INSPECT);
        if ((seen.folders.Inbox?.length ?? 0) >= 2 && (seen.folders.Drafts?.length ?? 0) >= 1) break;
        await sleep(1000);
      } while (Date.now() < deadline);
      await marionette.command('Marionette:Quit', { flags: ['eForceQuit'] }).catch(() => undefined);
    } finally {
      marionette.close();
    }
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    await Promise.race([exited, sleep(15_000)]);
  });

  after(() => {
    if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });

  test('Thunderbird loaded our accounts and identity with its signature', () => {
    assert.deepEqual(seen.accounts.map((a) => a.type).sort(), ['none', 'pop3']);
    const pop = seen.accounts.find((a) => a.type === 'pop3')!;
    assert.deepEqual(pop.identities, [
      { email: 'ann@example.com', name: 'Ann Lee', signature: 'Ann Lee — Acme' },
    ]);
  });

  test('Thunderbird parsed our folders, messages and their read/flagged/tag state', () => {
    for (const folder of ['Inbox', 'Sent', 'Drafts', 'Trash', 'Templates', 'Projects', 'Projects/Alpha'])
      assert.ok(folder in seen.folders, `Thunderbird sees folder ${folder}`);
    const inbox = seen.folders.Inbox;
    assert.equal(inbox.length, 2);
    const invoice = inbox.find((m) => m.subject === 'Invoice 42')!;
    assert.deepEqual([invoice.read, invoice.flagged, invoice.keywords.trim()], [true, false, '$label1']);
    const cafe = inbox.find((m) => m.subject === 'Café meeting')!;
    assert.deepEqual([cafe.read, cafe.flagged], [false, true]);
    assert.deepEqual(
      seen.folders.Drafts.map((m) => m.subject),
      ['Report'],
    );
  });

  test('Thunderbird loaded our filter and our contact', () => {
    assert.deepEqual(seen.filters, [
      { name: 'Invoices', actions: ['mailbox://nobody@Local%20Folders/Projects/Alpha'] },
    ]);
    assert.ok(seen.contacts.includes('bob@example.org'));
  });

  test('after quitting, the profile is still ours and Thunderbird wrote .msf indexes', () => {
    const ini = readFileSync(join(home, '.thunderbird', 'profiles.ini'), 'utf8');
    assert.equal((ini.match(/^\[Profile/gm) ?? []).length, 1, 'no profile of its own was created');
    const prefs = readFileSync(join(profileDir(), 'prefs.js'), 'utf8');
    assert.match(prefs, /user_pref\("mail\.identity\.id1\.useremail", "ann@example\.com"\);/);
    assert.match(prefs, /user_pref\("mail\.accountmanager\.accounts", "account1,account2"\);/);
    const local = join(profileDir(), 'Mail', 'Local Folders');
    for (const folder of ['Inbox', 'Drafts', 'Sent', 'Trash', 'Projects', 'Projects.sbd/Alpha']) {
      assert.ok(existsSync(join(local, folder)), `${folder} mbox still there`);
      assert.ok(existsSync(join(local, `${folder}.msf`)), `Thunderbird wrote ${folder}.msf`);
    }
  });
});
