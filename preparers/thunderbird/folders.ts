import type { FileMap } from '../types.ts';

/** Where Local Folders keeps its mbox files, relative to the profile directory. */
export const LOCAL_FOLDERS_DIR = 'Mail/Local Folders';
/**
 * The folders Local Folders has once Thunderbird has started: it creates "Unsent Messages" (its
 * outbox) on its first start, so a profile without it would gain a folder the moment the agent's
 * Thunderbird opens it (tests/integration/thunderbirdOracle.test.ts).
 */
export const STANDARD_FOLDERS = ['Inbox', 'Sent', 'Drafts', 'Templates', 'Trash', 'Unsent Messages'] as const;

/** Profile-relative mbox file of a folder path: "A/B" → "Mail/Local Folders/A.sbd/B". */
export function folderFile(folder: string): string {
  const segments = folder.split('/');
  const last = segments.pop()!;
  return [LOCAL_FOLDERS_DIR, ...segments.map((s) => `${s}.sbd`), last].join('/');
}

/** The folder URI Thunderbird uses in filters and identity prefs. */
export function folderUri(folder: string): string {
  return `mailbox://nobody@Local%20Folders/${folder.split('/').map(encodeURIComponent).join('/')}`;
}

/** The folder path of a mailbox URI of any local server ("mailbox://nobody@Local%20Folders/A/B" → "A/B"). */
export function folderOfUri(uri: string): string | undefined {
  const match = /^mailbox:\/\/[^/]+\/(.+)$/.exec(uri);
  if (match === null) return undefined;
  try {
    return match[1].split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}

const NOT_FOLDERS = /(\.msf|\.dat|\.json|\.html|\.sqlite)$/i;

/** Folder paths present in a profile's Local Folders (mbox files; .msf indexes and other files skipped). */
export function listFolders(files: FileMap, profileDir: string): string[] {
  const root = `${profileDir}/${LOCAL_FOLDERS_DIR}/`;
  const folders: string[] = [];
  for (const key of Object.keys(files)) {
    if (!key.startsWith(root)) continue;
    const segments = key.slice(root.length).split('/');
    const last = segments.pop()!;
    if (NOT_FOLDERS.test(last) || last.startsWith('.')) continue;
    if (!segments.every((s) => s.endsWith('.sbd'))) continue;
    folders.push([...segments.map((s) => s.slice(0, -4)), last].join('/'));
  }
  return folders.sort();
}

/** Case-insensitive lookup of an existing folder (Thunderbird's special folders differ in case across versions). */
export function findFolder(folders: string[], wanted: string): string | undefined {
  return folders.find((f) => f === wanted) ?? folders.find((f) => f.toLowerCase() === wanted.toLowerCase());
}
