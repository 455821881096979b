import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CheckerRunner } from '../../preparers/checker/runner.ts';
import { materializeHome } from '../../preparers/home/materialize.ts';
import { applyEdits as applyRaw } from '../../preparers/registry.ts';
import { thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import type { FileMap } from '../../preparers/types.ts';
import { genericRights } from '../../taskcore/verify/rightSolutions.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';

/**
 * What the task creates is compared with the oracle's whole observable state (issue 26): the
 * derived `thunderbird.created` invariant pins every term, the match, the exact actions and the
 * enabled state of a new filter (not its name), a new saved search's terms and scope, and a new
 * draft's To/Cc/Bcc sets and attachments by name and bytes; the generic rights (a filter named
 * otherwise, a filing filter also run on the Inbox) pass. Every verdict is the same in the
 * TypeScript probe and the shipped Python checker.
 */
const runner = new CheckerRunner();
const work = mkdtempSync(join(tmpdir(), 'forge-tb-created-'));
after(async () => {
  await runner.close();
  rmSync(work, { recursive: true, force: true });
});

const DOC = annInboxDoc({
  signature: 'Ann',
  invoice: { text: 'Please pay.' },
  carl: { subject: 'Lunch', date: '2024-03-06T09:30:00Z', text: 'Noon?' },
  moreFolders: [{ path: 'Bills', messages: [] }],
});

const filter = (over: Record<string, unknown> = {}) => ({
  op: 'thunderbird.add_filter',
  filter: {
    name: 'Bills from Bob',
    conditions: [{ field: 'from', operator: 'contains', value: 'bob@example.org' }],
    actions: [{ action: 'move', folder: 'Bills' }],
    ...over,
  },
});

/** Edits as a round applies them: parsed, defaults filled in. */
const applyEdits = (files: FileMap, edits: unknown[]) =>
  applyRaw(
    files,
    edits.map((e) => tb.editSchema.parse(e)),
  );

let n = 0;
/** Verdicts of the derived invariants on a state, from both checkers; they must agree. */
async function verdicts(initial: FileMap, checks: { kind: string }[], files: FileMap) {
  const ours = await Promise.all(checks.map((c) => tb.probe(files, c as never)));
  const home = join(work, `h${n++}`);
  await materializeHome(home, files);
  const python = (await runner.run({ home, checks })) as { pass: boolean; observed: unknown }[];
  checks.forEach((c, i) => {
    assert.equal(python[i]!.pass, ours[i]!.pass, `${c.kind}: both checkers give the same verdict`);
    assert.deepEqual(
      JSON.parse(JSON.stringify(python[i]!.observed)),
      JSON.parse(JSON.stringify(ours[i]!.observed)),
      `${c.kind}: both checkers observe the same`,
    );
  });
  void initial;
  return Object.fromEntries(checks.map((c, i) => [c.kind, ours[i]!.pass]));
}

async function scene(oracle: { op: string }[]) {
  const initial = await tb.build('forge.default', DOC);
  const solved = await applyEdits(initial, oracle);
  const checks = (await tb.invariants(initial, solved, Object.keys(initial))) as { kind: string }[];
  const state = (edits: { op: string }[]) => applyEdits(initial, edits);
  return { initial, solved, checks, state };
}

describe('thunderbird.created: what the task creates equals the oracle', () => {
  test('a new filter: every term, the actions and the enabled state count; its name does not', async () => {
    const { initial, solved, checks, state } = await scene([filter()]);
    assert.deepEqual(
      checks.map((c) => c.kind),
      ['thunderbird.unchanged', 'thunderbird.created', 'thunderbird.prefs_kept', 'thunderbird.lists_kept'],
    );
    const pass = async (edits: { op: string }[]) =>
      (await verdicts(initial, checks, await state(edits)))['thunderbird.created'];
    assert.equal((await verdicts(initial, checks, initial))['thunderbird.created'], true, 'untouched');
    assert.equal((await verdicts(initial, checks, solved))['thunderbird.created'], true, 'oracle');
    assert.equal(await pass([filter({ name: 'Sort Bob' })]), true, 'another name');
    const near: [string, Record<string, unknown>][] = [
      [
        "operator doesn't contain",
        { conditions: [{ field: 'from', operator: "doesn't contain", value: 'bob@example.org' }] },
      ],
      ['another field', { conditions: [{ field: 'to', operator: 'contains', value: 'bob@example.org' }] }],
      ['another value', { conditions: [{ field: 'from', operator: 'contains', value: 'example.org' }] }],
      [
        'a term too many',
        {
          conditions: [
            { field: 'from', operator: 'contains', value: 'bob@example.org' },
            { field: 'subject', operator: 'contains', value: 'Invoice' },
          ],
        },
      ],
      ['an extra Delete', { actions: [{ action: 'move', folder: 'Bills' }, { action: 'delete' }] }],
      ['copy for move', { actions: [{ action: 'copy', folder: 'Bills' }] }],
      ['disabled', { enabled: false }],
      ['manual runs only', { when: 'manual' }],
    ];
    for (const [name, over] of near) assert.equal(await pass([filter(over)]), false, name);
    assert.equal(await pass([filter(), filter({ name: 'Twice' })]), false, 'a second filter');
  });

  test('any and all differ only with several terms; a saved search by its terms and scope', async () => {
    const two = {
      match: 'any',
      conditions: [
        { field: 'from', operator: 'contains', value: 'bob' },
        { field: 'subject', operator: 'contains', value: 'invoice' },
      ],
    };
    const f = await scene([filter(two)]);
    assert.equal(
      (await verdicts(f.initial, f.checks, await f.state([filter({ ...two, match: 'all' })])))[
        'thunderbird.created'
      ],
      false,
    );
    const search = (over: Record<string, unknown> = {}) => ({
      op: 'thunderbird.add_saved_search',
      search: {
        name: 'From Bob',
        scope: ['Inbox'],
        conditions: [{ field: 'from', operator: 'contains', value: 'bob' }],
        ...over,
      },
    });
    const s = await scene([search()]);
    const pass = async (e: { op: string }[]) =>
      (await verdicts(s.initial, s.checks, await s.state(e)))['thunderbird.created'];
    assert.equal(await pass([search()]), true);
    assert.equal(
      await pass([search({ conditions: [{ field: 'from', operator: "doesn't contain", value: 'bob' }] })]),
      false,
    );
    assert.equal(await pass([search({ scope: ['Inbox', 'Bills'] })]), false, 'a wider scope');
  });

  test('the new draft: exact recipients, attachments by name and bytes, or the task file it copies', async () => {
    const draft = (over: Record<string, unknown> = {}) => ({
      op: 'thunderbird.save_draft',
      to: ['Bob <bob@example.org>'],
      subject: 'Re: Invoice 42',
      body: 'Paid, receipt attached.',
      attachments: [{ filename: 'receipt.txt', content: 'Receipt 42: paid\n' }],
      ...over,
    });
    const { initial, checks, state } = await scene([draft()]);
    const pass = async (e: { op: string }[]) =>
      (await verdicts(initial, checks, await state(e)))['thunderbird.created'];
    assert.equal(
      await pass([draft({ to: ['bob@example.org'], body: 'Done.', subject: 'RE: Invoice 42' })]),
      true,
      'display name and body free',
    );
    assert.equal(
      await pass([draft({ attachments: [{ filename: 'receipt.txt', content: 'Receipt 42: paid\r\n' }] })]),
      true,
      'CRLF',
    );
    assert.equal(await pass([draft({ cc: ['carl@example.org'] })]), false, 'an extra Cc');
    assert.equal(
      await pass([draft({ attachments: [{ filename: 'receipt.txt', content: 'Receipt 41: paid\n' }] })]),
      false,
      'another file',
    );
    assert.equal(await pass([draft({ attachments: [] })]), false, 'no attachment');
    assert.equal(await pass([draft(), draft()]), false, 'two drafts');
  });

  test('a domain term reads the same with "contains" or "ends with", "@" or not (an address also with "is"); other operators differ', async () => {
    const search = (operator: string, value: string) => ({
      op: 'thunderbird.add_saved_search',
      search: { name: 'Example mail', scope: ['Inbox'], conditions: [{ field: 'from', operator, value }] },
    });
    const s = await scene([search('contains', 'example.org')]);
    const created = s.checks.find((c) => c.kind === 'thunderbird.created') as unknown as {
      searches: { terms: string[] }[];
    };
    assert.deepEqual(created.searches[0]!.terms, ['from|contains|example.org']);
    const pass = async (e: { op: string }[]) =>
      (await verdicts(s.initial, s.checks, await s.state(e)))['thunderbird.created'];
    assert.equal(await pass([search('ends with', '@example.org')]), true, 'ends with @domain');
    assert.equal(await pass([search('ends with', 'Example.org')]), true, 'ends with domain');
    assert.equal(await pass([search('contains', '@example.org')]), true, 'contains @domain');
    assert.equal(await pass([search('begins with', 'example.org')]), false, 'begins with selects no sender');
    assert.equal(await pass([search('is', '@example.org')]), false, 'is');
    assert.equal(await pass([search('ends with', 'example.com')]), false, 'another domain');
    // One whole address: "is" picks out that sender as "contains" does; "begins with" stays apart.
    const a = await scene([search('contains', 'bob@example.org')]);
    const addressPass = async (e: { op: string }[]) =>
      (await verdicts(a.initial, a.checks, await a.state(e)))['thunderbird.created'];
    assert.equal(await addressPass([search('is', 'Bob@example.org')]), true, 'is the address');
    assert.equal(await addressPass([search('ends with', 'bob@example.org')]), true, 'ends with the address');
    assert.equal(await addressPass([search('is', 'carl@example.org')]), false, 'is another address');
    assert.equal(await addressPass([search('begins with', 'bob@example.org')]), false, 'begins with');
    // Not a domain or an address: a name keeps its operator ("bob" ends no address).
    const b = await scene([search('contains', 'bob')]);
    assert.equal(
      (await verdicts(b.initial, b.checks, await b.state([search('ends with', 'bob')])))[
        'thunderbird.created'
      ],
      false,
      'ends with a name',
    );
  });

  test('a reply to several people: To and Cc as one set; a recipient missing or added still fails', async () => {
    const reply = (to: string[], cc: string[] = []) => ({
      op: 'thunderbird.save_draft',
      to,
      cc,
      subject: 'Re: Lunch',
      body: 'Noon works.',
    });
    const { initial, checks, state } = await scene([
      reply(['carl@example.org', 'dee@example.org'], ['eve@example.org']),
    ]);
    const pass = async (e: { op: string }[]) =>
      (await verdicts(initial, checks, await state(e)))['thunderbird.created'];
    assert.equal(
      await pass([reply(['carl@example.org', 'dee@example.org', 'eve@example.org'])]),
      true,
      'everyone in To',
    );
    assert.equal(
      await pass([reply(['carl@example.org'], ['dee@example.org', 'eve@example.org'])]),
      true,
      'To moved to Cc',
    );
    assert.equal(await pass([reply(['carl@example.org', 'dee@example.org'])]), false, 'the Cc dropped');
    assert.equal(
      await pass([reply(['carl@example.org', 'dee@example.org', 'eve@example.org'], ['bob@example.org'])]),
      false,
      'an extra recipient',
    );
    // A new message (no "Re:") keeps To and Cc apart: which of them a person is in is the task.
    const fresh = (to: string[], cc: string[] = []) => ({ ...reply(to, cc), subject: 'Lunch plans' });
    const n = await scene([fresh(['carl@example.org'], ['eve@example.org'])]);
    assert.equal(
      (await verdicts(n.initial, n.checks, await n.state([fresh(['carl@example.org', 'eve@example.org'])])))[
        'thunderbird.created'
      ],
      false,
      'a new message with its Cc in To',
    );
  });

  test('a file attached from the home directory stays that file; an office file may be resaved', async () => {
    const initial = {
      ...(await tb.build('forge.default', DOC)),
      'Documents/report.txt': Buffer.from('Q3: 41\n'),
    };
    const draft = (attachments: unknown[]) => ({
      op: 'thunderbird.save_draft',
      to: ['bob@example.org'],
      subject: 'Report',
      attachments,
    });
    const oracle = [draft([{ filename: 'report.txt', file: 'Documents/report.txt' }])];
    const solved = await applyEdits(initial, oracle);
    const checks = (await tb.invariants(initial, solved, Object.keys(initial))) as { kind: string }[];
    const created = checks.find((c) => c.kind === 'thunderbird.created') as unknown as {
      messages: { attachments: unknown[] }[];
    };
    assert.deepEqual(created.messages[0]!.attachments, [
      { name: 'report.txt', file: 'Documents/report.txt' },
    ]);
    const other = await applyEdits(initial, [draft([{ filename: 'report.txt', content: 'Q3: 14\n' }])]);
    assert.equal((await verdicts(initial, checks, solved))['thunderbird.created'], true);
    assert.equal((await verdicts(initial, checks, other))['thunderbird.created'], false);
  });
});

describe('generic Thunderbird rights', () => {
  test('a filing filter also run on the Inbox passes the invariants; moving other mail by hand does not', async () => {
    const { initial, checks, state } = await scene([filter()]);
    const rights = genericRights([tb.editSchema.parse(filter())]);
    assert.deepEqual(
      rights.map((r) => r.name),
      ['thunderbird-filter-name', 'thunderbird-filter-run-existing'],
    );
    const ran = await state(rights[1]!.edits);
    const bills = tb.checkSchema.parse({
      kind: 'thunderbird.message_in_folder',
      folder: 'Bills',
      subject: 'Invoice 42',
    });
    assert.equal((await tb.probe(ran, bills)).pass, true, 'Run Now moved the matching mail');
    const v = await verdicts(initial, checks, ran);
    assert.deepEqual(v, {
      'thunderbird.unchanged': true,
      'thunderbird.created': true,
      'thunderbird.prefs_kept': true,
      'thunderbird.lists_kept': true,
    });
    const byHand = await state([
      filter(),
      { op: 'thunderbird.move_message', folder: 'Inbox', subject: 'Lunch', to: 'Bills' } as { op: string },
    ]);
    assert.equal((await verdicts(initial, checks, byHand))['thunderbird.unchanged'], false);
    // A filter that only marks read has no Run Now alternative.
    assert.deepEqual(
      genericRights([tb.editSchema.parse(filter({ actions: [{ action: 'mark_read' }] }))]).map((r) => r.name),
      ['thunderbird-filter-name'],
    );
  });

  test('a tagging filter also run on the Inbox passes the invariants; tagging other mail by hand does not', async () => {
    const tagging = filter({ actions: [{ action: 'add_tag', tag: 'Important' }] });
    const { initial, checks, state } = await scene([tagging]);
    const ran = await state([{ ...tagging, runOn: 'Inbox' } as { op: string }]);
    const tagged = tb.checkSchema.parse({
      kind: 'thunderbird.message_state',
      folder: 'Inbox',
      subject: 'Invoice 42',
      tag: 'Important',
    });
    assert.equal((await tb.probe(ran, tagged)).pass, true, 'Run Now tagged the matching mail');
    assert.deepEqual(await verdicts(initial, checks, ran), {
      'thunderbird.unchanged': true,
      'thunderbird.created': true,
      'thunderbird.prefs_kept': true,
      'thunderbird.lists_kept': true,
    });
    const byHand = await state([
      tagging,
      { op: 'thunderbird.set_flag', folder: 'Inbox', subject: 'Lunch', addTag: 'Important' } as {
        op: string;
      },
    ]);
    assert.equal((await verdicts(initial, checks, byHand))['thunderbird.unchanged'], false);
  });
});
