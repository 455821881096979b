import { z } from 'zod';
import { safeRelativePath } from '../paths.ts';
import { isSettingsFile, USER_SETTINGS, workspaceFileProblem } from './paths.ts';

/** Any JSON value a settings file can hold. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export const jsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number().refine(Number.isFinite, 'a finite number'),
    z.string().max(10_000),
    z.array(jsonValue).max(1000),
    z.record(z.string().max(200), jsonValue),
  ]),
);

/** A setting's id as VS Code writes it: dotted words, e.g. `editor.fontSize` or `files.exclude`. */
export const settingKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/, 'a dotted setting id such as "editor.fontSize"')
  .max(200);

/** A language a setting can be scoped to (`"[python]": {…}`), as VS Code's language ids are spelt. */
export const languageId = z
  .string()
  .regex(/^[a-z][a-z0-9+#._-]*$/, 'a VS Code language id such as "python" or "javascript"')
  .max(50);

/** A key chord as keybindings.json spells it, e.g. `ctrl+shift+k` or `ctrl+k ctrl+c`. */
export const keyChord = z
  .string()
  .regex(/^\s*[^\s]+(\s+[^\s]+)?\s*$/, 'one key chord or two separated by a space, e.g. "ctrl+k ctrl+c"')
  .max(100);

/** A command id, e.g. `editor.action.commentLine` (a leading "-" removes a default binding). */
export const commandId = z
  .string()
  .regex(/^-?[A-Za-z_][A-Za-z0-9_.-]*$/, 'a command id such as "editor.action.commentLine"')
  .max(200);

/** A keybinding as keybindings.json holds it; no `args` (a command's arguments can run programs). */
export const keybindingSchema = z.strictObject({
  key: keyChord,
  command: commandId,
  when: z.string().min(1).max(500).optional().describe('The when clause, e.g. "editorTextFocus".'),
});
export type Keybinding = z.infer<typeof keybindingSchema>;

const settingsFile = safeRelativePath
  .refine(isSettingsFile, `the user's ${USER_SETTINGS} or a folder's .vscode/settings.json`)
  .default(USER_SETTINGS)
  .describe(`The settings file: the user's (${USER_SETTINGS}, default) or "<folder>/.vscode/settings.json".`);

const workspacePath = z.string().superRefine((p, ctx) => {
  const problem = workspaceFileProblem(p);
  if (problem !== null)
    ctx.addIssue({ code: 'custom', message: `workspace path ${JSON.stringify(p)} ${problem}` });
});

const settingsRecord = z.record(settingKey.or(z.string().regex(/^\[[a-z][a-z0-9+#._-]*\]$/)), jsonValue);

export const docSchema = z
  .strictObject({
    settings: settingsRecord
      .optional()
      .describe(
        `The user's settings (${USER_SETTINGS}), written as VS Code writes them; omitted: no file (a fresh install).`,
      ),
    settingsComments: z
      .record(
        z.string(),
        z
          .string()
          .max(200)
          .regex(/^[^\r\n]*$/, 'one line'),
      )
      .default({})
      .describe(
        'A `//` comment line put above a user setting, by key (people leave notes in settings.json).',
      ),
    keybindings: z
      .array(keybindingSchema)
      .max(100)
      .optional()
      .describe('The user keybindings.json entries; omitted: no file.'),
    workspaceSettings: settingsRecord
      .optional()
      .describe("The workspace folder's own .vscode/settings.json; omitted: no file."),
    files: z
      .array(
        z.strictObject({
          path: workspacePath.describe('Path inside the workspace folder, e.g. "src/invoice.py".'),
          content: z.string().max(1_000_000),
        }),
      )
      .max(200)
      .default([])
      .describe("The workspace folder's files (code, tests, a Makefile, .gitignore)."),
  })
  .describe('VS Code: the user settings and keybindings, and the workspace folder named by the target.');
export type VscodeDoc = z.infer<typeof docSchema>;

const filePath = safeRelativePath.describe(
  'Home-relative path of a workspace file, e.g. "projects/api/app.py".',
);

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({
      op: z.literal('vscode.set_setting'),
      settings: settingsFile,
      key: settingKey,
      language: languageId.optional().describe('Scope the setting to a language ("[python]": {…}).'),
      value: jsonValue,
    })
    .describe('Set a setting in settings.json, as the Settings editor does (comments and other keys kept).'),
  z
    .strictObject({
      op: z.literal('vscode.remove_setting'),
      settings: settingsFile,
      key: settingKey,
      language: languageId.optional(),
    })
    .describe('Remove a setting from settings.json (it falls back to its default).'),
  z
    .strictObject({
      op: z.literal('vscode.add_keybinding'),
      key: keyChord,
      command: commandId,
      when: z.string().min(1).max(500).optional(),
    })
    .describe('Append a keybinding to the user keybindings.json, as the Keyboard Shortcuts editor does.'),
  z
    .strictObject({ op: z.literal('vscode.remove_keybinding'), key: keyChord, command: commandId })
    .describe('Remove the user keybindings.json entries with this key and command.'),
  z
    .strictObject({ op: z.literal('vscode.write_file'), path: filePath, content: z.string().max(1_000_000) })
    .describe('Create or overwrite a text file (saved from the editor).'),
  z
    .strictObject({
      op: z.literal('vscode.replace_text'),
      path: filePath,
      find: z.string().min(1).max(10_000),
      replace: z.string().max(10_000),
      word: z
        .boolean()
        .default(false)
        .describe('Whole words only (Find/Replace with "Match Whole Word", or Rename Symbol).'),
      all: z.boolean().default(true).describe('Every occurrence (default) or only the first.'),
    })
    .describe('Replace literal text in a file; fails when it is not there.'),
  z
    .strictObject({
      op: z.literal('vscode.trim_whitespace'),
      path: filePath,
      finalNewline: z.boolean().default(true).describe('Also end the file with exactly one newline.'),
    })
    .describe('Trim trailing whitespace on every line (files.trimTrailingWhitespace on save).'),
  z
    .strictObject({
      op: z.literal('vscode.append_line'),
      path: filePath,
      line: z
        .string()
        .max(2000)
        .regex(/^[^\r\n]*$/),
    })
    .describe('Add a line at the end of a text file (a newline first when the file does not end with one).'),
]);
export type VscodeEdit = z.infer<typeof editSchema>;

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('vscode.setting'),
      file: settingsFile,
      key: settingKey,
      language: languageId.optional(),
      value: jsonValue.optional().describe('The value the setting must have (parsed, any formatting).'),
      default: jsonValue
        .optional()
        .describe(
          "VS Code's default for the key: an absent key has it (the Settings editor removes a key set back to its default).",
        ),
      absent: z.literal(true).optional().describe('The key must not be set in this file at all.'),
      unordered: z
        .literal(true)
        .optional()
        .describe(
          'An array value is compared in any order (editor.rulers: the same lines whichever column is typed first).',
        ),
    })
    .superRefine((c, ctx) => {
      if ((c.value === undefined) === (c.absent === undefined))
        ctx.addIssue({ code: 'custom', message: 'give exactly one of value or absent' });
    })
    .describe('A setting in a settings file has a value (read as VS Code reads JSONC), or is not set.'),
  z
    .strictObject({
      kind: z.literal('vscode.settings_unchanged'),
      file: settingsFile,
      ignore: z.array(z.string()).describe('Top-level keys the task may change.'),
      expect: z.record(z.string(), jsonValue).describe('Every other top-level key and its value.'),
    })
    .describe('Invariant: the settings file holds exactly these other keys with these values.'),
  z
    .strictObject({
      kind: z.literal('vscode.keybinding'),
      file: z.literal('.config/Code/User/keybindings.json').default('.config/Code/User/keybindings.json'),
      key: keyChord,
      command: commandId,
      when: z
        .string()
        .min(1)
        .max(500)
        .optional()
        .describe(
          'Also require this when clause (spaces ignored); a removal rule ("-command") with none meets any, as VS Code applies it.',
        ),
      present: z.boolean().default(true).describe('Whether such an entry must exist (true) or not (false).'),
    })
    .describe(
      'keybindings.json has (or has no) entry binding this key (modifiers in any order) to this command.',
    ),
  z
    .strictObject({
      kind: z.literal('vscode.keybindings_unchanged'),
      file: z.literal('.config/Code/User/keybindings.json').default('.config/Code/User/keybindings.json'),
      touched: z.array(z.strictObject({ key: keyChord, command: commandId })),
      entries: z.array(keybindingSchema).describe('Every other entry, in any order.'),
    })
    .describe(
      'Invariant: apart from the touched key/command pairs, keybindings.json holds exactly these entries.',
    ),
  z
    .strictObject({
      kind: z.literal('vscode.text'),
      file: filePath,
      content: z.string().max(1_000_000),
      ini: z
        .boolean()
        .default(false)
        .describe(
          'An INI file: a "key = value" line compares by its key and value, however it is spaced around "=" (configparser reads "port=8443" and "port = 8443" alike).',
        ),
    })
    .describe("The file's text equals this (CRLF and CR read as LF, as Python's text mode reads it)."),
  z
    .strictObject({
      kind: z.literal('vscode.lines'),
      file: filePath,
      lines: z.array(z.string().regex(/^[^\r\n]*$/)).describe('The expected lines, in any order.'),
      comments: z
        .string()
        .min(1)
        .max(3)
        .optional()
        .describe(
          'Lines starting with this are comments (a .gitignore\'s "#"): read as nothing, on either side.',
        ),
    })
    .describe("The set of the file's non-blank lines (trailing whitespace ignored) is exactly this set."),
  z
    .strictObject({
      kind: z.literal('vscode.tests_pass'),
      dir: safeRelativePath.describe('The folder the tests are discovered in (test*.py).'),
      runner: z.literal('python-unittest').default('python-unittest'),
    })
    .describe('`python3 -m unittest discover` in the folder runs at least one test and every one passes.'),
  z
    .strictObject({
      kind: z.literal('vscode.files_unchanged'),
      dir: safeRelativePath.describe('The workspace folder.'),
      files: z
        .record(z.string(), z.string().regex(/^[0-9a-f]{64}$/))
        .describe('Home-relative paths and the sha256 of the bytes each must keep.'),
      listing: z
        .array(z.string())
        .describe(
          'Every file the folder may hold (home-relative), hidden ones but .vscode/ left out; byte-code caches are ignored.',
        ),
    })
    .describe('Invariant: these files keep their bytes and the workspace gains no other file.'),
]);
export type VscodeCheck = z.infer<typeof checkSchema>;
