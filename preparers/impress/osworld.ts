import { z } from 'zod';
import { gold, type OsworldMapper, unmapped } from '../osworld.ts';

const docFile = z.object({ file: z.string() });

/**
 * compare_pptx_files walks every slide: slide count, shape count, each text shape's text, paragraph
 * levels, runs with font name/size/bold/italic/colour/underline, alignment, notes. examine_shape:
 * false (as in OSWorld's own Impress tasks) leaves shape geometry out, which no check here tests.
 */
const impressDeck: OsworldMapper = (check) => ({
  ok: true,
  app: 'gold',
  comparisons: [gold(docFile.parse(check).file, 'impress', 'compare_pptx_files', { examine_shape: false })],
});

/** Impress checks → compare_pptx_files against the gold deck. */
export const impressOsworld: Record<string, OsworldMapper> = {
  'impress.slide_count': impressDeck,
  'impress.slide_title': impressDeck,
  'impress.slide_body': impressDeck,
  'impress.notes': impressDeck,
  'impress.order': impressDeck,
  'impress.font': impressDeck,
  'impress.image_present': () =>
    unmapped(
      'compare_pptx_files never reads a shape type, so a picture is not told apart from any other shape',
    ),
  'impress.table': () =>
    unmapped('compare_pptx_files compares table dimensions and run formatting, not the cell text'),
};
