import type { DiscoveryContext } from '../discovery.ts';

/** Every bookmark the prepared profiles hold, anywhere in their trees: its title by URL. */
function bookmarkTitles(docs: unknown[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const n of nodes as { title?: unknown; url?: unknown; children?: unknown }[]) {
      if (typeof n?.url === 'string' && typeof n.title === 'string') out.set(n.url, n.title);
      walk(n?.children);
    }
  };
  for (const doc of docs) {
    const bookmarks = (doc as { bookmarks?: { bar?: unknown; other?: unknown } } | undefined)?.bookmarks;
    walk(bookmarks?.bar);
    walk(bookmarks?.other);
  }
  return out;
}

/**
 * A bookmark kept by its address is known by the title the page gives it; a bookmark removed is
 * known by its address and by the title it had (the agent finds which one the reason points at);
 * a site cleared from the history by its host.
 */
export function chromiumTargets(check: Record<string, unknown>, ctx: DiscoveryContext): string[] {
  const out: string[] = [];
  if (check.kind === 'chromium.bookmark' && check.type !== 'folder' && typeof check.title === 'string')
    out.push(check.title);
  if (check.kind === 'chromium.no_bookmark') {
    if (typeof check.title === 'string') out.push(check.title);
    if (typeof check.url === 'string') {
      out.push(check.url);
      const title = bookmarkTitles(ctx.docs).get(check.url);
      if (title) out.push(title);
    }
  }
  if (check.kind === 'chromium.history' && check.present === false && typeof check.site === 'string')
    out.push(check.site);
  return out;
}
