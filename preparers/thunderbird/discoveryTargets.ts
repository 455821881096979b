import { type Locate, located } from '../discovery.ts';

const LOCATORS: Record<string, Record<string, Locate>> = {
  // A state set on every message of one sender points at that sender.
  'thunderbird.message_state': { subject: 'whole', from: 'whole' },
  'thunderbird.message_in_folder': { subject: 'whole' },
  'thunderbird.message_absent': { subject: 'whole' },
  'thunderbird.message_file': { subject: 'whole' },
  'thunderbird.mailing_list': { members: 'whole' },
  // A card made from what a mail holds: the person it is for.
  'thunderbird.contact_exists': { email: 'whole', name: 'whole' },
  'thunderbird.filter_rule': { value: 'whole', folder: 'whole', name: 'whole' },
};

/** The message acted on (by subject, or by sender for all of one sender's), the one a reply or forward answers, a filter's terms, a list's members, the person a card is for. */
export function thunderbirdTargets(check: Record<string, unknown>): string[] {
  const out = located(check, LOCATORS);
  if (check.kind === 'thunderbird.draft' && typeof check.subject === 'string') {
    const answered = /^(?:re|fwd?):\s*(.+)$/i.exec(check.subject)?.[1];
    if (answered) out.push(answered);
  }
  return out;
}
