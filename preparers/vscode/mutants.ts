import { editMutants } from '../editMutants.ts';
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
 * find-and-replace (hitting longer names that contain it), the final newline left as it was.
 */
export async function vscodeMutants(edits: VscodeEdit[], initial: FileMap) {
  const { out, add } = editMutants(edits);
  const root = workspaceRoot(Object.keys(initial));
  edits.forEach((e, i) => {
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
