/**
 * Every string inside a value (a task's context, a node's output), in order; with `scalars`,
 * numbers and booleans as text too.
 */
export function stringsOf(v: unknown, scalars = false, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (scalars && (typeof v === 'number' || typeof v === 'boolean')) out.push(String(v));
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, scalars, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, scalars, out);
  return out;
}
