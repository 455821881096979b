import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { listTar } from '../../preparers/os/tarball.ts';
import { packProfile, thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import { parseMbox, serializeMbox } from '../../preparers/thunderbird/mbox.ts';
import { parsePrefs } from '../../preparers/thunderbird/prefs.ts';
import type { FileMap } from '../../preparers/types.ts';
import { assertVerdicts } from '../support/checkerHome.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';

const DOC = annInboxDoc({
  signature: 'Ann',
  invoice: { text: 'From here\n>From there' },
  carl: { subject: 'Lunch', date: '2024-03-06T09:30:00Z', html: '<b>hi</b>' },
});

const probe = async (files: FileMap, check: unknown) =>
  (await tb.probe(files, tb.checkSchema.parse(check))).pass;
const apply = (files: FileMap, edit: unknown) => tb.apply(files, [tb.editSchema.parse(edit)]);

describe('thunderbird preparer', () => {
  test('build writes a registered, complete profile', async () => {
    const files = await tb.build('forge.default', DOC);
    const text = (k: string) => Buffer.from(files[k]).toString('utf8');
    assert.match(
      text('.thunderbird/profiles.ini'),
      /\[InstallFDC34C9F024745EB\]\nDefault=forge\.default\nLocked=1/,
    );
    assert.match(text('.thunderbird/installs.ini'), /\[FDC34C9F024745EB\]\nDefault=forge\.default/);
    for (const f of ['Inbox', 'Sent', 'Drafts', 'Trash', 'Templates', 'msgFilterRules.dat'])
      assert.ok(files[`.thunderbird/forge.default/Mail/Local Folders/${f}`], f);
    assert.match(text('.thunderbird/forge.default/prefs.js'), /"mail.server.server1.check_new_mail", false/);
    assert.match(text('.thunderbird/forge.default/Mail/Local Folders/Inbox'), /^>From here$/m);
    assert.deepEqual(files, await tb.build('forge.default', DOC), 'deterministic');
  });

  const cases: [string, unknown, unknown][] = [
    [
      'move_message',
      { op: 'thunderbird.move_message', folder: 'Inbox', subject: 'invoice 42', to: 'Finance/2024' },
      { kind: 'thunderbird.message_in_folder', folder: 'Finance/2024', subject: 'Invoice 42' },
    ],
    [
      'move_message leaves source',
      { op: 'thunderbird.move_message', folder: 'Inbox', from: 'bob@', to: 'Archive' },
      { kind: 'thunderbird.message_absent', folder: 'Inbox', subject: 'Invoice 42' },
    ],
    [
      'create_folder',
      { op: 'thunderbird.create_folder', path: 'Clients/Acme' },
      { kind: 'thunderbird.folder_exists', folder: 'Clients/Acme' },
    ],
    [
      'add_filter',
      {
        op: 'thunderbird.add_filter',
        filter: {
          name: 'Bills',
          conditions: [{ field: 'from', value: 'bob@example.org' }],
          actions: [{ action: 'move', folder: 'Bills (old)' }],
        },
      },
      {
        kind: 'thunderbird.filter_rule',
        field: 'from',
        value: 'BOB@example.org',
        action: 'move',
        folder: 'Bills (old)',
      },
    ],
    [
      'set_flag read',
      { op: 'thunderbird.set_flag', folder: 'Inbox', subject: 'Lunch', read: true },
      { kind: 'thunderbird.message_state', subject: 'Lunch', read: true },
    ],
    [
      'set_flag flagged',
      { op: 'thunderbird.set_flag', folder: 'Inbox', subject: 'Lunch', flagged: true },
      { kind: 'thunderbird.message_state', folder: 'Inbox', subject: 'Lunch', flagged: true },
    ],
    [
      'set_flag tag',
      { op: 'thunderbird.set_flag', folder: 'Inbox', subject: 'Lunch', addTag: 'Urgent Stuff' },
      { kind: 'thunderbird.message_state', subject: 'Lunch', tag: 'urgent stuff' },
    ],
    [
      'set_signature',
      { op: 'thunderbird.set_signature', signature: 'Ann Lee\nCFO' },
      { kind: 'thunderbird.identity_signature', email: 'ann@example.com', equals: 'Ann Lee\nCFO\n' },
    ],
    [
      'add_contact',
      { op: 'thunderbird.add_contact', contact: { name: 'Dana Ray', email: 'dana@example.net' } },
      { kind: 'thunderbird.contact_exists', email: 'DANA@example.net', name: 'dana ray' },
    ],
    [
      'save_draft',
      {
        op: 'thunderbird.save_draft',
        to: ['Dana <dana@example.net>'],
        subject: 'Q3 numbers',
        body: 'attached',
        attachments: [{ filename: 'q3 résumé.xlsx', base64: 'AAEC' }],
      },
      {
        kind: 'thunderbird.draft',
        to: 'dana@example.net',
        subject: 'q3 numbers',
        attachment: 'Q3 RÉSUMÉ.xlsx',
        bodyContains: 'attached',
      },
    ],
    [
      'delete_message to trash',
      { op: 'thunderbird.delete_message', folder: 'Inbox', subject: 'Lunch' },
      { kind: 'thunderbird.message_in_folder', folder: 'Trash', subject: 'Lunch' },
    ],
    [
      'delete_message',
      { op: 'thunderbird.delete_message', folder: 'Inbox', subject: 'Lunch', permanent: true },
      { kind: 'thunderbird.message_absent', folder: 'Inbox', subject: 'Lunch' },
    ],
  ];
  test('a contact’s phone is the number dialled: spacing, dashes and the +44 form pass; another number fails', async () => {
    const files = await tb.build('forge.default', DOC);
    const add = (phone: string) =>
      apply(files, {
        op: 'thunderbird.add_contact',
        contact: { name: 'Dana Ray', email: 'dana@example.net', phone },
      });
    const checks = [
      tb.checkSchema.parse({
        kind: 'thunderbird.contact_exists',
        email: 'dana@example.net',
        phone: '01632 960 123',
      }),
    ];
    await assertVerdicts(
      {
        asked: await add('01632 960 123'),
        packed: await add('01632960123'),
        dashed: await add('01632-960-123'),
        international: await add('+44 1632 960 123'),
        bracketed: await add('+44 (0)1632 960123'),
        dialledAbroad: await add('0044 1632 960123'),
        anotherNumber: await add('01632 960 124'),
        anotherCountry: await add('+33 1632 960 123'),
      },
      checks,
      {
        asked: [true],
        packed: [true],
        dashed: [true],
        international: [true],
        bracketed: [true],
        dialledAbroad: [true],
        anotherNumber: [false],
        anotherCountry: [false],
      },
      (f, c) => tb.probe(f, c as never),
    );
  });

  for (const [name, edit, check] of cases) {
    test(`${name}: the check fails initially and passes after the edit`, async () => {
      const files = await tb.build('forge.default', DOC);
      assert.equal(await probe(files, check), false, 'initial state fails');
      assert.equal(await probe(await apply(files, edit), check), true, 'edited state passes');
    });
  }

  test('pref check and expunged messages', async () => {
    const files = await tb.build('forge.default', DOC);
    assert.equal(
      await probe(files, {
        kind: 'thunderbird.pref',
        name: 'mail.server.server1.hostname',
        value: '127.0.0.1',
      }),
      true,
    );
    assert.equal(
      await probe(files, { kind: 'thunderbird.pref', name: 'mail.server.server1.hostname', value: 'x' }),
      false,
    );
    const key = '.thunderbird/forge.default/Mail/Local Folders/Inbox';
    const messages = parseMbox(files[key]);
    messages[1].flags |= 0x0008; // Thunderbird marks deleted messages expunged until compaction
    const expunged = { ...files, [key]: serializeMbox(messages) };
    assert.equal(
      await probe(expunged, { kind: 'thunderbird.message_absent', folder: 'Inbox', subject: 'Lunch' }),
      true,
    );
  });

  test('edits that match nothing fail loudly', async () => {
    const files = await tb.build('forge.default', DOC);
    await assert.rejects(
      apply(files, { op: 'thunderbird.move_message', folder: 'Inbox', subject: 'nope', to: 'X' }),
      /no message in Inbox/,
    );
  });

  test('schemas refuse unsafe folder names and header injection', () => {
    assert.equal(tb.editSchema.safeParse({ op: 'thunderbird.create_folder', path: '../x' }).success, false);
    assert.equal(tb.editSchema.safeParse({ op: 'thunderbird.create_folder', path: 'A//B' }).success, false);
    assert.equal(
      tb.editSchema.safeParse({ op: 'thunderbird.save_draft', to: ['a@b.co'], subject: 'x\nBcc: e@v.il' })
        .success,
      false,
    );
  });

  test('packProfile is deterministic and unpacks into .thunderbird/', async () => {
    const files = await tb.build('forge.default', DOC);
    const packed = await packProfile(files);
    assert.deepEqual(packed, await packProfile(files));
    const entries = await listTar(packed);
    assert.ok(entries.every((e) => e.path.startsWith('.thunderbird')));
    const prefs = entries.find((e) => e.path === '.thunderbird/forge.default/prefs.js')!;
    assert.deepEqual(prefs.data, files['.thunderbird/forge.default/prefs.js']);
    await assert.rejects(packProfile({ 'Desktop/x': new Uint8Array() }), /not under .thunderbird/);
  });

  test('property: probe reads back what build wrote', async () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}[A-Za-z0-9]$/);
    const message = fc.record({
      subject: fc
        .string({ minLength: 1, maxLength: 40 })
        .filter((s) => !/[\r\n\u0000]/.test(s) && s.trim() !== ''),
      body: fc.string({ maxLength: 200 }),
      read: fc.boolean(),
      flagged: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(word, fc.array(message, { minLength: 1, maxLength: 4 }), async (folder, messages) => {
        const doc = tb.docSchema.parse({
          identities: [{ name: 'A', email: 'a@example.com' }],
          folders: [
            {
              path: folder,
              messages: messages.map((m) => ({
                from: 'x@example.com',
                to: ['a@example.com'],
                subject: m.subject,
                date: '2024-01-02T03:04:05Z',
                text: `From ${m.body}`,
                read: m.read,
                flagged: m.flagged,
              })),
            },
          ],
        });
        const files = await tb.build('p', doc);
        assert.equal(await probe(files, { kind: 'thunderbird.folder_exists', folder }), true);
        for (const m of messages) {
          assert.equal(
            await probe(files, { kind: 'thunderbird.message_in_folder', folder, subject: m.subject }),
            true,
          );
          const same = messages.filter(
            (o) =>
              o.subject.replace(/\s+/g, ' ').trim().toLowerCase() ===
              m.subject.replace(/\s+/g, ' ').trim().toLowerCase(),
          );
          if (same.every((o) => o.read === m.read && o.flagged === m.flagged))
            assert.equal(
              await probe(files, {
                kind: 'thunderbird.message_state',
                folder,
                subject: m.subject,
                read: m.read,
                flagged: m.flagged,
              }),
              true,
            );
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('thunderbird prefs from a spec are data', () => {
  const base = { identities: [{ name: 'Ann Lee', email: 'ann@example.com' }] };
  const refusal = (prefs: Record<string, unknown>) => {
    const r = tb.docSchema.safeParse({ ...base, prefs });
    assert.ok(!r.success, `accepted ${JSON.stringify(prefs)}`);
    return r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
  };

  test('a NUL or other control character in a pref value or name is refused, naming the pref', () => {
    assert.match(
      refusal({
        'mail.compose.default_to_paragraph': 'x\u0000user_pref("mail.server.server1.hostname", "evil");',
      }),
      /mail\.compose\.default_to_paragraph has a control character in its value \(U\+0000\)/,
    );
    assert.match(
      refusal({ 'mail.pane_config.dynamic': 'a\nb' }),
      /control character in its value \(U\+000A\)/,
    );
    assert.match(refusal({ 'mail.pane_config\u0000.dynamic': 1 }), /characters other than letters/);
  });

  test('prefs outside the display/compose allowlist are refused: servers, accounts, identities, the network', () => {
    for (const name of [
      'mail.server.server1.hostname',
      'mail.smtpserver.smtp1.hostname',
      'mail.accountmanager.accounts',
      'mail.identity.id1.useremail',
      'network.proxy.http',
      'extensions.autoDisableScopes',
    ]) {
      assert.match(
        refusal({ [name]: 'x' }),
        new RegExp(`pref ${name.replace(/\./g, '\\.')} is not one a spec may set`),
      );
    }
  });

  test("allowed prefs are written, and the account's own prefs always win", async () => {
    const doc = tb.docSchema.parse({
      ...base,
      prefs: {
        'mail.pane_config.dynamic': 2,
        'mailnews.default_sort_order': 2,
        'mail.identity.id1.compose_html': false,
        // Allowed names that the profile also sets: the profile's value stays.
        'mailnews.tags.$label1.tag': 'Hijacked',
      },
    });
    const files = await tb.build('forge.default', doc);
    const prefs = Buffer.from(files['.thunderbird/forge.default/prefs.js']).toString('utf8');
    assert.match(prefs, /user_pref\("mail\.pane_config\.dynamic", 2\);/);
    assert.match(prefs, /user_pref\("mailnews\.default_sort_order", 2\);/);
    assert.match(prefs, /user_pref\("mail\.identity\.id1\.compose_html", false\);/);
    assert.match(prefs, /user_pref\("mail\.server\.server1\.hostname", "127\.0\.0\.1"\);/);
    assert.doesNotMatch(prefs, /[\u0000-\u0008\u000b-\u001f]/, 'no raw control bytes in prefs.js');
  });

  test('a signature with control characters (from identities, not prefs) is escaped in prefs.js', async () => {
    const doc = tb.docSchema.parse({
      identities: [{ name: 'Ann Lee', email: 'ann@example.com', signature: 'Ann\tLee\u0007' }],
    });
    const files = await tb.build('forge.default', doc);
    const prefs = Buffer.from(files['.thunderbird/forge.default/prefs.js']).toString('utf8');
    assert.doesNotMatch(prefs, /[\u0000-\u0009\u000b-\u001f]/);
    assert.equal(
      parsePrefs(prefs).get('mail.identity.id1.htmlSigText'),
      'Ann\tLee\u0007',
      'read back intact',
    );
  });
});
