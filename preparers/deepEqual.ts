/**
 * Equality of JSON values as JSON sees them: check payloads are stored with sorted keys
 * (infra/canonicalJson.ts), so a payload's key order says nothing and must not decide a verdict.
 * Numbers compare by value, arrays in order, object keys in any order; a key whose value is
 * `undefined` equals an absent key, and a non-finite number equals null (JSON writes both so).
 * The Python checker's `same_json` (preparers/checker/core.py) is the same relation.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const x = jsonScalar(a);
  const y = jsonScalar(b);
  if (x === y) return true;
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    return x.every((v, i) => jsonEqual(v, y[i]));
  }
  // Own keys only, as JSON.stringify reads them (inherited ones would be no key at all).
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const xKeys = Object.keys(xo).filter((k) => xo[k] !== undefined);
  const yCount = Object.keys(yo).filter((k) => yo[k] !== undefined).length;
  return (
    xKeys.length === yCount &&
    xKeys.every((k) => Object.hasOwn(yo, k) && yo[k] !== undefined && jsonEqual(xo[k], yo[k]))
  );
}

/** What JSON.stringify writes for a scalar in an array: NaN, ±Infinity and undefined as null. */
function jsonScalar(v: unknown): unknown {
  return v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? null : v;
}
