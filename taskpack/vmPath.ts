import { z } from 'zod';
import { relativePathProblem, resolveLinkTarget } from '../preparers/paths.ts';

/** Limits that every filesystem the VM may use accepts (ext4: 255 bytes per name). */
export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_BYTES = 1024;

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * A path relative to the VM user's home, safe to hand to a shell (quoted) or a tar/zip writer:
 * no absolute paths, no `.`/`..` or empty segments, no control characters, no segment starting
 * with `-` (it would read as an option), bounded length. Quotes, spaces, `$`, backticks and
 * unicode letters are allowed: quoting makes them harmless, and real file names contain them.
 */
export const vmRelativePath = z
  .string()
  .min(1, 'a path must not be empty')
  .superRefine((value, ctx) => {
    const problem = pathProblem(value);
    if (problem)
      ctx.addIssue({ code: 'custom', message: `unsafe path ${JSON.stringify(value)}: ${problem}` });
  });

/** The shared rules of preparers/paths.ts, plus byte-length limits and the separators some tools split on. */
function pathProblem(value: string): string | undefined {
  const shared = relativePathProblem(value);
  if (shared !== null) return shared;
  if (value.startsWith('~')) return 'must be relative to the home directory, without ~';
  // C1 controls and line/paragraph separators: some tools treat them as newlines.
  if (/[\u0080-\u009f\u2028\u2029]/.test(value)) return 'contains a control character';
  if (utf8Length(value) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  if (value.split('/').some((segment) => utf8Length(segment) > MAX_SEGMENT_BYTES)) {
    return `has a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/** Throws a clear error unless `value` is a safe home-relative path. */
export function assertVmRelativePath(value: string, what: string): string {
  const problem = pathProblem(value);
  if (problem) throw new Error(`${what}: unsafe path ${JSON.stringify(value)}: ${problem}`);
  return value;
}

/**
 * Why a symlink at `link` (home-relative) may not point at `target`, or undefined: the target is
 * relative to the link's directory and must resolve to a safe path inside the home, so a link
 * can never reach `/etc` or another user's files.
 */
export function symlinkTargetProblem(link: string, target: string): string | undefined {
  if (target === '') return 'an empty target';
  if (target.startsWith('/'))
    return `target ${JSON.stringify(target)} is absolute; give it relative to the link`;
  if (target.startsWith('~'))
    return `target ${JSON.stringify(target)} starts with ~; give it relative to the link`;
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(target))
    return `target ${JSON.stringify(target)} contains a control character`;
  const resolved = resolveLinkTarget(link, target);
  if (resolved === undefined) return `target ${JSON.stringify(target)} leaves the home directory`;
  const problem = pathProblem(resolved);
  return problem
    ? `target ${JSON.stringify(target)} resolves to ${JSON.stringify(resolved)}, which ${problem}`
    : undefined;
}

/** Throws a clear error unless a link at `link` may point at `target`. */
export function assertSymlinkTarget(link: string, target: string, what: string): string {
  const problem = symlinkTargetProblem(link, target);
  if (problem) throw new Error(`${what}: symlink ${JSON.stringify(link)}: ${problem}`);
  return target;
}
