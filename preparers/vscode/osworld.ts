import { z } from 'zod';
import { gold, type OsworldMapper, unmapped } from '../osworld.ts';

const textCheck = z.object({ file: z.string(), content: z.string(), ini: z.boolean().optional() });

/**
 * VS Code checks → OSWorld's vscode metrics (desktop_env/evaluators/metrics/vscode.py), where they
 * grade alike. `compare_text_file(result, gold)` opens both files in text mode (universal
 * newlines) and compares them whole, which is `vscode.text` exactly: the gold is the oracle's file,
 * whose text the check's content is. The JSON metrics read settings.json and keybindings.json with
 * `json.load`, which VS Code's format (comments, trailing commas) breaks: they are left to the checker.
 */
export const vscodeOsworld: Record<string, OsworldMapper> = {
  'vscode.text': (check) => {
    const c = textCheck.parse(check);
    if (c.ini)
      return unmapped(
        'compare_text_file compares the text whole: "port=8443" for "port = 8443", the same config to configparser, would fail it',
      );
    return { ok: true, shape: 'gold', comparisons: [gold(c.file, 'compare_text_file')] };
  },
  'vscode.setting': () =>
    unmapped(
      'check_json_settings reads settings.json with json.load: a file with a comment or a trailing comma, which VS Code reads and writes, fails it (and an absent key at its default never passes)',
    ),
  'vscode.settings_unchanged': () =>
    unmapped("check_json_settings tests only the keys it expects; the other keys unchanged is the checker's"),
  'vscode.keybinding': () =>
    unmapped(
      "check_json_keybindings reads keybindings.json with json.load (a comment past the first line breaks it) and wants the entry's exact dict, so modifier order or a when clause differ from ours",
    ),
  'vscode.keybindings_unchanged': () => unmapped('no OSWorld metric compares the other keybindings'),
  'vscode.lines': () =>
    unmapped('compare_text_file compares whole files; line order and trailing spaces are free here'),
  'vscode.tests_pass': () =>
    unmapped(
      "check_python_file_by_test_suite imports a gold test module on the host; the checker runs the task's own tests in the VM",
    ),
  'vscode.files_unchanged': () => unmapped("no OSWorld metric hashes a folder's files"),
};
