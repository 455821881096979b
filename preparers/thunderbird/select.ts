import type { StoredMessage } from './mbox.ts';
import { normalizeSubject, parseMessage } from './mime.ts';
import { isLive } from './profile.ts';

export interface Selector {
  subject?: string;
  from?: string;
  /** Every live message (a select-all). */
  all?: boolean;
}

/** Whether a live message has this subject (normalised) and a From header containing `from`. */
export function matches(message: StoredMessage, selector: Selector): boolean {
  if (!isLive(message)) return false;
  if (selector.all === true) return true;
  const parsed = parseMessage(message.raw);
  if (
    selector.subject !== undefined &&
    normalizeSubject(parsed.subject) !== normalizeSubject(selector.subject)
  )
    return false;
  if (selector.from !== undefined && !parsed.from.toLowerCase().includes(selector.from.toLowerCase()))
    return false;
  return true;
}

/** Subjects of the live messages, for `observed`. */
export function subjects(messages: StoredMessage[], limit = 30): string[] {
  return messages
    .filter(isLive)
    .slice(0, limit)
    .map((m) => parseMessage(m.raw).subject);
}
