/**
 * Quotes one argument for bash so it is always a single literal word. Plain text goes inside
 * single quotes, where nothing expands (newlines, globs, `;`, `|` included); the characters that
 * single quotes cannot hold or that linters flag inside them (`'`, `$`, backtick, backslash) are
 * written as backslash escapes between the quoted parts. NUL cannot be represented at all.
 */
export function shellQuote(arg: string): string {
  if (arg.includes('\0')) throw new Error('a shell argument cannot contain a NUL byte');
  if (arg === '') return "''";
  return arg
    .split(/(['$`\\])/)
    .filter((part) => part !== '')
    .map((part) => (part.length === 1 && `'$\`\\`.includes(part) ? `\\${part}` : `'${part}'`))
    .join('');
}
