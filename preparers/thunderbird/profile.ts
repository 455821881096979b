import type { FileMap } from '../types.ts';
import { ADDRESS_BOOK_FILE } from './addressBook.ts';
import { findFolder, folderFile, LOCAL_FOLDERS_DIR, listFolders } from './folders.ts';
import { parseMbox, type StoredMessage, serializeMbox } from './mbox.ts';
import { type PrefValue, parsePrefs, renderPrefs } from './prefs.ts';
import { locateProfile } from './profileIni.ts';

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** A Thunderbird profile inside a FileMap, read and changed through its real files. */
export class Profile {
  readonly files: FileMap;
  readonly dir: string;

  constructor(files: FileMap) {
    this.files = { ...files };
    this.dir = locateProfile(files);
  }

  path(relative: string): string {
    return `${this.dir}/${relative}`;
  }

  read(relative: string): Uint8Array | undefined {
    return this.files[this.path(relative)];
  }

  write(relative: string, bytes: Uint8Array | string): void {
    this.files[this.path(relative)] = typeof bytes === 'string' ? bytesOf(bytes) : bytes;
  }

  prefs(): Map<string, PrefValue> {
    const bytes = this.read('prefs.js');
    if (bytes === undefined) throw new Error(`${this.path('prefs.js')} is missing`);
    return parsePrefs(utf8(bytes));
  }

  setPrefs(prefs: Map<string, PrefValue>): void {
    this.write('prefs.js', renderPrefs(prefs));
  }

  folders(): string[] {
    return listFolders(this.files, this.dir);
  }

  /** The existing folder with this path (case-insensitively), or undefined. */
  folder(wanted: string): string | undefined {
    return findFolder(this.folders(), wanted);
  }

  /** Creates the folder and its parents as empty mbox files when missing; returns its actual path. */
  ensureFolder(wanted: string): string {
    const segments = wanted.split('/');
    let path = '';
    for (const segment of segments) {
      const candidate = path === '' ? segment : `${path}/${segment}`;
      path = this.folder(candidate) ?? candidate;
      if (this.read(folderFile(path)) === undefined) this.write(folderFile(path), new Uint8Array());
    }
    return path;
  }

  /** All messages of a folder, expunged ones included; throws when the folder does not exist. */
  messages(folder: string): StoredMessage[] {
    const actual = this.folder(folder);
    if (actual === undefined) throw new Error(`folder ${folder} does not exist`);
    return parseMbox(this.read(folderFile(actual))!);
  }

  /** Rewrites a folder; its .msf index is dropped so Thunderbird rebuilds it from the mbox. */
  setMessages(folder: string, messages: StoredMessage[]): void {
    const actual = this.ensureFolder(folder);
    this.write(folderFile(actual), serializeMbox(messages));
    delete this.files[this.path(`${folderFile(actual)}.msf`)];
  }

  /** Home-relative paths of every msgFilterRules.dat in the profile (one per mail server). */
  filterFiles(): string[] {
    return Object.keys(this.files)
      .filter((k) => k.startsWith(`${this.dir}/Mail/`) && k.endsWith('/msgFilterRules.dat'))
      .sort();
  }

  localFilterFile(): string {
    return `${LOCAL_FOLDERS_DIR}/msgFilterRules.dat`;
  }

  addressBook(): Uint8Array | undefined {
    return this.read(ADDRESS_BOOK_FILE);
  }
}

/** A message is gone from a folder once it carries the expunged flag (deleted, not yet compacted). */
export function isLive(message: StoredMessage): boolean {
  return (message.flags & 0x0008) === 0;
}
