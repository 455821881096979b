/**
 * Quotes as typed: LibreOffice's AutoCorrect turns ' and " into curly quotes as a person types
 * (don’t, “Draft”), in Writer and Impress alike. A probe reads ‘ ’ as ' and “ ” as " in the
 * document and in the check's own text, so either way of typing passes.
 */
export function asTyped(s: string): string {
  return s.replace(/[\u2018\u2019\u201A\u201B]/g, "'").replace(/[\u201C\u201D\u201E\u201F]/g, '"');
}

/** A part's XML with its curly quotes (characters or references) written as entities of the plain ones. */
export function typedXml(xml: string): string {
  return xml
    .replace(/[\u2018\u2019\u201A\u201B]|&#(?:821[6-9]|x201[89ab]);/gi, '&apos;')
    .replace(/[\u201C\u201D\u201E\u201F]|&#(?:822[0-3]|x201[c-f]);/gi, '&quot;');
}

/** Keys of a check that name files: kept as written. */
const PATH_KEYS = new Set(['file', 'path', 'image', 'from']);

/** Every string of a check read as typed, but the paths it names. */
export function typedStrings<T>(value: T, key?: string): T {
  if (typeof value === 'string')
    return (key !== undefined && PATH_KEYS.has(key) ? value : asTyped(value)) as T;
  if (Array.isArray(value)) return value.map((v) => typedStrings(v)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typedStrings(v, k)])) as T;
  return value;
}

/**
 * Straight quotes as LibreOffice's AutoCorrect leaves them once typed: an apostrophe or closing
 * quote curls right (’ ”), one opening a word after a space or bracket curls left (‘ “).
 */
export function curlQuotes(s: string): string {
  return s
    .replace(/(^|[\s([{\u2014\u2013-])'/g, '$1\u2018')
    .replace(/'/g, '\u2019')
    .replace(/(^|[\s([{\u2014\u2013-])"/g, '$1\u201C')
    .replace(/"/g, '\u201D');
}

/**
 * The edits with every text they type curled (`curlEach` maps one edit, curling its typed strings
 * with the `curl` it is handed), or undefined when no text held a quote: no alternative then.
 */
export function curledEdits<E>(
  edits: E[],
  curlEach: (edit: E, curl: (text: string) => string) => E,
): E[] | undefined {
  let changed = false;
  const curl = (text: string) => {
    const c = curlQuotes(text);
    if (c !== text) changed = true;
    return c;
  };
  const out = edits.map((e) => curlEach(e, curl));
  return changed ? out : undefined;
}
