import { z } from 'zod';
import { type OsworldMapper, unmapped } from '../osworld.ts';

const tbPref = z.object({
  file: z.string(),
  name: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  address: z.boolean().optional(),
});

/** Thunderbird checks → check_thunderbird_prefs (merged per profile by the exporter). */
export const thunderbirdOsworld: Record<string, OsworldMapper> = {
  'thunderbird.pref': (check) => {
    const c = tbPref.safeParse(check);
    if (!c.success) return unmapped('the check does not name the profile directory in `file`');
    if (c.data.value === undefined) {
      return unmapped('a presence-only pref check; check_thunderbird_prefs compares values');
    }
    if (c.data.address)
      return unmapped('check_thunderbird_prefs compares the whole value; this check reads one mail address');
    return {
      ok: true,
      shape: 'expect',
      expect: {
        func: 'check_thunderbird_prefs',
        file: `${c.data.file}/prefs.js`,
        name: c.data.name,
        rule: { method: 'eq', ref: c.data.value },
      },
    };
  },
  'thunderbird.filter_rule': () =>
    unmapped(
      'check_thunderbird_filter compares fields exactly; this check matches name and value case-insensitively',
    ),
  'thunderbird.message_in_folder': () =>
    unmapped(
      'check_thunderbird_folder compares the whole folder with a reference, stricter than one message',
    ),
  'thunderbird.message_absent': () =>
    unmapped(
      'check_thunderbird_folder compares the whole folder with a reference, stricter than one message',
    ),
  'thunderbird.draft': () =>
    unmapped('OSWorld has no draft or template metric; the checker reads Drafts/Templates'),
  'thunderbird.message_file': () =>
    unmapped('check_list reads file names only; the checker parses the saved .eml headers'),
  'thunderbird.saved_search': () =>
    unmapped('OSWorld has no saved-search metric; the checker reads virtualFolders.dat'),
  'thunderbird.mailing_list': () =>
    unmapped('OSWorld has no address-book list metric; the checker reads abook.sqlite lists'),
};
