/**
 * The Wilson score interval for a pass rate: unlike the normal approximation it stays inside [0, 1]
 * and is honest for a handful of attempts. `successes` may be fractional (success is 0..1).
 */
export function wilsonInterval(successes: number, attempts: number, z = 1.96): { low: number; high: number } {
  if (attempts <= 0) return { low: 0, high: 1 };
  const p = successes / attempts;
  const z2 = z * z;
  const denom = 1 + z2 / attempts;
  const centre = (p + z2 / (2 * attempts)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / attempts + z2 / (4 * attempts * attempts))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
