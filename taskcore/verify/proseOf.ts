/**
 * The task's prose, as the coherence checks read it (eventDates.ts, sheetFigures.ts): every string
 * of the documents but sheets, data files and payloads, whitespace runs tidied.
 */

/** Where a sentence ends: after its stop, at a line break, at a semicolon. */
export const SENTENCE = /(?<=[.!?])\s+|\n+|;\s*/;

/** A file by its name that holds data or code (a CSV of events, a settings file), not prose. */
const NOT_PROSE = /\.(?!(?:txt|md|markdown|rtf|html?|eml)$)[a-z0-9]{1,5}$/i;

/**
 * Whitespace runs as one space, or one newline where they hold a line break: the checks' patterns
 * allow optional whitespace on both sides of a word, which a long run of it (model-written text)
 * would make them retry quadratically.
 */
export const tidyWhitespace = (text: string) =>
  text.replace(/\s+/g, (ws) => (ws.includes('\n') ? '\n' : ' '));

/**
 * Every string of the documents but the sheets' and data files', with the list of strings it is an
 * item of (a slide's bullets). Payloads (pictures, archives) are not prose.
 */
export function prose(
  v: unknown,
  list?: object,
  out: [string, object | undefined][] = [],
): [string, object | undefined][] {
  if (typeof v === 'string') {
    if (v.length <= 200_000) out.push([tidyWhitespace(v), list]);
  } else if (Array.isArray(v)) for (const x of v) prose(x, v, out);
  else if (v && typeof v === 'object' && !isWorkbook(v)) {
    const path = (v as { path?: unknown }).path;
    if (typeof path === 'string' && NOT_PROSE.test(path)) return out;
    for (const x of Object.values(v)) prose(x, undefined, out);
  }
  return out;
}

/** A calc document: sheets of rows. */
export function isWorkbook(v: object): boolean {
  const sheets = (v as { sheets?: unknown }).sheets;
  return Array.isArray(sheets) && sheets.some((s) => s && typeof s === 'object' && Array.isArray(s.rows));
}
