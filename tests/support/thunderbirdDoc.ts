import type { z } from 'zod';
import { docSchema, type ThunderbirdDoc } from '../../preparers/thunderbird/index.ts';
import type { messageSchema } from '../../preparers/thunderbird/schema.ts';

type DocInput = z.input<typeof docSchema>;
type MessageInput = z.input<typeof messageSchema>;

interface AnnInbox {
  /** Ann's signature. */
  signature: string;
  /** Body and state of Bob's "Invoice 42". */
  invoice: Partial<MessageInput>;
  /** Subject, date, body and state of Carl's message. */
  carl: Omit<MessageInput, 'from' | 'to'>;
  /** Folders after the Inbox. */
  moreFolders?: DocInput['folders'];
  contacts?: DocInput['contacts'];
}

/**
 * The profile the Thunderbird tests start from: Ann Lee's identity and an Inbox holding Bob's
 * "Invoice 42" and a message from Carl. Each test supplies the parts it asserts on.
 */
export function annInboxDoc(parts: AnnInbox): ThunderbirdDoc {
  return docSchema.parse({
    identities: [{ name: 'Ann Lee', email: 'ann@example.com', signature: parts.signature }],
    folders: [
      {
        path: 'Inbox',
        messages: [
          {
            from: 'Bob <bob@example.org>',
            to: ['ann@example.com'],
            subject: 'Invoice 42',
            date: '2024-03-05T09:30:00Z',
            ...parts.invoice,
          },
          { from: 'carl@example.org', to: ['ann@example.com'], ...parts.carl },
        ],
      },
      ...(parts.moreFolders ?? []),
    ],
    contacts: parts.contacts,
  });
}
