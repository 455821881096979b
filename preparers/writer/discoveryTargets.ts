import { type Locate, located } from '../discovery.ts';

const LOCATORS: Record<string, Record<string, Locate>> = {
  'writer.indent': { paragraph: 'whole' },
  'writer.heading': { paragraph: 'whole' },
  'writer.alignment': { paragraph: 'whole' },
  'writer.line_spacing': { paragraph: 'whole' },
  'writer.page_break': { paragraph: 'whole' },
  'writer.list': { paragraphs: 'whole' },
  'writer.comment': { anchor: 'whole' },
  'writer.run_format': { text: 'whole' },
  'writer.text_absent': { text: 'whole' },
  'writer.text_present': { text: 'tokens' },
  'writer.order': { paragraphs: 'whole' },
};

/** The paragraph, phrase or anchor a check locates; a table row is known by its first cell. */
export function writerTargets(check: Record<string, unknown>): string[] {
  const out = located(check, LOCATORS);
  // What the rest of the row holds is the agent's to type.
  if (check.kind === 'writer.table' && Array.isArray(check.cells))
    for (const cell of check.cells as { row?: unknown; col?: unknown; text?: unknown }[])
      if (cell.col === 1 && typeof cell.row === 'number' && cell.row > 1 && typeof cell.text === 'string')
        out.push(cell.text);
  return out;
}
