// Number formatting shared by the dashboard (browser) and `forge costs` (CLI), so both print the same text.

const grouped = (digits) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const usdBig = grouped(2);
const usdSmall = grouped(4);
const integer = grouped(0);
const oneDecimal = grouped(1);

/** US dollars: cents from $1 up, four decimals below (a task costs fractions of a cent to a few cents). */
export function formatUsd(value) {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  const text = abs >= 1 || abs === 0 ? usdBig.format(abs) : usdSmall.format(abs);
  return `${value < 0 ? '-' : ''}$${text}`;
}

export function formatInt(value) {
  if (value === null || value === undefined) return '—';
  return integer.format(Math.round(value));
}

/** A 0..1 ratio as a percentage with one decimal. */
export function formatPercent(value) {
  if (value === null || value === undefined) return '—';
  return `${oneDecimal.format(value * 100)}%`;
}
