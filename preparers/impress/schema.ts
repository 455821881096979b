import { z } from 'zod';

const file = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.pptx$/i, 'a home-relative path ending in .pptx, without ..')
  .describe('Home-relative path of the .pptx file, e.g. "Documents/pitch.pptx".');

const slide = z.number().int().min(1).describe('1-based slide number in presentation order.');
const color = z
  .string()
  .regex(/^[0-9A-Fa-f]{6}$/, 'six hex digits, no #')
  .describe('Colour as six hex digits without #, e.g. "1F4E79".');

export const LAYOUTS = ['title', 'title_content', 'section', 'two_content', 'blank'] as const;
export const layout = z
  .enum(LAYOUTS)
  .describe(
    'Slide layout: title (title + subtitle), title_content (title + bullets), section (section header, LibreOffice: Title Only), two_content (title + two bullet columns), blank.',
  );
export type Layout = z.infer<typeof layout>;

export const bulletSchema = z.union([
  z.string().min(1),
  z.strictObject({
    text: z.string().min(1),
    level: z.number().int().min(0).max(4).default(0).describe('Indent level, 0 = top level.'),
  }),
]);
export type Bullet = z.infer<typeof bulletSchema>;
const bullets = z.array(bulletSchema).describe('Body paragraphs (a string is a level-0 bullet).');

export const fontSchema = z
  .strictObject({
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    size: z.number().min(6).max(120).optional().describe('Size in points.'),
    font: z.string().min(1).max(64).optional().describe('Font family, e.g. "Liberation Sans".'),
    color: color.optional(),
  })
  .describe('Character formatting.');
export type FontSpec = z.infer<typeof fontSchema>;

const box = {
  x: z.number().min(0).max(13).describe('Left edge in inches (slide is 10 × 5.625 in).'),
  y: z.number().min(0).max(7.5).describe('Top edge in inches.'),
  w: z.number().positive().max(13).describe('Width in inches.'),
  h: z.number().positive().max(7.5).describe('Height in inches.'),
};

export const imageSchema = z
  .strictObject({
    ...box,
    pixels: z
      .strictObject({
        width: z.number().int().min(1).max(512).default(64),
        height: z.number().int().min(1).max(512).default(48),
      })
      .default({ width: 64, height: 48 })
      .describe('Size of the generated PNG in pixels.'),
    color: color.default('4472C4').describe('Main colour of the generated picture.'),
    seed: z.number().int().min(0).default(1).describe('Seed of the generated pattern.'),
    name: z.string().min(1).max(64).default('Picture').describe('Shape name (alt text).'),
  })
  .describe('A generated PNG picture (a deterministic pattern).');
export type ImageSpec = z.infer<typeof imageSchema>;

export const tableSchema = z
  .strictObject({
    ...box,
    rows: z.array(z.array(z.string())).min(1).describe('Rows of cell texts; the first row is the header.'),
  })
  .describe('A table.');
export type TableSpec = z.infer<typeof tableSchema>;

export const slideSchema = z
  .strictObject({
    layout: layout.default('title_content'),
    title: z.string().optional().describe('Slide title (the subtitle layout uses body as subtitle).'),
    body: bullets.default([]),
    right: bullets.default([]).describe('Second column bullets (two_content only).'),
    notes: z.string().optional().describe('Speaker notes.'),
    images: z.array(imageSchema).default([]),
    tables: z.array(tableSchema).default([]),
    titleFont: fontSchema.optional(),
    bodyFont: fontSchema.optional(),
    hidden: z.boolean().optional().describe('Hidden from the slide show (kept in the file).'),
  })
  .describe('One slide.');
export type SlideSpec = z.infer<typeof slideSchema>;

export const docSchema = z
  .strictObject({ slides: z.array(slideSchema).min(1).max(200) })
  .describe('An Impress (.pptx) presentation, 16:9.');
export type ImpressDoc = z.infer<typeof docSchema>;

