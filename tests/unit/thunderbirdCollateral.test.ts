import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEdits as applyRaw } from '../../preparers/registry.ts';
import { thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import { thunderbirdMutants } from '../../preparers/thunderbird/mutants.ts';
import type { ThunderbirdEdit } from '../../preparers/thunderbird/schema.ts';
import type { FileMap } from '../../preparers/types.ts';
import { assertVerdicts } from '../support/checkerHome.ts';
import { annInboxDoc } from '../support/thunderbirdDoc.ts';
import { assertNearMissKilled } from '../support/thunderbirdNearMiss.ts';

/**
 * Collateral in a Thunderbird profile (issue 26). Mailing lists are held: a list made with a
 * member too many, or a list made besides the asked one, fails `thunderbird.lists_kept` while the untouched profile passes it, so the near
 * miss "with a member not asked for" is killed by a discriminating check; lists that were there
 * stay as they were. Both checkers agree. And a profile without mail still gets its bystander for a
 * second draft or a card too many.
 */
const DOC = annInboxDoc({
  signature: 'Ann',
  invoice: { text: 'Please pay.' },
  carl: { subject: 'Lunch', date: '2024-03-06T09:30:00Z', text: 'Noon?' },
  contacts: [
    { name: 'Bob Stone', email: 'bob@example.org' },
    { name: 'Carl Dean', email: 'carl@example.org' },
    { name: 'Dina Park', email: 'dina@example.org' },
  ],
});
const parse = (edits: unknown[]) => edits.map((e) => tb.editSchema.parse(e)) as ThunderbirdEdit[];
const list = (name: string, members: string[]) => ({
  op: 'thunderbird.add_mailing_list',
  list: { name, members },
});

describe('thunderbird.lists_kept', () => {
  test('the asked list as made passes; a member too many, a stray list or an old list gone fails', async () => {
    const base = await tb.build('forge.default', DOC);
    // A list that was there before the task.
    const initial = await applyRaw(base, parse([list('Board', ['dina@example.org'])]));
    const oracle = parse([list('Volunteers', ['bob@example.org', 'carl@example.org'])]);
    const solved = await applyRaw(initial, oracle);
    const checks = (
      (await tb.invariants(initial, solved, Object.keys(initial))) as { kind: string }[]
    ).filter((c) => c.kind === 'thunderbird.lists_kept');
    assert.equal(checks.length, 1);
    const state = (edits: unknown[]) => applyRaw(initial, parse(edits));
    const states: Record<string, FileMap> = {
      untouched: initial,
      oracle: solved,
      // Members added in the other order, the name typed with a capital and a space: the same list.
      otherOrder: await state([list('volunteers ', ['carl@example.org', 'bob@example.org'])]),
      memberTooMany: await state([
        list('Volunteers', ['bob@example.org', 'carl@example.org', 'dina@example.org']),
      ]),
      strayList: await state([
        list('Volunteers', ['bob@example.org', 'carl@example.org']),
        list('Helpers', ['bob@example.org']),
      ]),
      // The list that was there is gone (deleted on the way).
      oldListGone: await applyRaw(base, parse([list('Volunteers', ['bob@example.org', 'carl@example.org'])])),
    };
    await assertVerdicts(
      states,
      checks,
      {
        untouched: [true],
        oracle: [true],
        otherOrder: [true],
        memberTooMany: [false],
        strayList: [false],
        oldListGone: [false],
      },
      (files, c) => tb.probe(files, c as never),
    );
  });

  test('the near miss "with a member not asked for" is proposed and killed by the invariant', async () => {
    const initial = await tb.build('forge.default', DOC);
    const edits = parse([list('Volunteers', ['bob@example.org'])]);
    await assertNearMissKilled(initial, edits, /a member not asked for/, 'thunderbird.lists_kept');
  });
});

describe('a bystander where the profile has no mail', () => {
  const EMPTY = {
    ...DOC,
    folders: DOC.folders.map((f) => ({ ...f, messages: [] })),
    contacts: [{ name: 'Dina Park', email: 'dina@example.org' }],
  };
  test('a second draft goes to a card of the book; a card too many is a mistyped copy, never a duplicate', async () => {
    const initial = await tb.build('forge.default', EMPTY);
    const draft = parse([
      {
        op: 'thunderbird.save_draft',
        to: ['Bob Stone <bob@example.org>'],
        subject: 'Totals',
        body: 'See the sheet.',
      },
    ]);
    const names = (await thunderbirdMutants(draft, initial)).map((m) => m.name);
    assert.ok(
      names.some((n) => n.includes('a second one to dina@example.org')),
      names.join(' | '),
    );
    const card = parse([
      { op: 'thunderbird.add_contact', contact: { name: 'Carl Dean', email: 'carl@example.org' } },
    ]);
    const cards = (await thunderbirdMutants(card, initial)).map((m) => m.name);
    assert.ok(
      cards.some((n) => n.includes('a card for car@example.org too')),
      cards.join(' | '),
    );
    assert.ok(
      !cards.some((n) => n.includes('a card for dina@example.org')),
      'a copy of a card that is there',
    );
  });
});
