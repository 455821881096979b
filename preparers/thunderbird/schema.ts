import { z } from 'zod';
import { safeRelativePath } from '../paths.ts';
import { specPrefsSchema } from './specPrefs.ts';

const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n\u0000]*$/, 'a single line (no line breaks)');

/** "Ann Lee <ann@example.com>" or "ann@example.com". */
export const address = oneLine(320)
  .regex(
    /[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+/,
    'an e-mail address, optionally with a name: "Ann Lee <ann@example.com>"',
  )
  .describe('An e-mail address, optionally with a display name: "Ann Lee <ann@example.com>".');

export const email = z.email().max(254).describe('A bare e-mail address, e.g. "ann@example.com".');

/** A folder segment that is also a safe file name in the mbox tree. */
const folderSegment = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N} _\-.,&()'+]*$/u,
    "letters, digits, spaces and _-.,&()'+, starting with a letter or digit",
  )
  .refine((s) => !/\.(sbd|msf|dat)$/i.test(s) && !s.endsWith(' ') && !s.endsWith('.'), {
    message: 'must not end with .sbd/.msf/.dat, a space or a dot',
  });

export const folderPath = z
  .string()
  .min(1)
  .max(300)
  .refine((path) => path.split('/').every((segment) => folderSegment.safeParse(segment).success), {
    message:
      'a folder path like "Inbox" or "Projects/Alpha": "/"-separated names of letters, digits, spaces and _-.,&()\'+',
  })
  .describe(
    'A Local Folders folder path, "/"-separated for subfolders: "Inbox", "Sent", "Drafts", "Trash", "Projects/Alpha".',
  );

const attachmentSchema = z
  .strictObject({
    filename: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[^/\\\u0000-\u001f"]+$/, 'a plain file name without slashes, quotes or control characters')
      .describe('Attachment file name, e.g. "invoice-0042.pdf".'),
    content: z.string().max(2_000_000).optional().describe('Attachment content as text.'),
    base64: z.base64().max(3_000_000).optional().describe('Attachment content as base64 (binary files).'),
    file: safeRelativePath
      .optional()
      .describe('A home file attached as it is at that point of the edits, e.g. "Documents/budget.xlsx".'),
    contentType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .optional()
      .describe('MIME type; default guessed from the file name.'),
  })
  .refine((a) => [a.content, a.base64, a.file].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of content, base64 or file',
  })
  .describe('A file attached to a message.');
export type AttachmentSpec = z.infer<typeof attachmentSchema>;