const target = z.enum(['title', 'body']).describe('Which placeholder: the title or the body (bullets).');

/** Slide transitions of the PresentationML namespace (LibreOffice writes these as plain p: elements). */
export const TRANSITIONS = ['fade', 'push', 'wipe', 'cover', 'split', 'dissolve'] as const;
const effect = z
  .enum(TRANSITIONS)
  .describe(
    'Transition effect, by its PresentationML element name (fade, push, wipe, cover, split, dissolve).',
  );

/** Objects a shape check or move can address on a slide. */
export const SHAPE_KINDS = ['picture', 'table', 'title', 'body'] as const;
const shapeRef = {
  shape: z.enum(SHAPE_KINDS).describe('Which object: a picture, a table, or the title/body placeholder.'),
  nth: z.number().int().min(1).default(1).describe('1-based index among the slide objects of that kind.'),
};

const pdfPath = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.pdf$/i, 'a home-relative path ending in .pdf, without ..')
  .describe('Home-relative path of the exported PDF, e.g. "Documents/handouts/deck.pdf".');

const picturePath = z
  .string()
  .min(1)
  .regex(
    /^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.(png|jpe?g)$/i,
    'a home-relative path ending in .png, .jpg or .jpeg, without ..',
  );

const range = z
  .strictObject({ min: z.number().optional(), max: z.number().optional() })
  .describe('Inclusive bounds in inches; either may be omitted.');

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({
      op: z.literal('impress.add_slide'),
      file,
      position: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('1-based position of the new slide; default last.'),
      layout: layout.default('title_content'),
      title: z.string().min(1),
      bullets: bullets.default([]),
      notes: z.string().optional(),
    })
    .describe('Insert a new slide with a title and bullets.'),
  z
    .strictObject({ op: z.literal('impress.delete_slide'), file, slide })
    .describe('Delete a slide and its notes.'),
  z
    .strictObject({
      op: z.literal('impress.move_slide'),
      file,
      slide: slide.describe('1-based number of the slide to move.'),
      to: z.number().int().min(1).describe('Its 1-based position afterwards.'),
    })
    .describe('Move a slide to another position.'),
  z.strictObject({ op: z.literal('impress.set_title'), file, slide, text: z.string().min(1) }),
  z.strictObject({ op: z.literal('impress.set_body'), file, slide, bullets: bullets.min(1) }),
  z.strictObject({ op: z.literal('impress.set_notes'), file, slide, text: z.string().min(1) }),
  z
    .strictObject({ op: z.literal('impress.set_font'), file, slide, target, ...fontSchema.shape })
    .describe("Set the character formatting of all text of a slide's title or body."),
  z.strictObject({ op: z.literal('impress.add_image'), file, slide, image: imageSchema }),
  z.strictObject({ op: z.literal('impress.add_table'), file, slide, table: tableSchema }),
  z
    .strictObject({
      op: z.literal('impress.insert_picture'),
      file,
      slide,
      from: picturePath.describe('The home file inserted, as it is at that point of the edits.'),
      x: box.x.optional().describe('Left edge in inches; default centred.'),
      y: box.y.optional().describe('Top edge in inches; default centred.'),
      w: box.w.optional().describe('Width in inches; default its size at 96 dpi, shrunk to fit the slide.'),
      h: box.h.optional().describe('Height in inches; default in proportion to w.'),
      name: z.string().min(1).max(64).optional().describe('Shape name (alt text); default the file name.'),
    })
    .describe('Insert > Image: a PNG or JPEG file from the home folder, embedded in the slide as it is.'),
  z
    .strictObject({
      op: z.literal('impress.set_font_all'),
      file,
      target: z.enum(['title', 'body', 'all']),
      ...fontSchema.shape,
    })
    .describe('Select-all formatting: the titles and/or bodies of every slide.'),
  z
    .strictObject({ op: z.literal('impress.set_layout'), file, slide, layout })
    .describe("Switch the slide's layout (its placeholders keep their content)."),
  z
    .strictObject({ op: z.literal('impress.duplicate_slide'), file, slide })
    .describe('Duplicate a slide (with its notes); the copy follows the original.'),
  z
    .strictObject({
      op: z.literal('impress.hide_slide'),
      file,
      slide,
      hidden: z.boolean().default(true).describe('false shows a hidden slide again.'),
    })
    .describe('Hide a slide from the slide show (it stays in the file).'),
  z
    .strictObject({
      op: z.literal('impress.set_background'),
      file,
      slide: slide.optional().describe('Omit to colour every slide.'),
      color,
    })
    .describe("A solid background colour on a slide's own background."),
  z
    .strictObject({
      op: z.literal('impress.set_transition'),
      file,
      slide: slide.optional().describe('Omit to give every slide the transition.'),
      effect: effect.or(z.literal('none')),
    })
    .describe('The transition shown when the slide appears.'),
  z
    .strictObject({
      op: z.literal('impress.set_slide_size'),
      file,
      width: z.number().min(1).max(56).describe('Slide width in inches.'),
      height: z.number().min(1).max(56).describe('Slide height in inches.'),
    })
    .describe('Page size of every slide (objects keep their positions).'),
  z
    .strictObject({
      op: z.literal('impress.move_shape'),
      file,
      slide,
      ...shapeRef,
      x: z.number().min(0).max(56).optional().describe('New left edge, inches.'),
      y: z.number().min(0).max(56).optional().describe('New top edge, inches.'),
      w: z.number().positive().max(56).optional().describe('New width, inches.'),
      h: z.number().positive().max(56).optional().describe('New height, inches.'),
    })
    .describe('Move and/or resize one object of a slide.'),
  z
    .strictObject({ op: z.literal('impress.export_pdf'), file, to: pdfPath })
    .describe(
      'Export the deck as PDF (one page per slide that is not hidden), as File > Export as PDF does.',
    ),
]);
export type ImpressEdit = z.infer<typeof editSchema>;

