import { type DiscoveryContext, type Locate, located } from '../discovery.ts';

const LOCATORS: Record<string, Record<string, Locate>> = {
  'impress.slide_title': { text: 'whole' },
  'impress.slide_body': { bullets: 'whole' },
  'impress.notes': { text: 'whole' },
  'impress.background': { color: 'whole' },
};

/** The titles of the decks the task prepared, slide by slide. */
function deckTitles(docs: unknown[]): string[][] {
  const out: string[][] = [];
  for (const doc of docs) {
    const slides = (doc as { slides?: { title?: unknown }[] } | undefined)?.slides;
    if (Array.isArray(slides)) out.push(slides.map((s) => (typeof s?.title === 'string' ? s.title : '')));
  }
  return out;
}

/**
 * A slide's title, its bullets, its notes; and the slide a check leaves out: a deck whose order
 * no longer lists a title it held has lost that slide, the one the agent had to find.
 */
export function impressTargets(check: Record<string, unknown>, ctx: DiscoveryContext): string[] {
  const out = located(check, LOCATORS);
  if (check.kind === 'impress.order' && Array.isArray(check.titles)) {
    const kept = new Set(check.titles.filter((t): t is string => typeof t === 'string'));
    // Only a deck this order describes: every title it keeps is one of the deck's.
    for (const titles of deckTitles(ctx.docs))
      if ([...kept].every((t) => titles.includes(t)))
        for (const t of titles) if (t && !kept.has(t)) out.push(t);
  }
  return out;
}