const tagName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[^\r\n"]+$/)
  .describe('A tag name ("Important") or key ("$label1").');

export const messageSchema = z
  .strictObject({
    from: address.describe('Sender: "Ann Lee <ann@example.com>".'),
    to: z.array(address).min(1).max(50).describe('Recipients.'),
    cc: z.array(address).max(50).default([]).describe('Carbon-copy recipients.'),
    subject: oneLine(300).describe('Subject line.'),
    date: z.iso.datetime({ offset: true }).describe('Date sent, ISO 8601, e.g. "2024-03-05T09:30:00Z".'),
    text: z.string().max(1_000_000).optional().describe('Plain-text body.'),
    html: z
      .string()
      .max(2_000_000)
      .optional()
      .describe('HTML body (with text, the message is multipart/alternative).'),
    attachments: z.array(attachmentSchema).max(20).default([]),
    read: z.boolean().default(false).describe('Already read (X-Mozilla-Status 0x0001).'),
    flagged: z.boolean().default(false).describe('Starred/flagged (X-Mozilla-Status 0x0004).'),
    replied: z.boolean().default(false).describe('Replied to (X-Mozilla-Status 0x0002).'),
    tags: z.array(tagName).max(10).default([]).describe('Tags (X-Mozilla-Keys), by name or key.'),
    messageId: z
      .string()
      .regex(/^<[^<>\s]+@[^<>\s]+>$/)
      .optional()
      .describe('Message-ID "<id@host>"; default derived from the content.'),
  })
  .describe('One e-mail message, composed with MIME as a real client would.');
export type MessageSpec = z.infer<typeof messageSchema>;

export const identitySchema = z
  .strictObject({
    name: oneLine(128).min(1).describe('Full name shown in From.'),
    email: email,
    signature: z.string().max(10_000).optional().describe('Signature text (htmlSigText).'),
    signatureIsHtml: z.boolean().default(false).describe('Interpret the signature as HTML.'),
    organization: oneLine(128).optional(),
    replyTo: email.optional(),
  })
  .describe('A sending identity of the mail account.');
export type IdentitySpec = z.infer<typeof identitySchema>;

export const contactSchema = z
  .strictObject({
    name: oneLine(128).min(1).describe('Display name.'),
    email: email,
    firstName: oneLine(64).optional(),
    lastName: oneLine(64).optional(),
    nickname: oneLine(64).optional(),
    phone: oneLine(64).optional(),
    organization: oneLine(128).optional(),
  })
  .describe('A card in the Personal Address Book (abook.sqlite).');
export type ContactSpec = z.infer<typeof contactSchema>;

export const FILTER_FIELDS = [
  'subject',
  'from',
  'to',
  'cc',
  'to or cc',
  'all addresses',
  'body',
  'tag',
] as const;
export const FILTER_OPERATORS = [
  'contains',
  "doesn't contain",
  'is',
  "isn't",
  'begins with',
  'ends with',
] as const;

const conditionSchema = z
  .strictObject({
    field: z.enum(FILTER_FIELDS).describe('Message attribute the condition tests.'),
    operator: z.enum(FILTER_OPERATORS).default('contains'),
    value: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^"\\\r\n]+$/, 'no quotes, backslashes or line breaks')
      .describe('Value compared with the attribute.'),
  })
  .describe('One condition of a message filter.');
export type FilterCondition = z.infer<typeof conditionSchema>;

export const FILTER_ACTIONS = [
  'move',
  'copy',
  'mark_read',
  'mark_unread',
  'mark_flagged',
  'add_tag',
  'delete',
  'forward',
  'stop',
] as const;
export type FilterActionName = (typeof FILTER_ACTIONS)[number];

const actionSchema = z
  .strictObject({
    action: z
      .enum(FILTER_ACTIONS)
      .describe(
        'move/copy (to folder), mark_read, mark_unread, mark_flagged, add_tag (tag), delete, forward (to), stop.',
      ),
    folder: folderPath.optional().describe('Target folder for move/copy.'),
    tag: tagName.optional().describe('Tag for add_tag.'),
    to: email.optional().describe('Address for forward.'),
  })
  .superRefine((a, ctx) => {
    const needs = { move: 'folder', copy: 'folder', add_tag: 'tag', forward: 'to' } as const;
    const field = needs[a.action as keyof typeof needs];
    if (field !== undefined && a[field] === undefined)
      ctx.addIssue({ code: 'custom', message: `action ${a.action} needs ${field}` });
  });
export type FilterAction = z.infer<typeof actionSchema>;

export const filterSchema = z
  .strictObject({
    name: oneLine(128)
      .min(1)
      .regex(/^[^"\\]+$/, 'no quotes or backslashes'),
    enabled: z.boolean().default(true),
    when: z
      .enum(['incoming', 'manual', 'both'])
      .default('both')
      .describe('Run on new mail, on manual runs, or both (type 1, 16, 17).'),
    match: z.enum(['all', 'any']).default('all').describe('All conditions must hold (AND) or any (OR).'),
    conditions: z.array(conditionSchema).min(1).max(10),
    actions: z.array(actionSchema).min(1).max(10),
  })
  .describe('A message filter in Local Folders/msgFilterRules.dat.');
export type FilterSpec = z.infer<typeof filterSchema>;

export const docSchema = z
  .strictObject({
    accountName: oneLine(128)
      .optional()
      .describe('Name of the mail account in the folder pane; default the e-mail.'),
    identities: z.array(identitySchema).min(1).max(5).describe('Identities; the first is the default.'),
    folders: z
      .array(z.strictObject({ path: folderPath, messages: z.array(messageSchema).max(5000).default([]) }))
      .max(100)
      .default([])
      .describe('Folders with their messages. Inbox, Sent, Drafts, Templates and Trash always exist.'),
    tags: z
      .array(
        z.strictObject({
          name: tagName,
          color: z
            .string()
            .regex(/^#[0-9A-Fa-f]{6}$/)
            .default('#3366CC'),
        }),
      )
      .max(20)
      .default([])
      .describe('Custom tags besides the defaults Important, Work, Personal, To Do, Later.'),
    filters: z.array(filterSchema).max(50).default([]),
    contacts: z.array(contactSchema).max(2000).default([]),
    prefs: specPrefsSchema
      .default({})
      .describe('Extra prefs.js entries, e.g. {"mail.pane_config.dynamic": 2}.'),
  })
  .describe(
    'A complete offline Thunderbird profile: one mail account (POP3 on 127.0.0.1, never checked) kept in Local Folders.',
  );
export type ThunderbirdDoc = z.infer<typeof docSchema>;

const selector = {
  subject: oneLine(300)
    .optional()
    .describe('Subject, compared case-insensitively with whitespace collapsed.'),
  from: z.string().min(1).max(320).optional().describe('Text the From header contains (address or name).'),
};
const needsSelector = (s: { subject?: string; from?: string; all?: boolean }) =>
  s.subject !== undefined || s.from !== undefined || s.all === true;
const selectorMessage = { message: 'give subject, from or both to pick the message (or all: true)' };
/** Edits may also select the whole folder: the select-all shortcut a careless agent takes. */
const editSelector = {
  ...selector,
  all: z.literal(true).optional().describe('Every message of the folder (select all).'),
};

const prefName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[a-zA-Z0-9_.\-$]+$/, 'a pref name of letters, digits and . _ - $');
const prefValue = z.union([z.string().max(10_000), z.number().int(), z.boolean()]);

/** A draft or template as the compose window saves it. */
const composeFields = {
  cc: z.array(address).max(50).default([]),
  subject: oneLine(300),
  body: z.string().max(1_000_000).default(''),
  attachments: z.array(attachmentSchema).max(20).default([]),
  identity: email.optional().describe('Sending identity; default the first.'),
  date: z.iso.datetime({ offset: true }).default('2024-06-03T10:00:00Z'),
};

export const savedSearchSchema = z
  .strictObject({
    name: folderSegment.describe('Name of the saved search folder, shown under Local Folders.'),
    scope: z.array(folderPath).min(1).max(20).describe('Folders it searches, e.g. ["Inbox"].'),
    match: z.enum(['all', 'any']).default('all'),
    conditions: z.array(conditionSchema).min(1).max(10),
  })
  .describe('A saved search (virtual) folder in virtualFolders.dat.');
export type SavedSearchSpec = z.infer<typeof savedSearchSchema>;

export const mailingListSchema = z
  .strictObject({
    name: oneLine(128)
      .min(1)
      .regex(/^[^<>,;"]+$/, 'no <>,;" characters'),
    nickname: oneLine(64).optional(),
    description: oneLine(300).optional(),
    members: z
      .array(address)
      .min(1)
      .max(200)
      .describe('Members by address; a member without a card gets one, as Thunderbird does.'),
  })
  .describe('A mailing list of the Personal Address Book.');
export type MailingListSpec = z.infer<typeof mailingListSchema>;

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({
      op: z.literal('thunderbird.move_message'),
      folder: folderPath.describe('Source folder.'),
      ...editSelector,
      to: folderPath,
    })
    .refine(needsSelector, selectorMessage)
    .describe('Move the matching messages from folder to another folder (created if missing).'),
  z
    .strictObject({ op: z.literal('thunderbird.create_folder'), path: folderPath })
    .describe('Create a folder (and its parents).'),
  z
    .strictObject({
      op: z.literal('thunderbird.add_filter'),
      filter: filterSchema,
      runOn: folderPath
        .optional()
        .describe('Also run the new filter on the messages already in this folder (Run Now), e.g. "Inbox".'),
    })
    .describe('Append a message filter.'),
  z
    .strictObject({
      op: z.literal('thunderbird.set_flag'),
      folder: folderPath,
      ...editSelector,
      read: z.boolean().optional(),
      flagged: z.boolean().optional(),
      addTag: tagName.optional(),
      removeTag: tagName.optional(),
    })
    .refine(needsSelector, selectorMessage)
    .describe('Change read/flagged state or tags of the matching messages.'),
  z
    .strictObject({
      op: z.literal('thunderbird.set_signature'),
      email: email.optional().describe('Identity to change; default the first identity.'),
      signature: z.string().max(10_000),
      isHtml: z.boolean().default(false),
    })
    .describe("Set an identity's signature."),
  z
    .strictObject({ op: z.literal('thunderbird.add_contact'), contact: contactSchema })
    .describe('Add an address-book card.'),
  z
    .strictObject({
      op: z.literal('thunderbird.save_draft'),
      to: z.array(address).min(1).max(50),
      cc: z.array(address).max(50).default([]),
      subject: oneLine(300),
      body: z.string().max(1_000_000).default(''),
      attachments: z.array(attachmentSchema).max(20).default([]),
      identity: email.optional().describe('Sending identity; default the first.'),
      date: z.iso.datetime({ offset: true }).default('2024-06-03T10:00:00Z'),
    })
    .describe('Compose a message and save it in Drafts, as Thunderbird does.'),
  z
    .strictObject({
      op: z.literal('thunderbird.save_template'),
      to: z.array(address).max(50).default([]),
      ...composeFields,
    })
    .describe('Compose a message and save it as a template (File > Save As > Template).'),
  z
    .strictObject({ op: z.literal('thunderbird.set_pref'), name: prefName, value: prefValue })
    .describe('Set a preference in prefs.js, as the Settings page or the Config Editor does.'),
  z
    .strictObject({
      op: z.literal('thunderbird.save_message_file'),
      folder: folderPath,
      ...selector,
      to: safeRelativePath.describe('Home-relative .eml path to write, e.g. "Documents/case/request.eml".'),
    })
    .refine(needsSelector, selectorMessage)
    .describe('Save the first matching message as an .eml file (File > Save As > File).'),
  z
    .strictObject({
      op: z.literal('thunderbird.save_attachment'),
      folder: folderPath,
      ...selector,
      filename: z.string().min(1).max(128).describe('The attachment to save.'),
      to: safeRelativePath.describe('Home-relative path of the saved file.'),
    })
    .refine(needsSelector, selectorMessage)
    .describe('Save one attachment of the first matching message to a file, its bytes as sent.'),
  z
    .strictObject({ op: z.literal('thunderbird.add_saved_search'), search: savedSearchSchema })
    .describe('Create a saved search folder.'),
  z
    .strictObject({ op: z.literal('thunderbird.add_mailing_list'), list: mailingListSchema })
    .describe('Create an address-book mailing list.'),
  z
    .strictObject({
      op: z.literal('thunderbird.delete_message'),
      folder: folderPath,
      ...editSelector,
      permanent: z.boolean().default(false).describe('Remove for good instead of moving to Trash.'),
    })
    .refine(needsSelector, selectorMessage)
    .describe('Delete the matching messages (to Trash unless permanent).'),
]);
export type ThunderbirdEdit = z.infer<typeof editSchema>;

const stateFields = {
  read: z.boolean().optional(),
  flagged: z.boolean().optional(),
  tag: tagName.optional().describe('A tag the message must carry (name or key).'),
};

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('thunderbird.message_in_folder'), folder: folderPath, ...selector })
    .refine(needsSelector, selectorMessage)
    .describe('A message with this subject/sender is in the folder (not deleted).'),
  z
    .strictObject({ kind: z.literal('thunderbird.message_absent'), folder: folderPath, ...selector })
    .refine(needsSelector, selectorMessage)
    .describe('No such message is in the folder (deleted/expunged ones do not count).'),
  z
    .strictObject({ kind: z.literal('thunderbird.folder_exists'), folder: folderPath })
    .describe('The folder exists.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.message_state'),
      folder: folderPath.optional().describe('Folder to look in; default every folder.'),
      ...selector,
      ...stateFields,
    })
    .refine(needsSelector, selectorMessage)
    .refine((c) => c.read !== undefined || c.flagged !== undefined || c.tag !== undefined, {
      message: 'give read, flagged or tag',
    })
    .describe('Every matching message has this read/flagged/tag state (and one exists).'),
  z
    .strictObject({
      kind: z.literal('thunderbird.filter_rule'),
      name: z.string().optional().describe('Filter name (case-insensitive); any filter when omitted.'),
      field: z.enum(FILTER_FIELDS).optional().describe('A condition tests this field.'),
      operator: z.enum(FILTER_OPERATORS).optional(),
      value: z.string().optional().describe('A condition value contains this text (case-insensitive).'),
      action: z.enum(FILTER_ACTIONS).describe('The filter has this action.'),
      folder: folderPath.optional().describe('…moving/copying to this folder.'),
      tag: tagName.optional().describe('…adding this tag.'),
      enabled: z.boolean().default(true),
    })
    .describe('Some filter (in any msgFilterRules.dat of the profile) has this condition and action.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.identity_signature'),
      email: email.optional().describe('Identity; default the first one.'),
      contains: z.string().optional(),
      equals: z.string().optional().describe('Exact signature, trailing whitespace ignored.'),
    })
    .refine((c) => c.contains !== undefined || c.equals !== undefined, { message: 'give contains or equals' })
    .describe("The identity's signature (htmlSigText, or its signature file) has this text."),
  z
    .strictObject({
      kind: z.literal('thunderbird.contact_exists'),
      email: email.optional(),
      name: z.string().optional().describe('Display name, case-insensitive.'),
      phone: z
        .string()
        .optional()
        .describe('A phone number of the card, compared by its digits (spaces, dashes, brackets ignored).'),
    })
    .refine((c) => c.email !== undefined || c.name !== undefined, { message: 'give email, name or both' })
    .describe('The address book has a card with this e-mail and/or name.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.draft'),
      to: email.optional().describe('A recipient (To or Cc) of the draft.'),
      toHeader: z
        .enum(['to or cc', 'to', 'cc'])
        .default('to or cc')
        .describe('Where `to` must appear: either header (default), only To, or only Cc.'),
      subject: oneLine(300).optional(),
      attachment: z.string().optional().describe('The draft has an attachment with this file name.'),
      bodyContains: z.string().optional(),
      bodyFigure: z
        .number()
        .finite()
        .optional()
        .describe(
          'The body states this figure, written any way a person writes it: a currency sign, thousands separators, trailing zeros or none ("£15,917.90", "15917.9").',
        ),
      recipients: z
        .array(email)
        .max(50)
        .optional()
        .describe('Every one of these addresses is a recipient (To or Cc) of the same message.'),
      folder: z
        .enum(['Drafts', 'Templates'])
        .default('Drafts')
        .describe('Where the message is kept: Drafts, or Templates for a template.'),
    })
    .describe('A message in Drafts (or Templates) matches every given field.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.unchanged'),
      messages: z.array(
        z.strictObject({
          id: z.string().describe('Message-ID, or "normalised subject|from" when it has none.'),
          folder: folderPath,
          read: z.boolean(),
          flagged: z.boolean(),
          tags: z.array(z.string()).describe('Tag keys (X-Mozilla-Keys), sorted.'),
          or: z
            .strictObject({
              folder: folderPath,
              read: z.boolean(),
              flagged: z.boolean(),
              tags: z.array(z.string()),
            })
            .optional()
            .describe(
              'Another state the message may be in instead (where a new filter run on its folder puts it).',
            ),
        }),
      ),
      folders: z.array(folderPath),
      contacts: z.array(z.string()).describe('Address-book e-mails, lower-case.'),
      filters: z.array(z.string()).describe('Filter names.'),
      exactFolders: z
        .boolean()
        .default(false)
        .describe('No folder besides the listed ones and `made` exists.'),
      made: z
        .array(folderPath)
        .default([])
        .describe('Folders the task makes, which may exist besides the listed ones.'),
      exactContacts: z
        .boolean()
        .default(false)
        .describe('No address-book e-mail besides the listed ones and `madeContacts` exists.'),
      madeContacts: z
        .array(z.string())
        .default([])
        .describe('E-mails of the cards the task adds, lower-case.'),
      readOnOpen: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe(
          'How many unread messages may now be read (the agent opened them); 0 when read state is the task.',
        ),
    })
    .describe('Invariant: messages, folders, contacts and filters the task does not name are as they were.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.lists_kept'),
      allowed: z
        .array(z.strictObject({ name: z.string(), members: z.array(z.string()) }))
        .describe(
          'The lists the task leaves: name (trimmed, lower case) and member e-mails (lower case, sorted).',
        ),
      held: z
        .array(z.strictObject({ name: z.string(), members: z.array(z.string()) }))
        .describe('Lists that were there and the task leaves alone.'),
    })
    .describe(
      'Invariant: every mailing list is one the task leaves, and the untouched ones are still there.',
    ),
  z
    .strictObject({
      kind: z.literal('thunderbird.prefs_kept'),
      prefs: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .describe(
          'mail., mailnews., msgcompose. and ldap_2. prefs the task leaves alone, with their values.',
        ),
      made: z.array(z.string()).describe('Prefs the task sets, changes or removes.'),
      watch: z.array(z.string()).describe('Regular expressions: a new pref matching one is a change…'),
      ignore: z.array(z.string()).describe('…unless it matches one of these (prefs the app writes itself).'),
    })
    .describe(
      'Invariant: the profile keeps those prefs as they were, and no Settings-page pref appears that the task does not set.',
    ),
  z
    .strictObject({
      kind: z.literal('thunderbird.created'),
      filters: z.array(
        z.strictObject({
          name: z.string().optional().describe('Only for a filter that was there before: it keeps its name.'),
          enabled: z.boolean(),
          incoming: z.boolean().describe('Runs on new mail.'),
          match: z.enum(['all', 'any']),
          terms: z
            .array(z.string())
            .describe(
              '"field|operator|value", lower case, sorted; a mail-domain term of an address field as "contains", without its "@".',
            ),
          actions: z.array(z.string()).describe('"action|value", sorted.'),
        }),
      ),
      searches: z.array(
        z.strictObject({
          name: z.string().optional(),
          scope: z.array(z.string()),
          match: z.enum(['all', 'any']),
          terms: z.array(z.string()),
        }),
      ),
      known: z.array(z.string()).describe('Message ids of the initial state.'),
      messages: z.array(
        z.strictObject({
          folder: folderPath,
          to: z.array(z.string()),
          cc: z.array(z.string()),
          bcc: z.array(z.string()),
          oneSet: z
            .literal(true)
            .optional()
            .describe('A reply to several people: To and Cc are compared as one set of addresses.'),
          attachments: z.array(
            z.strictObject({
              name: z.string(),
              sha256: z.string().optional(),
              file: z.string().optional().describe('Home-relative file the attachment must be a copy of.'),
            }),
          ),
        }),
      ),
    })
    .describe(
      'Invariant: the filters, saved searches and new messages are exactly these (a new filter or search by its whole state, any name).',
    ),
  z
    .strictObject({
      kind: z.literal('thunderbird.pref'),
      name: z.string().regex(/^[a-zA-Z0-9_.\-$]+$/),
      value: z
        .union([z.string(), z.number(), z.boolean()])
        .optional()
        .describe('Expected value; omit to require only presence.'),
      address: z
        .boolean()
        .optional()
        .describe(
          'The value is one mail address: "Office <office@x.org>" and OFFICE@x.org read as office@x.org.',
        ),
    })
    .describe('prefs.js sets this preference (to this value).'),
  z
    .strictObject({
      kind: z.literal('thunderbird.message_file'),
      path: safeRelativePath.describe('Home-relative path of the saved message.'),
      ...selector,
      bodyContains: z.string().optional(),
    })
    .describe('The file is a saved e-mail (.eml) with this subject / sender / body text.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.saved_search'),
      name: z.string().min(1).describe('Saved search folder name, case-insensitive.'),
      field: z.enum(FILTER_FIELDS).optional().describe('A condition tests this field.'),
      operator: z.enum(FILTER_OPERATORS).optional(),
      value: z.string().optional().describe('A condition value contains this text (case-insensitive).'),
      scope: folderPath.optional().describe('The search covers this folder.'),
    })
    .describe('A saved search folder (virtualFolders.dat) with this name, condition and scope exists.'),
  z
    .strictObject({
      kind: z.literal('thunderbird.mailing_list'),
      name: z.string().min(1).describe('List name, case-insensitive.'),
      members: z.array(email).max(200).default([]).describe('E-mails that must be members.'),
      exact: z.boolean().default(false).describe('Also require that the list has no other members.'),
    })
    .describe('The address book has a mailing list with this name holding these members.'),
]);
export type ThunderbirdCheck = z.infer<typeof checkSchema>;
