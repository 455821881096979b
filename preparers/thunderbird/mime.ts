import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import mimeFuncs from 'nodemailer/lib/mime-funcs/index.js';
import type { AttachmentSpec } from './schema.ts';

export interface ComposeSpec {
  from: string;
  to: string[];
  cc?: string[];
  subject: string;
  date: string;
  text?: string;
  html?: string;
  attachments?: AttachmentSpec[];
  messageId?: string;
  headers?: Record<string, string>;
}

/** MailComposer options it reads but @types/nodemailer does not declare. */
interface ComposerOptions extends Mail.Options {
  baseBoundary?: string;
}

/**
 * Composes an RFC 822 message with nodemailer's MailComposer. Boundaries and the default
 * Message-ID derive from the content, so the same spec always gives the same bytes.
 */
export async function composeMessage(spec: ComposeSpec): Promise<string> {
  const digest = createHash('sha256').update(JSON.stringify(spec)).digest('hex');
  const options: ComposerOptions = {
    from: spec.from,
    to: spec.to,
    cc: spec.cc && spec.cc.length > 0 ? spec.cc : undefined,
    subject: spec.subject,
    date: new Date(spec.date),
    text: spec.text ?? (spec.html === undefined ? '' : undefined),
    html: spec.html,
    messageId: spec.messageId ?? `<${digest.slice(0, 24)}@forge.invalid>`,
    baseBoundary: digest.slice(24, 40),
    headers: spec.headers,
    attachments: (spec.attachments ?? []).map((a) => {
      if (a.file !== undefined)
        throw new Error(`attachment ${a.filename}: a home file is attached by an edit, not a built message`);
      return {
        filename: a.filename,
        content:
          a.base64 !== undefined ? Buffer.from(a.base64, 'base64') : Buffer.from(a.content ?? '', 'utf8'),
        contentType: a.contentType,
      };
    }),
  };
  const bytes = await new MailComposer(options).compile().build();
  return bytes.toString('utf8').replace(/\r\n/g, '\n');
}

/** Decodes RFC 2047 encoded words ("=?UTF-8?Q?Caf=C3=A9?="). */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
      (whole, charset: string, encoding: string, text: string) => {
        try {
          const bytes =
            encoding.toUpperCase() === 'B'
              ? Buffer.from(text, 'base64')
              : Buffer.from(
                  text
                    .replace(/_/g, ' ')
                    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
                      String.fromCharCode(Number.parseInt(hex, 16)),
                    ),
                  'latin1',
                );
          return new TextDecoder(charset.toLowerCase()).decode(bytes);
        } catch {
          return whole;
        }
      },
    );
}

export interface ParsedMessage {
  headers: Map<string, string[]>;
  subject: string;
  from: string;
  to: string[];
  cc: string[];
  messageId: string;
  attachments: string[];
  /** Plain text of the body (HTML parts with tags removed when there is no text part). */
  text: string;
}

function splitHeaders(raw: string): { headers: Map<string, string[]>; body: string } {
  const at = raw.indexOf('\n\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 2);
  const headers = new Map<string, string[]>();
  for (const field of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), field.slice(colon + 1).trim()]);
  }
  return { headers, body };
}

function decodeBytes(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable')
    return Buffer.from(
      body
        .replace(/=\n/g, '')
        .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    );
  return Buffer.from(body, 'utf8');
}

function decodeBody(body: string, encoding: string, charset: string): string {
  const bytes = decodeBytes(body, encoding);
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

interface Walk {
  attachments: string[];
  /** Attachment contents, collected only when asked for. */
  files?: { name: string; bytes: Buffer }[];
  texts: string[];
  htmls: string[];
}

function walk(raw: string, into: Walk, depth: number): Map<string, string[]> {
  const { headers, body } = splitHeaders(raw);
  const type = mimeFuncs.parseHeaderValue(headers.get('content-type')?.[0] ?? 'text/plain');
  const disposition = mimeFuncs.parseHeaderValue(headers.get('content-disposition')?.[0] ?? '');
  const mimeType = (type.value || 'text/plain').toLowerCase();
  const boundary = type.params.boundary;
  if (mimeType.startsWith('multipart/') && boundary && depth < 10) {
    const parts = body.split(
      new RegExp(`^--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*$`, 'm'),
    );
    for (const part of parts.slice(1, -1)) walk(part.replace(/^\n/, ''), into, depth + 1);
    return headers;
  }
  const filename = disposition.params.filename ?? type.params.name;
  const encoding = (headers.get('content-transfer-encoding')?.[0] ?? '').toLowerCase();
  if (filename !== undefined || disposition.value.toLowerCase() === 'attachment') {
    into.attachments.push(decodeWords(filename ?? ''));
    into.files?.push({ name: decodeWords(filename ?? ''), bytes: decodeBytes(body, encoding) });
  } else if (mimeType === 'text/plain') {
    into.texts.push(decodeBody(body, encoding, type.params.charset ?? ''));
  } else if (mimeType === 'text/html') {
    into.htmls.push(decodeBody(body, encoding, type.params.charset ?? ''));
  }
  return headers;
}

/** The addresses of header values ("A <a@x>, b@y"), decoded, one per entry. */
export function addresses(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => decodeWords(v).split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/))
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Headers, attachment names and body text of a message, enough for probes. */
export function parseMessage(raw: string): ParsedMessage {
  const into: Walk = { attachments: [], texts: [], htmls: [] };
  const headers = walk(raw, into, 0);
  const text =
    into.texts.length > 0
      ? into.texts.join('\n')
      : into.htmls.map((h) => h.replace(/<[^>]*>/g, ' ')).join('\n');
  return {
    headers,
    subject: decodeWords(headers.get('subject')?.[0] ?? ''),
    from: decodeWords(headers.get('from')?.[0] ?? ''),
    to: addresses(headers.get('to')),
    cc: addresses(headers.get('cc')),
    messageId: headers.get('message-id')?.[0] ?? '',
    attachments: into.attachments,
    text,
  };
}

/** The decoded bytes of the message's attachment with this file name (case-insensitive), if any. */
export function attachmentBytes(raw: string, filename: string): Uint8Array | undefined {
  const into: Walk = { attachments: [], texts: [], htmls: [], files: [] };
  walk(raw, into, 0);
  const found = into.files!.find((f) => f.name.toLowerCase() === filename.toLowerCase());
  return found === undefined ? undefined : new Uint8Array(found.bytes);
}

/** Every attachment of a message: its file name and decoded bytes, in order. */
export function attachmentFiles(raw: string): { name: string; bytes: Buffer }[] {
  const into: Walk = { attachments: [], texts: [], htmls: [], files: [] };
  walk(raw, into, 0);
  return into.files!;
}

/** Subjects compare case-insensitively with whitespace collapsed. */
export function normalizeSubject(subject: string): string {
  return subject.replace(/\s+/g, ' ').trim().toLowerCase();
}
