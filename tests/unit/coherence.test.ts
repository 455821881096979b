import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { coherenceProblems } from '../../taskcore/verify/coherence.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

const mail = (from: string, text: string, extra: Record<string, unknown> = {}) => ({
  from,
  to: ['Priya Shah <priya.shah@harbourtrust.org>'],
  subject: 'Room for the quarterly review',
  date: '2026-03-02T09:30:00Z',
  text,
  ...extra,
});
const inbox = (...messages: unknown[]) => ({ folders: [{ path: 'Inbox', messages }] });
const problems = (docs: unknown[], instruction = 'Book the room the mail asks for.') =>
  coherenceProblems({ instruction, docs });

describe('coherence: artefacts that contradict each other', () => {
  test('a mail signed by its sender, a short form of their name, or anyone on a team address holds together', () => {
    assert.deepEqual(
      problems([
        inbox(
          mail('Ann Lee <ann.lee@harbourtrust.org>', 'Hi Priya,\n\nCould we have room 4?\n\nBest,\nAnn\n'),
          mail('Robert Mendes <robert.mendes@harbourtrust.org>', 'Fine by me.\n\nThanks,\nRob\nFacilities'),
          mail('Facilities <facilities@harbourtrust.org>', 'Booked.\n\nRegards,\nTom'),
          mail('Ann Lee <ann.lee@harbourtrust.org>', 'The review is on Tuesday, 3 March 2026 at 10:00.'),
        ),
      ]),
      [],
    );
  });

  test('a mail from one person signed with another person’s name is incoherent', () => {
    const found = problems([
      inbox(
        mail('Ann Lee <ann.lee@harbourtrust.org>', 'Could we have room 4?\n\nKind regards,\nMarcus Bell'),
      ),
    ]);
    assert.deepEqual(found, ['a mail from "Ann Lee" is signed "Marcus"']);
  });

  test('one address given to two people, or a name on someone else’s address, is incoherent', () => {
    const twoPeople = problems([
      inbox(
        mail('Ann Lee <a.lee@harbourtrust.org>', 'Room 4, please.'),
        mail('Arthur Lee <a.lee@harbourtrust.org>', 'Room 5, please.'),
      ),
    ]);
    assert.equal(twoPeople.length, 1);
    assert.match(twoPeople[0]!, /a\.lee@harbourtrust\.org belongs to both "Ann Lee" and "Arthur Lee"/);
    // The instruction and the files are read together.
    assert.deepEqual(
      problems(
        [inbox(mail('Ann Lee <ann.lee@harbourtrust.org>', 'Room 4.'))],
        'Reply to Tod Schultz <ann.lee@harbourtrust.org>.',
      ),
      ['"Tod Schultz" is named on ann.lee@harbourtrust.org'],
    );
    // An organisation named on its own domain is its address.
    assert.deepEqual(
      problems([inbox(mail('City Library <notices@citylibrary.org>', 'Your books are due.'))]),
      [],
    );
  });

  test('a weekday beside a date it does not fall on, or a date that does not exist, is incoherent', () => {
    assert.deepEqual(problems([{ paragraphs: ['The review is on Monday, 3 March 2026.'] }]), [
      '"Monday, 3 March 2026" falls on a tuesday',
    ]);
    assert.deepEqual(problems([{ title: 'Board meeting: Thursday, March 5th, 2026' }]), []);
    assert.deepEqual(problems([{ title: 'Board meeting: Friday, March 5th, 2026' }]), [
      '"Friday, March 5th, 2026" falls on a thursday',
    ]);
    assert.deepEqual(problems([{ title: 'Payroll closes Tue 31 Feb 2026' }]), [
      '"Tue 31 Feb 2026" is not a date',
    ]);
  });

  test('the pipeline rejects an incoherent task as content_incoherent before building anything', async () => {
    const [id, { spec }] = [...loadSkillLibrary()].find(([k]) => k === 'thunderbird.messages.flag-message')!;
    const authored = await authorTask(spec, 11, offlineCaller, { level: 'explicit' });
    assert.ok(authored.ok, id);
    const coherent = await prepareInMemory(spec, 'file', authored.context);
    assert.ok(coherent.ok, coherent.ok ? '' : `${coherent.reason}: ${coherent.detail}`);
    // The same task with one sender's address handed to another person in the instruction.
    const sender = JSON.stringify(authored.context).match(
      /"([A-Z][a-z]+ [A-Z][a-z]+) <([^<>\s]+@[^<>\s]+)>"/,
    );
    assert.ok(sender, 'the offline author names a sender');
    const spoiled = structuredClone(authored.context) as Record<string, unknown>;
    const text = JSON.stringify(spoiled).replaceAll(
      `${sender[1]} <${sender[2]}>`,
      `Tod Schultz <${sender[2]}>`,
    );
    const rejected = await prepareInMemory(spec, 'file', JSON.parse(text));
    assert.equal(rejected.ok, false);
    assert.equal(rejected.ok ? '' : rejected.reason, 'content_incoherent');
    assert.equal(rejected.ok ? '' : rejected.node, 'verify_coherence');
  });
});
