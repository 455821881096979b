import type { FileMap } from '../types.ts';
import { KEYBINDINGS_HEADER } from './build.ts';
import { modifyJsonc, parseJsonc, textOf } from './jsonc.ts';
import { sameChord } from './keys.ts';
import { USER_KEYBINDINGS } from './paths.ts';
import type { VscodeEdit } from './schema.ts';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A settings file's text; a missing one is `{}`, as VS Code starts a new settings.json. */
function settingsTextOf(files: FileMap, path: string): string {
  const bytes = files[path];
  const text = bytes === undefined ? '' : textOf(bytes);
  return text.trim() === '' ? '{\n}\n' : text;
}

function keybindingsTextOf(files: FileMap): string {
  const bytes = files[USER_KEYBINDINGS];
  const text = bytes === undefined ? '' : textOf(bytes);
  return text.trim() === '' ? `${KEYBINDINGS_HEADER}\n[\n]\n` : text;
}

function requireText(files: FileMap, path: string): string {
  const bytes = files[path];
  if (bytes === undefined) throw new Error(`${path} does not exist`);
  return Buffer.from(bytes).toString('utf8');
}

function settingPath(edit: { key: string; language?: string }): string[] {
  return edit.language === undefined ? [edit.key] : [`[${edit.language}]`, edit.key];
}

/** Trailing spaces and tabs off every line, as VS Code's files.trimTrailingWhitespace does. */
export function trimTrailing(text: string, finalNewline: boolean): string {
  const trimmed = text.replace(/[ \t]+(?=\r?\n|$)/g, '');
  return finalNewline ? `${trimmed.replace(/(\r?\n)+$/, '')}\n` : trimmed;
}

function applyOne(files: FileMap, edit: VscodeEdit): void {
  switch (edit.op) {
    case 'vscode.set_setting':
    case 'vscode.remove_setting': {
      const text = settingsTextOf(files, edit.settings);
      parseJsonc(text, {});
      const value = edit.op === 'vscode.set_setting' ? edit.value : undefined;
      files[edit.settings] = utf8(modifyJsonc(text, settingPath(edit), value));
      return;
    }
    case 'vscode.add_keybinding': {
      const text = keybindingsTextOf(files);
      const list = parseJsonc(text, []);
      if (!Array.isArray(list)) throw new Error(`${USER_KEYBINDINGS} is not a list`);
      const entry = { key: edit.key, command: edit.command, ...(edit.when ? { when: edit.when } : {}) };
      files[USER_KEYBINDINGS] = utf8(modifyJsonc(text, [list.length], entry, { isArrayInsertion: true }));
      return;
    }
    case 'vscode.remove_keybinding': {
      let text = keybindingsTextOf(files);
      const list = parseJsonc(text, []);
      if (!Array.isArray(list)) throw new Error(`${USER_KEYBINDINGS} is not a list`);
      const at = list.flatMap((e, i) =>
        e && typeof e === 'object' && sameChord(String(e.key), edit.key) && e.command === edit.command
          ? [i]
          : [],
      );
      if (at.length === 0) throw new Error(`no ${edit.key} → ${edit.command} entry to remove`);
      for (const i of at.reverse()) text = modifyJsonc(text, [i], undefined);
      files[USER_KEYBINDINGS] = utf8(text);
      return;
    }
    case 'vscode.write_file':
      files[edit.path] = utf8(edit.content);
      return;
    case 'vscode.replace_text': {
      const text = requireText(files, edit.path);
      const source = edit.word
        ? `(?<![A-Za-z0-9_])${escapeRegExp(edit.find)}(?![A-Za-z0-9_])`
        : escapeRegExp(edit.find);
      const re = new RegExp(source, edit.all ? 'g' : '');
      if (!re.test(text)) throw new Error(`${edit.path} does not contain ${JSON.stringify(edit.find)}`);
      re.lastIndex = 0;
      files[edit.path] = utf8(text.replace(re, () => edit.replace));
      return;
    }
    case 'vscode.trim_whitespace':
      files[edit.path] = utf8(trimTrailing(requireText(files, edit.path), edit.finalNewline));
      return;
    case 'vscode.append_line': {
      const text = files[edit.path] === undefined ? '' : requireText(files, edit.path);
      const sep = text === '' || text.endsWith('\n') ? '' : '\n';
      files[edit.path] = utf8(`${text}${sep}${edit.line}\n`);
      return;
    }
  }
}

/** Applies edits in order, as a person would in VS Code (settings through jsonc-parser's edits). */
export async function applyVscode(files: FileMap, edits: VscodeEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  for (const [index, edit] of edits.entries()) {
    try {
      applyOne(out, edit);
    } catch (error) {
      throw new Error(`edit ${index} (${edit.op}): ${(error as Error).message}`);
    }
  }
  return out;
}
