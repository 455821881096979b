import { assertSafeRelativePath } from '../paths.ts';
import type { FileMap } from '../types.ts';
import { USER_KEYBINDINGS, USER_SETTINGS, workspaceSettingsOf } from './paths.ts';
import type { Json, Keybinding, VscodeDoc } from './schema.ts';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** A JSON value at the given indent, four spaces a level, as VS Code formats its JSON files. */
function formatValue(value: Json, indent: string): string {
  return JSON.stringify(value, null, 4).replace(/\n/g, `\n${indent}`);
}

/** settings.json as VS Code leaves it: one key a line, four-space indent, optional `//` notes above keys. */
export function settingsText(values: Record<string, Json>, comments: Record<string, string> = {}): string {
  const keys = Object.keys(values);
  if (keys.length === 0) return '{\n}\n';
  const lines = keys.map((key, i) => {
    const note = comments[key] === undefined ? '' : `    // ${comments[key]}\n`;
    const comma = i < keys.length - 1 ? ',' : '';
    return `${note}    ${JSON.stringify(key)}: ${formatValue(values[key]!, '    ')}${comma}`;
  });
  return `{\n${lines.join('\n')}\n}\n`;
}

/** The first line VS Code puts in a new keybindings.json. */
export const KEYBINDINGS_HEADER = '// Place your key bindings in this file to override the defaults';

export function keybindingsText(entries: Keybinding[]): string {
  if (entries.length === 0) return `${KEYBINDINGS_HEADER}\n[\n]\n`;
  const items = entries.map((e) => `    ${formatValue(e as unknown as Json, '    ')}`);
  return `${KEYBINDINGS_HEADER}\n[\n${items.join(',\n')}\n]\n`;
}

/** The user settings and keybindings under ~/.config/Code/User and the workspace folder `target`. */
export async function buildVscode(target: string, doc: VscodeDoc): Promise<FileMap> {
  assertSafeRelativePath(target, 'workspace folder');
  if (target === '.config' || target.startsWith('.config/'))
    throw new Error(`the workspace folder ${target} lies in the configuration area`);
  const files: FileMap = {};
  if (doc.settings !== undefined)
    files[USER_SETTINGS] = utf8(settingsText(doc.settings, doc.settingsComments));
  if (doc.keybindings !== undefined) files[USER_KEYBINDINGS] = utf8(keybindingsText(doc.keybindings));
  if (doc.workspaceSettings !== undefined)
    files[workspaceSettingsOf(target)] = utf8(settingsText(doc.workspaceSettings));
  for (const f of doc.files) {
    const path = `${target}/${f.path}`;
    if (path in files) throw new Error(`${f.path} is given twice`);
    files[path] = utf8(f.content);
  }
  return files;
}
