import { z } from 'zod';
import { VM_HOME } from './osworld.ts';

/**
 * Why a home-relative path is unsafe, or null when it is safe. Paths reach shells (setup scripts),
 * archives and the file system of a VM, and some are written by an LLM, so the rule is strict:
 * relative, `/`-separated, no empty, `.` or `..` segment, no segment starting with `-` (it would be
 * read as an option), no backslash and no control characters.
 */
export function relativePathProblem(path: string): string | null {
  if (path.length === 0) return 'is empty';
  if (path.length > 1024) return 'is longer than 1024 characters';
  if (path.startsWith('/')) return 'is absolute (must be relative to the home directory)';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash';
  // Bidi overrides and zero-width characters make a name read as something it is not.
  if (/\p{Cf}/u.test(path)) return 'contains an invisible format character (bidi control or zero-width)';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment (leading, trailing or double "/")';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    if (segment.startsWith('-')) return `has a segment starting with "-" ("${segment}")`;
    if (segment.length > 255) return 'has a segment longer than 255 characters';
  }
  return null;
}

export function isSafeRelativePath(path: string): boolean {
  return relativePathProblem(path) === null;
}

/** Throws a clear error naming the path and what is wrong with it. */
export function assertSafeRelativePath(path: string, what = 'path'): string {
  const problem = relativePathProblem(path);
  if (problem !== null) throw new Error(`${what} ${JSON.stringify(path)} ${problem}`);
  return path;
}

/** Zod schema for a safe home-relative path; use it for every path a spec, edit or check names. */
export const safeRelativePath = z
  .string()
  .superRefine((path, ctx) => {
    const problem = relativePathProblem(path);
    if (problem !== null)
      ctx.addIssue({ code: 'custom', message: `path ${JSON.stringify(path)} ${problem}` });
  })
  .describe(
    'A path relative to the home directory, "/"-separated, e.g. "Documents/report.txt". ' +
      'No leading "/", no "." or ".." segments, no segment starting with "-", no control characters or backslashes.',
  );

/** True when `path` equals `dir` or lies below it (both safe relative paths). */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/**
 * The folders of a home whose entries a "nothing else changed" check holds, given every path of
 * the task's states: each visible folder (hidden ones are the apps' own), but the browser's
 * Downloads, where pages viewed on the way may land, unless the task's own files are there.
 */
export function heldFolders(paths: Iterable<string>): Set<string> {
  const all = [...paths];
  const downloads = all.some((p) => isWithin(p, 'Downloads') && p !== 'Downloads');
  const out = new Set<string>();
  for (const p of all)
    for (const d of [...parentDirs(p), p])
      if (!d.split('/').some((seg) => seg.startsWith('.')) && (downloads || !isWithin(d, 'Downloads')))
        out.add(d);
  return out;
}

/** The parent directories of a relative path, outermost first: "a/b/c" → ["a", "a/b"]. */
export function parentDirs(path: string): string[] {
  const segments = path.split('/');
  const parents: string[] = [];
  for (let i = 1; i < segments.length; i++) parents.push(segments.slice(0, i).join('/'));
  return parents;
}

/**
 * Home-relative path a symlink at `link` points to, or undefined when it leaves home. An absolute
 * target inside the VM's home counts: `ln -s ~/Shared/x link` writes one, since the shell expands `~`.
 */
export function resolveLinkTarget(link: string, target: string): string | undefined {
  const fromHome = target.startsWith(`${VM_HOME}/`);
  if (target.startsWith('/') && !fromHome) return undefined;
  const segments = fromHome ? [] : link.split('/').slice(0, -1);
  for (const segment of (fromHome ? target.slice(VM_HOME.length) : target).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return segments.length === 0 ? undefined : segments.join('/');
}
