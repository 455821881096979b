import { editMutants, twinPath } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { workspaceRoot } from './invariants.ts';
import { USER_SETTINGS, workspaceSettingsOf } from './paths.ts';
import type { VscodeEdit } from './schema.ts';

/** The other place the same chord is pressed with: Ctrl and Alt confused. */
function otherModifier(key: string): string | undefined {
  if (/\bctrl\+/i.test(key)) return key.replace(/\bctrl\+/i, 'alt+');
  if (/\balt\+/i.test(key)) return key.replace(/\balt\+/i, 'ctrl+');
  return undefined;
}

/**
 * VS Code's near misses: a checkbox ticked the wrong way, the setting saved in the other scope
 * (the Settings editor's User and Workspace tabs), a language-scoped setting set for every
 * language, a shortcut without its when clause or on the other modifier, a rename done as a plain
 * find-and-replace (hitting longer names that contain it), the final newline left as it was; and
 * beside each edit, another setting changed or another file of the folder touched.
 */
export async function vscodeMutants(edits: VscodeEdit[], initial: FileMap) {
  const { out, add, also } = editMutants(edits);
  const root = workspaceRoot(Object.keys(initial));
  const paths = new Set(edits.flatMap((e) => ('path' in e ? [e.path] : [])));
  /** Visible text files the task leaves alone, where a stray paste could land. */
  const texts = Object.keys(initial)
    .filter((p) => !paths.has(p) && !p.split('/').some((seg) => seg.startsWith('.')))
    .filter((p) => /\.(md|txt|py|js|ts|json|ya?ml|toml|ini|cfg|sh|css|html)$/i.test(p))
    .sort();
  edits.forEach((e, i) => {
    // Beside the task: another setting changed on the way, or a line of another file pasted twice.
    if ('settings' in e) {
      const key = e.key === 'editor.wordWrap' ? 'editor.minimap.enabled' : 'editor.wordWrap';
      also(i, `and ${key} changed too (a setting not asked for)`, {
        op: 'vscode.set_setting',
        settings: e.settings,
        key,
        value: key === 'editor.wordWrap' ? 'on' : false,
      });
    } else if ('path' in e) {
      // The nearest text file the task leaves alone: the edited file's folder first, then its
      // parents inside the project (never a top folder of the home, whose files are no project's).
      const dirs = e.path.split('/').slice(0, -1);
      const other = dirs
        .slice(1)
        .map((_, k) => `${dirs.slice(0, dirs.length - k).join('/')}/`)
        .flatMap((dir) => texts.filter((p) => p.startsWith(dir) && !p.slice(dir.length).includes('/')))[0];
      const line =
        other &&
        Buffer.from(initial[other]!)
          .toString('utf8')
          .split('\n')
          .find((l) => l.trim() !== '');
      if (other && line !== undefined && line.length <= 2000)
        also(i, `and a line of ${other} pasted twice (a file not asked for)`, {
          op: 'vscode.append_line',
          path: other,
          line,
        });
      else if (e.op === 'vscode.write_file')
        // No file beside it to touch: the edit saved a second time under a new name (Save As).
        also(i, `and saved again as ${twinPath(e.path)} (a file not asked for)`, {
          ...e,
          path: twinPath(e.path),
        });
    }
    switch (e.op) {
      case 'vscode.remove_setting': {
        const other = e.settings === USER_SETTINGS ? root && workspaceSettingsOf(root) : USER_SETTINGS;
        if (other) add(i, `reset in ${other} instead`, { ...e, settings: other });
        return;
      }
      case 'vscode.set_setting': {
        if (typeof e.value === 'boolean') add(i, `value ${e.value} → ${!e.value}`, { ...e, value: !e.value });
        const other = e.settings === USER_SETTINGS ? root && workspaceSettingsOf(root) : USER_SETTINGS;
        if (other) add(i, `saved in ${other} instead`, { ...e, settings: other });
        if (e.language !== undefined) add(i, 'for every language', { ...e, language: undefined });
        return;
      }
      case 'vscode.add_keybinding': {
        // A removal rule without a when clause still removes the binding: not a near miss.
        if (e.when !== undefined && !e.command.startsWith('-'))
          add(i, 'without its when clause', { ...e, when: undefined });
        const key = otherModifier(e.key);
        if (key) add(i, `key ${e.key} → ${key}`, { ...e, key });
        return;
      }
      case 'vscode.replace_text':
        if (e.word) add(i, 'as a plain find-and-replace (not whole words)', { ...e, word: false });
        if (e.all) add(i, 'only the first occurrence', { ...e, all: false });
        return;
      case 'vscode.trim_whitespace':
        add(i, `finalNewline ${e.finalNewline} → ${!e.finalNewline}`, {
          ...e,
          finalNewline: !e.finalNewline,
        });
        return;
      default:
        return;
    }
  });
  return out;
}
