/**
 * Metric-compatible font families. LibreOffice substitutes them for each other when it saves
 * OOXML (Impress writes "Times New Roman" for "Liberation Serif"), and a user sees the same
 * layout either way, so font checks treat each group as one family.
 */
const GROUPS = [
  ['liberation serif', 'times new roman', 'tinos'],
  ['liberation sans', 'arial', 'arimo', 'helvetica'],
  ['liberation mono', 'courier new', 'cousine'],
  ['carlito', 'calibri'],
  ['caladea', 'cambria'],
];

function family(name: string): string {
  const n = name.trim().toLowerCase();
  return GROUPS.find((g) => g.includes(n))?.[0] ?? n;
}

export function sameFont(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return family(a) === family(b);
}

/** Run formatting as a reader sees it after styles are resolved (Writer runs, Impress runs). */
export interface RunLook {
  bold: boolean;
  italic: boolean;
  underline?: boolean;
  size?: number;
  font?: string;
  color?: string;
}

/** The properties a check asks of a run; any left out are not compared. */
export type WantedLook = Partial<RunLook>;

/** Names of the wanted properties a run does not show (sizes within 0.01 pt, fonts by family). */
export function formatMismatches(want: WantedLook, got: RunLook): string[] {
  const bad: string[] = [];
  if (want.bold !== undefined && want.bold !== got.bold) bad.push('bold');
  if (want.italic !== undefined && want.italic !== got.italic) bad.push('italic');
  if (want.underline !== undefined && want.underline !== got.underline) bad.push('underline');
  if (want.size !== undefined && (got.size === undefined || Math.abs(want.size - got.size) > 0.01))
    bad.push('size');
  if (want.font !== undefined && !sameFont(want.font, got.font)) bad.push('font');
  if (want.color !== undefined && want.color.toUpperCase() !== got.color) bad.push('color');
  return bad;
}
