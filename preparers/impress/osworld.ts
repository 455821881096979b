import { z } from 'zod';
import { gold, type OsworldMapper, unmapped } from '../osworld.ts';

const docFile = z.object({ file: z.string() });
const fontFields = z.object({ font: z.string().optional(), size: z.number().optional() });

/**
 * compare_pptx_files walks every slide: slide count, shape count, each text shape's text, paragraph
 * levels, runs with bold/italic/colour/underline, notes, background colours. examine_shape: false (as
 * in OSWorld's own Impress tasks) leaves shape geometry out, which no check here tests. A deck saved
 * by LibreOffice — the state an agent leaves — writes font names, sizes, alignment and bullets
 * explicitly where the gold inherits them from the master, so the metric scores the oracle's own
 * deck 0 after a real save (tests/integration/osworldMetrics.test.ts) unless those are not examined.
 */
const DECK_OPTIONS = {
  examine_shape: false,
  examine_alignment: false,
  examine_font_name: false,
  examine_font_size: false,
  examine_bullets: false,
};

const impressDeck: OsworldMapper = (check) => ({
  ok: true,
  shape: 'gold',
  comparisons: [gold(docFile.parse(check).file, 'compare_pptx_files', DECK_OPTIONS)],
});

/** Impress checks → compare_pptx_files against the gold deck. */
export const impressOsworld: Record<string, OsworldMapper> = {
  'impress.slide_count': impressDeck,
  'impress.slide_title': impressDeck,
  'impress.slide_body': impressDeck,
  'impress.notes': impressDeck,
  'impress.order': impressDeck,
  // Bold, italic and colour are still examined; a font name or size is not (see DECK_OPTIONS).
  'impress.font': (check) =>
    fontFields.parse(check).font !== undefined || fontFields.parse(check).size !== undefined
      ? unmapped(
          'compare_pptx_files cannot compare font names or sizes with gold once LibreOffice has saved the deck (it writes what the gold inherits)',
        )
      : impressDeck(check),
  'impress.image_present': () =>
    unmapped(
      'compare_pptx_files never reads a shape type, so a picture is not told apart from any other shape',
    ),
  'impress.picture': () => unmapped("compare_pptx_files never reads an embedded image's pixel size"),
  // compare_pptx_files compares each slide's background colour (examine_background_color).
  'impress.background': impressDeck,
  'impress.hidden': () => unmapped('compare_pptx_files never reads whether a slide is hidden (show="0")'),
  'impress.transition': () =>
    unmapped(
      'check_transition opens ppt/slides/slide<N>.xml by part name, which need not be the Nth slide in presentation order',
    ),
  'impress.slide_size': () =>
    unmapped('check_slide_orientation_Portrait tests portrait only; this check reads the size in inches'),
  'impress.shape_box': () =>
    unmapped(
      'compare_pptx_files examines exact geometry of every shape (or none); this check bounds one object',
    ),
  'impress.pdf': () => unmapped('no OSWorld metric counts the pages of an exported PDF'),
  'impress.table': () =>
    unmapped('compare_pptx_files compares table dimensions and run formatting, not the cell text'),
};
