import type { FileMap } from '../types.ts';
import { accountPrefs } from './accountPrefs.ts';
import { ADDRESS_BOOK_FILE, writeContacts } from './addressBook.ts';
import { renderFilters, toStoredFilter } from './filters.ts';
import { folderFile, STANDARD_FOLDERS } from './folders.ts';
import { FLAG, type StoredMessage, serializeMbox } from './mbox.ts';
import { composeMessage } from './mime.ts';
import { renderPrefs } from './prefs.ts';
import { installsIni, profilesIni, THUNDERBIRD_DIR } from './profileIni.ts';
import type { MessageSpec, ThunderbirdDoc } from './schema.ts';
import { resolveTag } from './tags.ts';

const text = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));

export function flagsOf(message: {
  read: boolean;
  replied: boolean;
  flagged: boolean;
  attachments: unknown[];
}): number {
  return (
    (message.read ? FLAG.read : 0) |
    (message.replied ? FLAG.replied : 0) |
    (message.flagged ? FLAG.flagged : 0) |
    (message.attachments.length > 0 ? FLAG.attachment : 0)
  );
}

export async function storedMessage(
  message: MessageSpec,
  tagKey: (tag: string) => string,
): Promise<StoredMessage> {
  const raw = await composeMessage(message);
  return { raw, flags: flagsOf(message) >>> 0, keywords: message.tags.map(tagKey) };
}

/** Every folder path the doc implies: the standard ones, the listed ones and their parents. */
function folderPaths(doc: ThunderbirdDoc): string[] {
  const paths = new Set<string>(STANDARD_FOLDERS);
  for (const { path } of doc.folders) {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) paths.add(segments.slice(0, i).join('/'));
  }
  return [...paths];
}

/**
 * A complete profile `.thunderbird/<target>/` registered as the Debian install's default:
 * profiles.ini, installs.ini, prefs.js, mbox folders, msgFilterRules.dat and abook.sqlite.
 */
export async function buildThunderbird(target: string, doc: ThunderbirdDoc): Promise<FileMap> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(target))
    throw new Error(
      `profile name ${JSON.stringify(target)} must be letters, digits and ._- (e.g. "forge.default")`,
    );
  const dir = `${THUNDERBIRD_DIR}/${target}`;
  const prefs = accountPrefs(doc);
  const tagKey = (tag: string) => resolveTag(prefs, tag);
  const files: FileMap = {
    [`${THUNDERBIRD_DIR}/profiles.ini`]: text(profilesIni(target)),
    [`${THUNDERBIRD_DIR}/installs.ini`]: text(installsIni(target)),
  };
  const byFolder = new Map<string, MessageSpec[]>();
  for (const folder of doc.folders)
    byFolder.set(folder.path, [...(byFolder.get(folder.path) ?? []), ...folder.messages]);
  for (const path of folderPaths(doc)) {
    const stored = await Promise.all((byFolder.get(path) ?? []).map((m) => storedMessage(m, tagKey)));
    files[`${dir}/${folderFile(path)}`] = serializeMbox(stored);
  }
  const filters = doc.filters.map((f) => toStoredFilter(f, tagKey));
  files[`${dir}/Mail/Local Folders/msgFilterRules.dat`] = text(renderFilters(filters));
  files[`${dir}/${ADDRESS_BOOK_FILE}`] = writeContacts(undefined, doc.contacts);
  // Last: resolving tags above may have registered new ones in prefs.
  files[`${dir}/prefs.js`] = text(renderPrefs(prefs));
  return files;
}
