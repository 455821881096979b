/**
 * Skill-id globs (`calc.*`, `os.files.?ove-*`): `*` any run of characters, `?` one character,
 * everything else literal. Matched without regular expressions: the glob is split at `*` and each
 * piece is found left to right, so time grows with the id and the glob, never exponentially (a
 * glob turned into a backtracking regex once blocked the API for minutes). Length and wildcard
 * counts are capped where a glob comes in.
 */
export const MAX_GLOB_LENGTH = 120;
export const MAX_GLOB_WILDCARDS = 8;

export class GlobError extends Error {
  override name = 'GlobError';
}

/** Why `glob` is refused, or null. */
export function globProblem(glob: string): string | null {
  if (glob.length === 0) return 'is empty';
  if (glob.length > MAX_GLOB_LENGTH) return `is longer than ${MAX_GLOB_LENGTH} characters`;
  const wildcards = [...glob].filter((c) => c === '*' || c === '?').length;
  if (wildcards > MAX_GLOB_WILDCARDS) return `has ${wildcards} wildcards (at most ${MAX_GLOB_WILDCARDS})`;
  return null;
}

export function assertGlob(glob: string): string {
  const problem = globProblem(glob);
  if (problem) throw new GlobError(`skill glob ${JSON.stringify(glob.slice(0, 200))} ${problem}`);
  return glob;
}

export const isGlob = (s: string) => /[*?]/.test(s);

/** `piece` (with `?` for any character) at `at` in `text`. */
function pieceAt(text: string, piece: string, at: number): boolean {
  if (at + piece.length > text.length) return false;
  for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== text[at + i]) return false;
  return true;
}

export function matchGlob(glob: string, text: string): boolean {
  assertGlob(glob);
  const pieces = glob.split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return first.length === text.length && pieceAt(text, first, 0);
  const last = pieces[pieces.length - 1]!;
  if (!pieceAt(text, first, 0)) return false;
  const end = text.length - last.length;
  if (end < first.length || !pieceAt(text, last, end)) return false;
  // Middle pieces, each at its leftmost place: leftmost leaves the most room for the rest.
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    let found = -1;
    for (let i = at; i + piece.length <= end; i++) {
      if (pieceAt(text, piece, i)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

/** The glob as a SQL LIKE pattern (escape character `\`). */
export function globToLike(glob: string): string {
  assertGlob(glob);
  return glob
    .replace(/[\\%_]/g, '\\$&')
    .replaceAll('*', '%')
    .replaceAll('?', '_');
}
