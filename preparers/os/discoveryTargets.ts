import { basename, type DiscoveryContext, distinctTokens, textOf } from '../discovery.ts';

/** Plain files the prepare nodes wrote (this app's `entries`), by path. */
function preparedFiles(docs: unknown[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const doc of docs) {
    const entries = (doc as { entries?: { path?: unknown; content?: unknown }[] } | undefined)?.entries;
    if (!Array.isArray(entries)) continue;
    for (const e of entries)
      if (typeof e.path === 'string') out.set(e.path, typeof e.content === 'string' ? e.content : undefined);
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Files gathered from elsewhere (copied, moved, packed) are the ones the agent found, as is a
 * folder layout a memo or mail names; what a text file gains (a host, an address) it had to find;
 * the file a link points at.
 */
export function osTargets(check: Record<string, unknown>, ctx: DiscoveryContext): string[] {
  const out: string[] = [];
  const files = preparedFiles(ctx.docs);
  const kind = check.kind;
  if ((kind === 'os.tree' || kind === 'os.archive_contains') && typeof check.path === 'string') {
    const entries = textOf(check.entries);
    const layout = entries.every((e) => e.endsWith('/'));
    for (const entry of entries) {
      const full = kind === 'os.tree' ? `${check.path}/${entry}` : undefined;
      const name = basename(entry);
      for (const path of files.keys()) if (basename(path) === name && path !== full) out.push(name);
      if (layout && name.length >= 4 && new RegExp(`\\b${escapeRe(name)}\\b`, 'i').test(ctx.docsText))
        out.push(name);
    }
  }
  // A link points at the file the agent picked (the current one of several versions).
  if (kind === 'os.symlink_to' && typeof check.to === 'string') out.push(basename(check.to));
  if (kind === 'os.content_equals' && typeof check.path === 'string' && typeof check.content === 'string') {
    const copyOf = [...files].find(([path, content]) => path !== check.path && content === check.content);
    if (copyOf) out.push(basename(copyOf[0]));
    else {
      const before = new Set(distinctTokens(files.get(check.path) ?? ''));
      for (const t of distinctTokens(check.content)) if (!before.has(t)) out.push(t);
    }
  }
  return out;
}
