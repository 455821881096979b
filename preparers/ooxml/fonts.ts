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
