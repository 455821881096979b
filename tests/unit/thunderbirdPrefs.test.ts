import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { osPreparer as os } from '../../preparers/os/index.ts';
import { applyEdits as applyRaw, probeCheck } from '../../preparers/registry.ts';
import { thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import { type PrefValue, parsePrefs, renderPrefs } from '../../preparers/thunderbird/prefs.ts';
import type { ThunderbirdEdit } from '../../preparers/thunderbird/schema.ts';
import type { FileMap } from '../../preparers/types.ts';
import { assertVerdicts } from '../support/checkerHome.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';
import { assertNearMissKilled } from '../support/thunderbirdNearMiss.ts';

/**
 * prefs.js is held (issue 26): the settings a profile has keep their values and no Settings-page
 * setting appears that the task does not ask for, while what the real Thunderbird writes by itself
 * on a run (measured: see preparers/thunderbird/prefsKept.ts) passes. Both checkers agree.
 */
const DOC = annInboxDoc({
  signature: 'Ann',
  invoice: { text: 'Please pay.' },
  carl: { subject: 'Lunch', date: '2024-03-06T09:30:00Z', text: 'Noon?' },
});
const ORACLE = [{ op: 'thunderbird.set_pref', name: 'mailnews.mark_message_read.auto', value: false }];

const parse = (edits: unknown[]) => edits.map((e) => tb.editSchema.parse(e)) as ThunderbirdEdit[];
const prefsPath = (files: FileMap) => Object.keys(files).find((p) => p.endsWith('/prefs.js'))!;

/** The state with prefs.js rewritten by `change` (as the app, or a person, leaves it). */
function withPrefs(files: FileMap, change: (prefs: Map<string, PrefValue>) => void): FileMap {
  const at = prefsPath(files);
  const prefs = parsePrefs(Buffer.from(files[at]!).toString('utf8'));
  change(prefs);
  return { ...files, [at]: new TextEncoder().encode(renderPrefs(prefs)) };
}

describe('what the real Thunderbird writes: prefs.js held, its profile left to it', () => {
  test('held prefs and no new setting: the app’s own rewrite passes, a setting changed on the way fails', async () => {
    const initial = await tb.build('forge.default', DOC);
    const solved = await applyRaw(initial, parse(ORACLE));
    const checks = (
      (await tb.invariants(initial, solved, Object.keys(initial))) as { kind: string }[]
    ).filter((c) => c.kind === 'thunderbird.prefs_kept');
    assert.equal(checks.length, 1);
    const held = Object.keys((checks[0] as unknown as { prefs: Record<string, PrefValue> }).prefs);
    assert.ok(
      held.includes('mail.identity.id1.fullName') && held.includes('mail.biff.play_sound'),
      held.join(),
    );
    assert.ok(!held.includes('mailnews.mark_message_read.auto'), 'the asked pref is the task’s own');
    const states: Record<string, FileMap> = {
      untouched: initial,
      oracle: solved,
      // What Thunderbird did to the oracle's profile on a run here: its own prefs, a changed
      // milestone, a default dropped; an account page saved with a value it already had.
      appRewrite: withPrefs(solved, (p) => {
        p.set('mail.root.pop3-rel', '[ProfD]Mail');
        p.set('mail.server.server1.nextFilterTime', 10);
        p.set('mailnews.tags.$label1.tag', 'Important');
        p.set('mailnews.database.global.datastore.id', 'abc');
        p.set('browser.warnOnQuit', false);
        p.set('mailnews.start_page_override.mstone', '153.8.0');
        p.delete('mail.shell.checkDefaultClient');
        p.set('mail.identity.id1.doBcc', false);
      }),
      otherSettingToo: withPrefs(solved, (p) => p.set('mail.biff.play_sound', true)),
      nameRetyped: withPrefs(solved, (p) => p.set('mail.identity.id1.fullName', 'Ann Example')),
      heldRemoved: withPrefs(solved, (p) => p.delete('mail.identity.id1.sig_on_reply')),
      newSetting: withPrefs(solved, (p) => p.set('mail.spellcheck.inline', false)),
      junkSetting: withPrefs(solved, (p) => p.set('mail.spam.markAsReadOnSpam', true)),
      typeChanged: withPrefs(solved, (p) => p.set('mail.biff.play_sound', 0)),
    };
    await assertVerdicts(
      states,
      checks,
      {
        untouched: [true],
        oracle: [true],
        appRewrite: [true],
        otherSettingToo: [false],
        nameRetyped: [false],
        heldRemoved: [false],
        newSetting: [false],
        junkSetting: [false],
        typeChanged: [false],
      },
      (files, c) => tb.probe(files, c as never),
    );
  });

  test('a Reply-to address typed with a name is the same address; another address or a pref compared whole is not', async () => {
    const initial = await tb.build('forge.default', DOC);
    const key = 'mail.identity.id1.reply_to';
    const set = (value: string) => withPrefs(initial, (p) => p.set(key, value));
    const checks = [
      { kind: 'thunderbird.pref', name: key, value: 'office@example.org', address: true },
      { kind: 'thunderbird.pref', name: key, value: 'office@example.org' },
    ].map((c) => tb.checkSchema.parse(c));
    await assertVerdicts(
      {
        untouched: initial,
        bare: set('office@example.org'),
        named: set('Example Office <office@example.org>'),
        upperCase: set('OFFICE@Example.org'),
        anotherAddress: set('Example Office <ann@example.org>'),
        nameOnly: set('Example Office'),
      },
      checks,
      {
        untouched: [false, false],
        bare: [true, true],
        named: [true, false],
        upperCase: [true, false],
        anotherAddress: [false, false],
        nameOnly: [false, false],
      },
      (files, c) => tb.probe(files, c as never),
    );
  });

  test('a pref edit is attacked with another setting switched as well, which the invariant kills', async () => {
    const initial = await tb.build('forge.default', DOC);
    const edits = parse(ORACLE);
    await assertNearMissKilled(
      initial,
      edits,
      /switched to .* too \(a setting not asked for\)/,
      'thunderbird.prefs_kept',
    );
  });

  test('the home’s invariant leaves an app’s own profile to it: the real app’s index beside a new folder passes', async () => {
    const bytes = new TextEncoder().encode('x');
    const initial = { ...(await tb.build('forge.default', DOC)), 'Documents/readme.txt': bytes };
    const solved = await applyRaw(
      initial,
      parse([{ op: 'thunderbird.create_folder', path: 'Suppliers/Riverside' }]),
    );
    const checks = (await os.invariants(initial, solved, [])) as { kind: string }[];
    const sbd = Object.keys(solved).find((p) => p.endsWith('Suppliers.sbd/Riverside'))!;
    assert.ok(sbd, Object.keys(solved).join());
    await assertVerdicts(
      {
        oracle: solved,
        // What the real Thunderbird left after opening the profile (tests/integration/thunderbirdOracle).
        indexed: { ...solved, [`${sbd}.msf`]: bytes },
        strayInDocuments: { ...solved, 'Documents/Riverside.eml': bytes },
      },
      checks,
      { oracle: [true], indexed: [true], strayInDocuments: [false] },
      (files, c) => probeCheck(files, c),
    );
    // A hidden folder the oracle makes for its own output is still held.
    const backup = { ...initial, '.backups/notes.txt': bytes };
    const held = (await os.invariants(initial, backup, [])) as {
      kind: string;
      children?: Record<string, string[]>;
    }[];
    assert.deepEqual(held[0]!.children?.['.backups'], ['notes.txt']);
  });
});
