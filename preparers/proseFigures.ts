/**
 * Figures in prose, however a person writes them: a currency sign, thousands separators, trailing
 * zeros or none. Any app's text check may declare this freedom; the checker's core has the same.
 */

/** A number as prose writes it: digits with optional thousands commas and decimals (signs and symbols around it are free). */
export const FIGURE_PATTERN = String.raw`(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?`;
const FIGURE = new RegExp(FIGURE_PATTERN, 'g');

/** Whether the text states `figure`: "£15,917.90", "15917.9" and "15,917.90 GBP" all state 15917.9. */
export function mentionsFigure(text: string, figure: number): boolean {
  for (const m of text.matchAll(FIGURE)) {
    const v = Number(m[0].replace(/,/g, ''));
    if (Math.abs(v - figure) <= 1e-9 * Math.max(1, Math.abs(figure))) return true;
  }
  return false;
}

/** A figure in prose with the currency sign before it, if any. */
const MONEY = /(?<![\w.,])[£$€]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?/g;

/** Figures written one way: no currency sign, no thousands separators, no trailing zeros. */
export function plainFigures(text: string): string {
  return text.replace(MONEY, (_, whole: string, decimals: string | undefined) => {
    const d = (decimals ?? '').replace(/0+$/, '');
    return `${whole.replace(/,/g, '')}${d ? `.${d}` : ''}`;
  });
}

/**
 * Whether a message body contains the text, however its figures are written (a declared freedom:
 * "the total is £15,917.9" says "the total is 15917.90").
 */
export function containsProse(body: string, text: string): boolean {
  if (body.includes(text)) return true;
  const b = plainFigures(body);
  const t = plainFigures(text);
  if (t === '') return false;
  // A figure at either end of the text must not run on into more digits (15917.9 is not 15917.91).
  for (let i = b.indexOf(t); i >= 0; i = b.indexOf(t, i + 1)) {
    if (/^\d/.test(t) && /[\d.,]$/.test(b.slice(0, i))) continue;
    if (/\d$/.test(t) && /^(\d|\.\d)/.test(b.slice(i + t.length))) continue;
    return true;
  }
  return false;
}
