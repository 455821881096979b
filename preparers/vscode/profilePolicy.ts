import type { NamedPath, ProfileEntry, ProfilePolicy } from '../types.ts';
import { JsoncError, parseJsonc, textOf } from './jsonc.ts';
import { USER_DIR, USER_KEYBINDINGS, USER_SETTINGS, workspaceSettingsOf } from './paths.ts';

/**
 * The settings a spec may write: how the editor looks and formats, what it saves and hides. Plain
 * data only. Nothing that starts a program or names one (terminal profiles and shells, tasks,
 * launch configurations, interpreters and tool paths, git, extensions and their auto-update,
 * workspace trust): an allowlist, so a key not named here is refused.
 */
export const ALLOWED_SETTINGS: ReadonlySet<string> = new Set([
  'editor.fontSize',
  'editor.fontFamily',
  'editor.fontWeight',
  'editor.fontLigatures',
  'editor.lineHeight',
  'editor.tabSize',
  'editor.insertSpaces',
  'editor.detectIndentation',
  'editor.wordWrap',
  'editor.wordWrapColumn',
  'editor.minimap.enabled',
  'editor.minimap.side',
  'editor.rulers',
  'editor.formatOnSave',
  'editor.formatOnPaste',
  'editor.lineNumbers',
  'editor.renderWhitespace',
  'editor.renderLineHighlight',
  'editor.cursorStyle',
  'editor.cursorBlinking',
  'editor.smoothScrolling',
  'editor.mouseWheelZoom',
  'editor.scrollBeyondLastLine',
  'editor.stickyScroll.enabled',
  'editor.bracketPairColorization.enabled',
  'editor.guides.bracketPairs',
  'editor.guides.indentation',
  'editor.folding',
  'editor.glyphMargin',
  'editor.autoClosingBrackets',
  'editor.trimAutoWhitespace',
  'editor.acceptSuggestionOnEnter',
  'editor.quickSuggestions',
  'editor.suggestSelection',
  'files.autoSave',
  'files.autoSaveDelay',
  'files.exclude',
  'files.trimTrailingWhitespace',
  'files.insertFinalNewline',
  'files.trimFinalNewlines',
  'files.eol',
  'files.encoding',
  'files.hotExit',
  'search.exclude',
  'explorer.confirmDelete',
  'explorer.confirmDragAndDrop',
  'explorer.compactFolders',
  'explorer.sortOrder',
  'workbench.colorTheme',
  'workbench.startupEditor',
  'workbench.editor.wrapTabs',
  'workbench.editor.enablePreview',
  'workbench.editor.showTabs',
  'workbench.tree.indent',
  'workbench.sideBar.location',
  'workbench.statusBar.visible',
  'workbench.activityBar.visible',
  'breadcrumbs.enabled',
  'window.zoomLevel',
  'window.restoreWindows',
  'diffEditor.ignoreTrimWhitespace',
  'diffEditor.renderSideBySide',
  'debug.focusEditorOnBreak',
  'debug.openDebug',
  'telemetry.telemetryLevel',
  'update.mode',
]);

