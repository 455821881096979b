/**
 * What a check points at, for discovery (a level where the instruction describes its target and
 * the agent finds it): each app says, per check kind, which strings locate what the task acts on —
 * not what the agent writes. These are the shapes they use.
 */

/** The task's prepared documents, for apps whose targets depend on what the files already hold. */
export interface DiscoveryContext {
  docs: unknown[];
  /** Every string of the documents, joined. */
  docsText: string;
}

/** A field that locates: the whole string, the distinctive tokens in it, or a path's file name. */
export type Locate = 'whole' | 'tokens' | 'basename';

export function textOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) textOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) textOf(x, out);
  return out;
}

export const basename = (path: string) => path.replace(/\/+$/, '').split('/').pop() ?? path;

/** Tokens that identify a value on their own: a host, an address, a file name, an id. */
const DISTINCT = /[\p{L}\p{N}][\p{L}\p{N}._@/-]*[\p{L}\p{N}]/gu;
export function distinctTokens(text: string): string[] {
  return (text.match(DISTINCT) ?? []).filter((t) => t.length >= 5 && /[\p{N}._@-]/u.test(t));
}

/** The strings of a check's locating fields, by a table of kind → field → how. */
export function located(
  check: Record<string, unknown>,
  table: Record<string, Record<string, Locate>>,
): string[] {
  const out: string[] = [];
  for (const [field, how] of Object.entries(table[String(check.kind)] ?? {}))
    for (const s of textOf(check[field])) {
      if (how === 'whole') out.push(s);
      else if (how === 'basename') out.push(basename(s));
      else out.push(...distinctTokens(s));
    }
  return out;
}
