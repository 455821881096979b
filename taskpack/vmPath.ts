import { z } from 'zod';
import { relativePathProblem } from '../preparers/paths.ts';

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
