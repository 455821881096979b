import { z } from 'zod';

/**
 * The prefs a spec may set in prefs.js: how mail is shown, sorted and composed. Accounts,
 * servers, SMTP, identities' addresses and anything outside mail (network, extensions, updates)
 * are the profile's own and stay out of a spec's reach; identity display settings the spec
 * needs (name, signature, organisation, reply-to) are fields of its `identities`.
 */
export const SPEC_PREF_PATTERNS = [
  /^mail\.pane_config\./,
  /^mail\.compose\./,
  /^mail\.display_/,
  /^mail\.threadpane\./,
  /^mail\.tabs\./,
  /^mail\.ui\./,
  /^mail\.showCondensedAddresses$/,
  /^mail\.show_headers$/,
  /^mail\.default_html_action$/,
  /^mail\.forward_message_mode$/,
  /^mail\.reply_quote_inline$/,
  /^mail\.quoted_/,
  /^mail\.spellcheck\./,
  /^mail\.identity\.[a-zA-Z0-9_]+\.(compose_html|auto_quote|sig_bottom|headerForQuote)$/,
  /^mailnews\.default_(sort_order|sort_type|view_flags|news_sort_order|news_sort_type)$/,
  /^mailnews\.display\./,
  /^mailnews\.mark_message_read\./,
  /^mailnews\.reply_header_/,
  /^mailnews\.send_/,
  /^mailnews\.sort_threads_by_root$/,
  /^mailnews\.tags\.[a-zA-Z0-9_$]+\.(tag|color)$/,
  /^msgcompose\./,
  /^font\.size\./,
];

// C0 controls and DEL: a NUL or line break in prefs.js ends the line Thunderbird reads.
const CONTROL = /[\u0000-\u001f\u007f]/;

export function specPrefAllowed(name: string): boolean {
  return SPEC_PREF_PATTERNS.some((re) => re.test(name));
}

export const specPrefsSchema = z
  .record(z.string().max(200), z.union([z.string().max(1000), z.number().int(), z.boolean()]))
  .superRefine((prefs, ctx) => {
    for (const [name, value] of Object.entries(prefs)) {
      if (CONTROL.test(name) || !/^[a-zA-Z0-9_.\-$]+$/.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `pref name ${JSON.stringify(name)} has characters other than letters, digits and . _ - $`,
        });
      } else if (!specPrefAllowed(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `pref ${name} is not one a spec may set (display, sort and compose prefs only: mail.pane_config.*, mail.compose.*, mailnews.display.*, …)`,
        });
      } else if (typeof value === 'string' && CONTROL.test(value)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `pref ${name} has a control character in its value (U+${value.codePointAt(value.search(CONTROL))!.toString(16).toUpperCase().padStart(4, '0')})`,
        });
      }
    }
  });