const LANGUAGE_SECTION = /^\[[a-z][a-z0-9+#._-]*\]$/;

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why a settings object is not one a spec may write, or null. */
export function settingsProblem(value: unknown): string | null {
  if (!isObj(value)) return 'settings.json must hold a JSON object';
  for (const [key, v] of Object.entries(value)) {
    if (LANGUAGE_SECTION.test(key)) {
      if (!isObj(v)) return `${key} must hold an object of settings`;
      for (const inner of Object.keys(v))
        if (!ALLOWED_SETTINGS.has(inner))
          return `${key} sets ${inner}, which is not an allowed display or editing setting`;
      continue;
    }
    if (!ALLOWED_SETTINGS.has(key))
      return `settings.json sets ${key}, which is not an allowed display or editing setting`;
  }
  return null;
}

/**
 * Commands a spec's keybindings may name: editing, navigation and view commands. No command that
 * runs something (terminal send-sequence, tasks, debug launch, extension install, shell commands).
 */
const ALLOWED_COMMAND = new RegExp(
  '^-?(' +
    [
      'editor\\.action\\.[A-Za-z]+',
      'workbench\\.action\\.(files\\.[A-Za-z]+|focus[A-Za-z]*|toggle[A-Za-z]*|quickOpen|showCommands|navigate[A-Za-z]*|closeActiveEditor|closeAllEditors|splitEditor[A-Za-z]*|nextEditor|previousEditor|zoomIn|zoomOut|zoomReset|gotoLine|openSettings|openGlobalKeybindings|findInFiles|replaceInFiles|selectTheme)',
      'workbench\\.view\\.[A-Za-z]+',
      'workbench\\.files\\.action\\.[A-Za-z]+',
      'explorer\\.[A-Za-z]+',
      'list\\.[A-Za-z]+',
      'cursor[A-Za-z]+',
      'editor\\.(fold|unfold)[A-Za-z]*',
      'deleteLeft|deleteRight|undo|redo|tab|outdent|acceptSelectedSuggestion|actions\\.find',
    ].join('|') +
    ')$',
);

/** Why a keybindings list is not one a spec may write, or null. */
export function keybindingsProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'keybindings.json must hold a JSON list';
  for (const e of value) {
    if (!isObj(e)) return 'every keybindings.json entry must be an object';
    for (const k of Object.keys(e))
      if (k !== 'key' && k !== 'command' && k !== 'when')
        return `a keybinding has "${k}" (only key, command and when: a command's args can run programs)`;
    if (typeof e.command !== 'string' || !ALLOWED_COMMAND.test(e.command))
      return `the keybinding command ${JSON.stringify(e.command)} is not an allowed editing or view command`;
  }
  return null;
}

function fileProblem(
  entry: ProfileEntry,
  check: (value: unknown) => string | null,
  empty: unknown,
): string | null {
  if (entry.type !== 'file') return 'must be a regular file';
  if (entry.bytes === undefined) return null;
  try {
    return check(parseJsonc(textOf(entry.bytes), empty));
  } catch (err) {
    if (err instanceof JsoncError) return `is not valid JSON with comments (${err.message})`;
    throw err;
  }
}

/**
 * VS Code's configuration: the user settings and keybindings (allowlisted settings and commands)
 * and a workspace folder's .vscode/settings.json; nothing else — no tasks.json, launch.json,
 * extensions, snippets, profiles, or the other builds' directories (VSCodium, Code - OSS).
 */
export const vscodeProfilePolicy: ProfilePolicy = {
  name: 'VS Code',
  roots: ['.config/Code', '.config/VSCodium', '.config/Code - OSS', '.vscode', '.vscode-oss'],
  // A workspace's .vscode/tasks.json can run a task when the folder is opened.
  anywhere: ['.vscode'],
  allow(path, entry) {
    if (entry.type === 'symlink') return 'a symlink could point the configuration anywhere';
    if (path === '.config/Code' || path === USER_DIR)
      return entry.type === 'dir' ? null : 'must be a directory';
    if (path === USER_SETTINGS) {
      const p = fileProblem(entry, settingsProblem, {});
      return p && `settings.json ${p}`;
    }
    if (path === USER_KEYBINDINGS) {
      const p = fileProblem(entry, keybindingsProblem, []);
      return p && `keybindings.json ${p}`;
    }
    const segments = path.split('/');
    const at = segments.indexOf('.vscode');
    // A folder's own .vscode/ (never the home's: ~/.vscode holds the extensions).
    if (at > 0 && !path.startsWith('.config/')) {
      const inner = segments.slice(at + 1).join('/');
      if (inner === '') return entry.type === 'dir' ? null : 'must be a directory';
      if (inner === 'settings.json') {
        const p = fileProblem(entry, settingsProblem, {});
        return p && `settings.json ${p}`;
      }
      return `${inner} is not a workspace file a spec may write (only .vscode/settings.json; tasks.json and launch.json run programs)`;
    }
    return 'only the user settings.json and keybindings.json may be written here (extensions, snippets, profiles and other builds run or load code)';
  },
};

/** The files a VS Code prepare node names: the user configuration it writes and the workspace folder's files. */
export function vscodeNamedPaths(target: string, doc: unknown): NamedPath[] {
  const d = isObj(doc) ? doc : {};
  const out: NamedPath[] = [];
  const bytesOf = (text: string | undefined): ProfileEntry =>
    text === undefined
      ? { type: 'file' }
      : { type: 'file', bytes: new Uint8Array(Buffer.from(text, 'utf8')) };
  const settled = (value: unknown) => value !== undefined && !JSON.stringify(value).includes('{{');
  if (d.settings !== undefined)
    out.push({
      where: 'doc.settings',
      path: USER_SETTINGS,
      entry: bytesOf(settled(d.settings) && isObj(d.settings) ? JSON.stringify(d.settings) : undefined),
    });
  if (d.keybindings !== undefined)
    out.push({
      where: 'doc.keybindings',
      path: USER_KEYBINDINGS,
      entry: bytesOf(
        settled(d.keybindings) && Array.isArray(d.keybindings) ? JSON.stringify(d.keybindings) : undefined,
      ),
    });
  if (typeof target === 'string' && d.workspaceSettings !== undefined)
    out.push({
      where: 'doc.workspaceSettings',
      path: workspaceSettingsOf(target),
      entry: bytesOf(
        settled(d.workspaceSettings) && isObj(d.workspaceSettings)
          ? JSON.stringify(d.workspaceSettings)
          : undefined,
      ),
    });
  if (typeof d.files === 'string') out.push({ where: 'doc.files', path: d.files, entry: { type: 'file' } });
  if (Array.isArray(d.files))
    d.files.forEach((raw, i) => {
      const f = isObj(raw) ? raw : {};
      if (typeof f.path === 'string')
        out.push({ where: `doc.files[${i}].path`, path: `${target}/${f.path}`, entry: { type: 'file' } });
    });
  out.push({ where: 'target', path: target, entry: { type: 'dir' } });
  return out;
}
