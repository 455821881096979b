import {
  applyEdits,
  type FormattingOptions,
  modify,
  type ParseError,
  parse,
  printParseErrorCode,
} from 'jsonc-parser';

/**
 * VS Code's settings and keybindings files are JSON with comments and trailing commas ("JSONC"),
 * read here with the parser VS Code itself uses. A file that has a syntax error is not a state
 * the checks read values from: VS Code shows it as broken, so every check on it fails with the
 * reason (the Python checker's `jsonc_load` has the same rule).
 */
export class JsoncError extends Error {
  override name = 'JsoncError';
}

/** How VS Code writes its own JSON files by default: four spaces, LF. */
export const VSCODE_FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 4, eol: '\n' };

/** A byte-order mark is read past, as VS Code's file service does. */
export function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/** Whether the text holds nothing but whitespace and comments (VS Code reads it as empty). */
export function isBlankJsonc(text: string): boolean {
  let errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (value !== undefined) return false;
  // Only "value expected" at the end: nothing but trivia.
  errors = errors.filter((e) => printParseErrorCode(e.error) !== 'ValueExpected');
  return errors.length === 0;
}

/** The value of a JSONC text; `empty` when it holds no value at all; throws JsoncError on a syntax error. */
export function parseJsonc<T>(text: string, empty: T): unknown {
  if (isBlankJsonc(text)) return empty;
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    throw new JsoncError(`${printParseErrorCode(e.error)} at offset ${e.offset}`);
  }
  return value;
}

/**
 * The text with the value at `path` set (or removed, for undefined) as VS Code's settings editor
 * does it: jsonc-parser's `modify` and `applyEdits`, so comments, other keys and their order stay.
 */
export function modifyJsonc(
  text: string,
  path: (string | number)[],
  value: unknown,
  options: { isArrayInsertion?: boolean } = {},
): string {
  const edits = modify(text, path, value, { formattingOptions: VSCODE_FORMAT, ...options });
  return applyEdits(text, edits);
}
