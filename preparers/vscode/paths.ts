import { relativePathProblem } from '../paths.ts';

/** VS Code's user configuration directory on Linux (the Debian/Microsoft package's `code`). */
export const USER_DIR = '.config/Code/User';
export const USER_SETTINGS = `${USER_DIR}/settings.json`;
export const USER_KEYBINDINGS = `${USER_DIR}/keybindings.json`;

/** The folder VS Code reads a workspace's own settings from. */
export const WORKSPACE_CONFIG_DIR = '.vscode';

/** A workspace folder's settings file, `<folder>/.vscode/settings.json`. */
export function workspaceSettingsOf(folder: string): string {
  return `${folder}/${WORKSPACE_CONFIG_DIR}/settings.json`;
}

/** Whether `path` is a settings file VS Code reads: the user's, or a (non-home) workspace folder's. */
export function isSettingsFile(path: string): boolean {
  return path === USER_SETTINGS || /^[^/].*\/\.vscode\/settings\.json$/.test(path);
}

/**
 * Why a path of a workspace file (relative to the workspace folder) is not one a spec may write, or
 * null: no VS Code or git configuration (`.vscode/` is written only as settings, through
 * `workspaceSettings`), no workspace file (it can carry tasks and launch configurations).
 */
export function workspaceFileProblem(path: string): string | null {
  const problem = relativePathProblem(path);
  if (problem !== null) return problem;
  for (const segment of path.split('/'))
    if (segment.startsWith('.') && segment !== '.gitignore' && segment !== '.editorconfig')
      return `has the hidden segment "${segment}" (only .gitignore and .editorconfig are workspace dotfiles a spec writes)`;
  if (/\.code-workspace$/i.test(path))
    return 'is a .code-workspace file (it can define tasks and launch configurations)';
  return null;
}

/** Files a workspace folder's listing leaves out: the interpreter's byte-code caches. */
export function isCacheEntry(relative: string): boolean {
  return relative.split('/').some((s) => s === '__pycache__') || relative.endsWith('.pyc');
}
