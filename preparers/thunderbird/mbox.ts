/** Thunderbird's message flags as stored in X-Mozilla-Status (low 16 bits) and -Status2 (high). */
export const FLAG = {
  read: 0x0001,
  replied: 0x0002,
  flagged: 0x0004,
  expunged: 0x0008,
  hasRe: 0x0010,
  forwarded: 0x1000,
  attachment: 0x10000000,
} as const;

/** One message of an mbox folder: its RFC 822 text (LF line ends) and Thunderbird's state for it. */
export interface StoredMessage {
  raw: string;
  flags: number;
  keywords: string[];
}

/** Thunderbird leaves room after X-Mozilla-Keys so tags can be changed in place. */
const KEYWORDS_WIDTH = 80;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function separatorDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${two(date.getUTCDate())} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} ${date.getUTCFullYear()}`
  );
}

function dateOf(raw: string): Date {
  const header = /^Date:[ \t]*(.+)$/im.exec(raw.split('\n\n', 1)[0]);
  const parsed = header ? new Date(header[1]) : new Date(Number.NaN);
  return Number.isNaN(parsed.getTime()) ? new Date('2024-01-01T00:00:00Z') : parsed;
}

/** mboxrd escaping: a body line "From …" (after any ">") gains one more ">". */
function escapeFromLines(raw: string): string {
  return raw.replace(/^(>*From )/gm, '>$1');
}

function unescapeFromLines(raw: string): string {
  return raw.replace(/^>(>*From )/gm, '$1');
}

export function serializeMessage(message: StoredMessage): string {
  const status = (message.flags & 0xffff).toString(16).padStart(4, '0');
  const status2 = ((message.flags & 0xffff0000) >>> 0).toString(16).padStart(8, '0');
  const keys = message.keywords.join(' ').padEnd(KEYWORDS_WIDTH, ' ');
  const body = message.raw.endsWith('\n') ? message.raw : `${message.raw}\n`;
  return (
    `From - ${separatorDate(dateOf(message.raw))}\n` +
    `X-Mozilla-Status: ${status}\nX-Mozilla-Status2: ${status2}\nX-Mozilla-Keys: ${keys}\n` +
    `${escapeFromLines(body)}\n`
  );
}

export function serializeMbox(messages: StoredMessage[]): Uint8Array {
  return new Uint8Array(Buffer.from(messages.map(serializeMessage).join(''), 'utf8'));
}

/**
 * Reads an mbox as Thunderbird writes it: a message starts at a "From " line at the top of the
 * file or after a blank line. X-Mozilla-* headers become flags and keywords and are removed from
 * `raw`; messages carrying the expunged flag are kept (callers decide), CRLF becomes LF.
 */
export function parseMbox(bytes: Uint8Array): StoredMessage[] {
  const lines = Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n').split('\n');
  const chunks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('From ') && (i === 0 || lines[i - 1] === '')) chunks.push([]);
    else if (chunks.length > 0) chunks[chunks.length - 1].push(line);
  }
  return chunks.map((chunk) => {
    while (chunk.length > 0 && chunk[chunk.length - 1] === '') chunk.pop();
    let flags = 0;
    let keywords: string[] = [];
    const kept: string[] = [];
    let inHeaders = true;
    for (const line of chunk) {
      if (inHeaders && line === '') inHeaders = false;
      const header = inHeaders ? /^X-Mozilla-(Status2?|Keys):[ \t]?(.*)$/i.exec(line) : null;
      if (header === null) {
        kept.push(line);
        continue;
      }
      const name = header[1].toLowerCase();
      if (name === 'status') flags |= Number.parseInt(header[2].trim() || '0', 16) & 0xffff;
      else if (name === 'status2') flags |= Number.parseInt(header[2].trim() || '0', 16) & 0xffff0000;
      else keywords = header[2].trim().split(/\s+/).filter(Boolean);
    }
    return { raw: `${unescapeFromLines(kept.join('\n'))}\n`, flags: flags >>> 0, keywords };
  });
}