const cell = z.strictObject({
  row: z.number().int().min(1),
  col: z.number().int().min(1),
  text: z.string().describe('Expected text (trimmed, exact).'),
});

export const checkSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('impress.slide_count'),
    file,
    count: z.number().int().min(0).optional(),
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
  }),
  z
    .strictObject({
      kind: z.literal('impress.slide_title'),
      file,
      slide: slide.optional().describe('Slide to look at; omit to accept any slide.'),
      text: z.string().min(1),
      exact: z
        .boolean()
        .default(false)
        .describe('Title must equal the text (trimmed) instead of containing it.'),
    })
    .describe('A slide title equals/contains the text.'),
  z
    .strictObject({
      kind: z.literal('impress.slide_body'),
      file,
      slide,
      bullets: z.array(z.string().min(1)).min(1).describe('Each must be contained in a body paragraph.'),
      exact: z.boolean().default(false).describe('Body paragraphs must equal exactly these, in order.'),
      figures: z
        .boolean()
        .default(false)
        .describe(
          'Figures in the bullets may be written any way a person writes them ("12,480", "12480", "£1,200.50", "1200.5"): where the wording does not fix their format.',
        ),
    })
    .describe("The slide's body placeholders hold these bullets."),
  z
    .strictObject({
      kind: z.literal('impress.notes'),
      file,
      slide,
      text: z.string().min(1),
      exact: z
        .boolean()
        .default(false)
        .describe('Notes must equal the text (trimmed) instead of containing it.'),
    })
    .describe('Notes contain (or equal) the text.'),
  z
    .strictObject({ kind: z.literal('impress.order'), file, titles: z.array(z.string().min(1)).min(2) })
    .describe('Slides titled with these texts (contains) appear in this order.'),
  z
    .strictObject({
      kind: z.literal('impress.image_present'),
      file,
      slide: slide.optional().describe('Omit to count pictures on all slides.'),
      min: z.number().int().min(0).default(1),
      max: z.number().int().min(0).optional(),
    })
    .describe('Number of pictures.'),
  z
    .strictObject({
      kind: z.literal('impress.picture'),
      file,
      slide,
      width: z.number().int().min(1).describe('Pixel width of the embedded image.'),
      height: z.number().int().min(1).describe('Pixel height of the embedded image.'),
    })
    .describe(
      'A picture on the slide embeds a PNG or JPEG of exactly width × height pixels (a resized photo, not the original).',
    ),
  z
    .strictObject({
      kind: z.literal('impress.table'),
      file,
      slide,
      rows: z.number().int().min(1).optional(),
      cols: z.number().int().min(1).optional(),
      cells: z.array(cell).default([]),
    })
    .describe('A table on the slide has this shape and cell texts.'),
  z
    .strictObject({ kind: z.literal('impress.font'), file, slide, target, ...fontSchema.shape })
    .describe("Every text run of the slide's title/body has these properties (inheritance resolved)."),
  z
    .strictObject({ kind: z.literal('impress.layout'), file, slide, layout })
    .describe(
      "The slide uses this layout: its layout part's name, LibreOffice's name for it (Title Slide, Title, Content, Title, 2 Content, Title Only = section, Blank Slide) or its OOXML type.",
    ),
  z
    .strictObject({ kind: z.literal('impress.hidden'), file, slide, hidden: z.boolean().default(true) })
    .describe('The slide is hidden from the slide show (or, with hidden: false, shown).'),
  z
    .strictObject({ kind: z.literal('impress.background'), file, slide, color })
    .describe(
      "The slide's background is this solid colour (the slide's own, else its layout's, else its master's).",
    ),
  z
    .strictObject({
      kind: z.literal('impress.transition'),
      file,
      slide,
      effect: effect.or(z.literal('none')),
    })
    .describe('The slide appears with this transition effect (none: no effect).'),
  z
    .strictObject({
      kind: z.literal('impress.slide_size'),
      file,
      width: z.number().positive().optional().describe('Width in inches.'),
      height: z.number().positive().optional().describe('Height in inches.'),
      orientation: z.enum(['portrait', 'landscape']).optional(),
      tolerance: z.number().min(0).default(0.05).describe('Allowed difference in inches.'),
    })
    .describe('The slide size (and/or orientation) of the deck.'),
  z
    .strictObject({
      kind: z.literal('impress.shape_box'),
      file,
      slide,
      ...shapeRef,
      x: range.optional().describe('Left edge.'),
      y: range.optional().describe('Top edge.'),
      w: range.optional().describe('Width.'),
      h: range.optional().describe('Height.'),
      right: range.optional().describe('Right edge (x + w).'),
      bottom: range.optional().describe('Bottom edge (y + h).'),
    })
    .describe("An object's position and size on the slide lie within these bounds (inches)."),
  z
    .strictObject({
      kind: z.literal('impress.pdf'),
      path: pdfPath,
      pages: z.number().int().min(1).optional().describe('Exact number of pages.'),
    })
    .describe('A PDF file exists at the path (a real PDF, not a renamed deck) with this many pages.'),
  z
    .strictObject({
      kind: z.literal('impress.unchanged'),
      file,
      count: z.number().int().min(0).optional().describe('Exact number of slides, when given.'),
      slides: z
        .array(
          z.strictObject({
            slide,
            title: z.string().optional(),
            body: z.string().optional(),
            notes: z.string().optional(),
            pictures: z.number().int().min(0).optional(),
            tables: z.number().int().min(0).optional(),
            titleFont: z.string().optional(),
            bodyFont: z.string().optional(),
            hidden: z.boolean().optional(),
            background: z.string().optional(),
            transition: z.string().optional(),
          }),
        )
        .describe('Slides (1-based position) and the fields of each that must be exactly as given.'),
    })
    .describe('Invariant: nothing in the deck changed outside the edit region.'),
]);
export type ImpressCheck = z.infer<typeof checkSchema>;
