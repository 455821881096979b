import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { parseCheck, probeCheck } from '../../preparers/registry.ts';
import { thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import type { FileMap } from '../../preparers/types.ts';
import { materializeHome, runCheckerBatch } from '../support/checkerHome.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';

/**
 * The edits and check kinds for saved files, templates, reply-all, saved searches, mailing lists
 * and preferences: each check fails on the initial profile, passes after the right edit, fails
 * after a near miss, and the portable checker gives the same verdict on every state.
 */
const CSV = 'item,qty\nbolts,40\nnuts,12\n';
const DOC = annInboxDoc({
  signature: 'Ann',
  invoice: { text: 'Please pay by Friday.', attachments: [{ filename: 'invoice-42.csv', content: CSV }] },
  carl: {
    subject: 'Lunch',
    date: '2024-03-06T09:30:00Z',
    text: 'Noon?',
    cc: ['Dana <dana@example.net>', 'eve@example.net'],
  },
  contacts: [{ name: 'Bob', email: 'bob@example.org' }],
});

const parse = (edit: unknown) => tb.editSchema.parse(edit);
const verdict = async (files: FileMap, check: unknown) =>
  (await tb.probe(files, tb.checkSchema.parse(check))).pass;

interface Case {
  name: string;
  edits: unknown[];
  near: unknown[];
  check: unknown;
}

const cases: Case[] = [
  {
    name: 'set_pref / pref',
    edits: [{ op: 'thunderbird.set_pref', name: 'mail.identity.id1.compose_html', value: false }],
    near: [{ op: 'thunderbird.set_pref', name: 'mail.identity.id1.compose_html', value: true }],
    check: { kind: 'thunderbird.pref', name: 'mail.identity.id1.compose_html', value: false },
  },
  {
    name: 'save_template / draft in Templates',
    edits: [{ op: 'thunderbird.save_template', subject: 'Weekly status', body: 'Done this week:' }],
    near: [
      {
        op: 'thunderbird.save_draft',
        to: ['x@example.net'],
        subject: 'Weekly status',
        body: 'Done this week:',
      },
    ],
    check: {
      kind: 'thunderbird.draft',
      folder: 'Templates',
      subject: 'weekly status',
      bodyContains: 'Done this week',
    },
  },
  {
    name: 'reply-all / draft recipients on one message',
    edits: [
      {
        op: 'thunderbird.save_draft',
        to: ['carl@example.org'],
        cc: ['Dana <dana@example.net>', 'eve@example.net'],
        subject: 'Re: Lunch',
      },
    ],
    near: [
      { op: 'thunderbird.save_draft', to: ['carl@example.org'], subject: 'Re: Lunch' },
      { op: 'thunderbird.save_draft', to: ['dana@example.net', 'eve@example.net'], subject: 'Re: Lunch' },
    ],
    check: {
      kind: 'thunderbird.draft',
      recipients: ['carl@example.org', 'dana@example.net', 'eve@example.net'],
      subject: 'Re: Lunch',
    },
  },
  {
    name: 'draft toHeader: the address must be in Cc, not To',
    edits: [
      {
        op: 'thunderbird.save_draft',
        to: ['carl@example.org'],
        cc: ['dana@example.net'],
        subject: 'Re: Lunch',
      },
    ],
    near: [
      {
        op: 'thunderbird.save_draft',
        to: ['dana@example.net'],
        cc: ['carl@example.org'],
        subject: 'Re: Lunch',
      },
    ],
    check: { kind: 'thunderbird.draft', to: 'dana@example.net', toHeader: 'cc', subject: 'Re: Lunch' },
  },
  {
    name: 'save_message_file / message_file',
    edits: [
      {
        op: 'thunderbird.save_message_file',
        folder: 'Inbox',
        subject: 'Invoice 42',
        to: 'Cases/invoice.eml',
      },
    ],
    near: [
      { op: 'thunderbird.save_message_file', folder: 'Inbox', subject: 'Lunch', to: 'Cases/invoice.eml' },
    ],
    check: {
      kind: 'thunderbird.message_file',
      path: 'Cases/invoice.eml',
      subject: 'Invoice 42',
      from: 'bob@',
    },
  },
  {
    name: 'save_attachment / file bytes',
    edits: [
      {
        op: 'thunderbird.save_attachment',
        folder: 'Inbox',
        from: 'bob@',
        filename: 'INVOICE-42.csv',
        to: 'Projects/invoice-42.csv',
      },
    ],
    near: [
      { op: 'thunderbird.save_message_file', folder: 'Inbox', from: 'bob@', to: 'Projects/invoice-42.csv' },
    ],
    check: { kind: 'os.content_equals', path: 'Projects/invoice-42.csv', content: CSV },
  },
  {
    name: 'add_saved_search / saved_search',
    edits: [
      {
        op: 'thunderbird.add_saved_search',
        search: {
          name: 'From Bob',
          scope: ['Inbox'],
          conditions: [{ field: 'from', value: 'bob@example.org' }],
        },
      },
    ],
    near: [
      {
        op: 'thunderbird.add_saved_search',
        search: {
          name: 'From Bob',
          scope: ['Trash'],
          conditions: [{ field: 'from', value: 'bob@example.org' }],
        },
      },
      {
        op: 'thunderbird.add_saved_search',
        search: {
          name: 'From Bob',
          scope: ['Inbox'],
          conditions: [{ field: 'subject', value: 'bob@example.org' }],
        },
      },
    ],
    check: {
      kind: 'thunderbird.saved_search',
      name: 'from bob',
      field: 'from',
      value: 'BOB@example.org',
      scope: 'Inbox',
    },
  },
  {
    name: 'add_mailing_list / mailing_list (exact)',
    edits: [
      {
        op: 'thunderbird.add_mailing_list',
        list: { name: 'Lunch club', members: ['bob@example.org', 'Dana Cruz <dana@example.net>'] },
      },
    ],
    near: [
      {
        op: 'thunderbird.add_mailing_list',
        list: { name: 'Lunch club', members: ['bob@example.org', 'dana@example.net', 'eve@example.net'] },
      },
      { op: 'thunderbird.add_mailing_list', list: { name: 'Lunch club', members: ['bob@example.org'] } },
    ],
    check: {
      kind: 'thunderbird.mailing_list',
      name: 'lunch CLUB',
      members: ['dana@example.net', 'bob@example.org'],
      exact: true,
    },
  },
];

const work = await mkdtemp(path.join(tmpdir(), 'tb-compose-'));
after(() => rm(work, { recursive: true, force: true }));

describe('thunderbird: files, templates, reply-all, searches, lists, prefs', () => {
  test('each check: initial fails, right edit passes, near misses fail; the checker agrees', async () => {
    const initial = await tb.build('forge.default', DOC);
    const jobs: { home: string; checks: unknown[] }[] = [];
    const expected: boolean[] = [];
    for (const [i, c] of cases.entries()) {
      const states: [string, FileMap, boolean][] = [
        ['initial', initial, false],
        ['right', await tb.apply(initial, c.edits.map(parse)), true],
      ];
      for (const [j, near] of c.near.entries())
        states.push([`near ${j}`, await tb.apply(initial, [parse(near)]), false]);
      for (const [label, files, want] of states) {
        const got = (await probeCheck(files, parseCheck(c.check))).pass;
        assert.equal(got, want, `${c.name}: ${label}`);
        const home = path.join(work, `s${i}-${label.replace(' ', '')}`);
        await materializeHome(home, files);
        jobs.push({ home, checks: [parseCheck(c.check)] });
        expected.push(want);
      }
    }
    const checker = path.join(work, 'forge_check.py');
    await writeFile(checker, checkerSource().text);
    const verdicts = await runCheckerBatch(checker, path.join(work, 'jobs.json'), jobs);
    assert.deepEqual(
      verdicts.map((v) => v[0]!.pass),
      expected,
      'the Python checker gives the same verdicts',
    );
  });

  test('a mailing list member without a card gets one; the list reads back its members', async () => {
    const initial = await tb.build('forge.default', DOC);
    const files = await tb.apply(initial, [
      parse({
        op: 'thunderbird.add_mailing_list',
        list: { name: 'Team', members: ['Zoe Park <zoe@example.net>'] },
      }),
    ]);
    assert.equal(
      await verdict(files, {
        kind: 'thunderbird.contact_exists',
        email: 'zoe@example.net',
        name: 'Zoe Park',
      }),
      true,
    );
    assert.equal(
      await verdict(files, { kind: 'thunderbird.contact_exists', email: 'bob@example.org' }),
      true,
    );
  });

  test('saving an attachment the message does not have fails naming it', async () => {
    const initial = await tb.build('forge.default', DOC);
    await assert.rejects(
      tb.apply(initial, [
        parse({
          op: 'thunderbird.save_attachment',
          folder: 'Inbox',
          subject: 'Lunch',
          filename: 'x.pdf',
          to: 'x.pdf',
        }),
      ]),
      /no attachment named x\.pdf/,
    );
    assert.throws(() =>
      parse({ op: 'thunderbird.save_message_file', folder: 'Inbox', subject: 'Lunch', to: '../x.eml' }),
    );
  });

  test('bulk: an edit already on the whole folder has no wider form; a narrow one becomes select-all', () => {
    const all = parse({ op: 'thunderbird.set_flag', folder: 'Bills', all: true, flagged: true });
    assert.equal(tb.bulk([all]), undefined);
    const one = parse({ op: 'thunderbird.set_flag', folder: 'Bills', subject: 'x', flagged: true });
    assert.deepEqual(
      tb.bulk([one])?.map((e) => (e as { all?: boolean }).all),
      [true],
    );
  });
});
