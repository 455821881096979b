import { z } from 'zod';
import { docSchema as gimpDocSchema } from '../gimp/schema.ts';

/** A home-relative .docx path, e.g. `Documents/report.docx`. */
/** What a reader sees of a body paragraph (preparers/writer/invariants.ts). */
const paragraphSnap = z.strictObject({
  text: z.string(),
  heading: z.number().int().min(0).max(9),
  align: z.string(),
  spacing: z.union([z.number(), z.string()]),
  list: z.string(),
  runs: z
    .string()
    .describe(
      'Distinct run formats "size/b/i/u/colour" (then "/s", "/superscript", "/h:yellow" when set), sorted, ";"-joined.',
    ),
  page: z.literal(true).optional().describe('The paragraph starts a new page.'),
});

const file = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.docx$/i, 'a home-relative path ending in .docx, without ..')
  .describe('Home-relative path of the .docx file, e.g. "Documents/report.docx".');

const imageFile = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.(png|jpe?g)$/i, 'a home-relative .png or .jpg path, without ..')
  .describe('Home-relative path of a PNG or JPEG image, e.g. "Pictures/roof.png".');

const color = z
  .string()
  .regex(/^[0-9A-Fa-f]{6}$/, 'six hex digits, no #')
  .describe('Text colour as six hex digits without #, e.g. "C00000".');
const fontName = z.string().min(1).max(64).describe('Font family name, e.g. "Liberation Serif".');
const size = z.number().min(4).max(96).describe('Font size in points (half points allowed, e.g. 10.5).');

/** The 16 colours of WordprocessingML character highlighting (w:highlight). */
export const HIGHLIGHT_COLOURS = {
  yellow: 'FFFF00',
  green: '00FF00',
  cyan: '00FFFF',
  magenta: 'FF00FF',
  blue: '0000FF',
  red: 'FF0000',
  darkBlue: '000080',
  darkCyan: '008080',
  darkGreen: '008000',
  darkMagenta: '800080',
  darkRed: '800000',
  darkYellow: '808000',
  darkGray: '808080',
  lightGray: 'C0C0C0',
  black: '000000',
  white: 'FFFFFF',
} as const;
export type HighlightColour = keyof typeof HIGHLIGHT_COLOURS;
const highlightColour = z.enum(Object.keys(HIGHLIGHT_COLOURS) as [HighlightColour, ...HighlightColour[]]);
const script = z
  .enum(['superscript', 'subscript', 'baseline'])
  .describe('Vertical position: superscript, subscript or baseline (normal).');

export const alignment = z.enum(['left', 'center', 'right', 'justify']).describe('Paragraph alignment.');
export type Alignment = z.infer<typeof alignment>;

const lineSpacing = z
  .number()
  .min(0.5)
  .max(4)
  .describe('Proportional line spacing as a multiple of single spacing: 1, 1.15, 1.5, 2.');

const match = z
  .string()
  .min(1)
  .describe(
    'Text that identifies the paragraph(s): every body paragraph whose text contains it ("*" alone: every paragraph).',
  );

export const runSchema = z
  .strictObject({
    text: z.string().describe('The run text.'),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    underline: z.boolean().optional(),
    size: size.optional(),
    font: fontName.optional(),
    color: color.optional(),
    strike: z.boolean().optional().describe('Strikethrough.'),
    script: script.optional(),
    highlight: highlightColour.optional().describe('Character highlighting colour.'),
  })
  .describe('A run of text sharing one character format.');

const paragraphStyle = z
  .enum(['Normal', 'Title', 'Heading1', 'Heading2', 'Heading3', 'Caption'])
  .describe('Paragraph style id (built-in styles of the generated document).');

const paragraphBlock = z
  .strictObject({
    type: z.literal('paragraph'),
    runs: z.array(runSchema).min(1).describe('The runs of the paragraph, in order.'),
    alignment: alignment.optional(),
    lineSpacing: lineSpacing.optional(),
    style: paragraphStyle.optional(),
  })
  .describe('A body paragraph.');

const headingBlock = z
  .strictObject({
    type: z.literal('heading'),
    level: z.number().int().min(1).max(3).describe('Heading level 1-3 (styles Heading 1-3).'),
    text: z.string().min(1),
  })
  .describe('A heading paragraph.');

const listBlock = z
  .strictObject({
    type: z.literal('list'),
    listType: z.enum(['bullet', 'numbered']).describe('Bulleted or numbered (1., 2., …) list.'),
    items: z.array(z.string().min(1)).min(1).describe('One paragraph per item.'),
  })
  .describe('A bulleted or numbered list.');

const tableBlock = z
  .strictObject({
    type: z.literal('table'),
    header: z.array(z.string()).min(1).optional().describe('Header row cells (repeated on each page).'),
    rows: z.array(z.array(z.string())).min(1).describe('Body rows, each an array of cell texts.'),
  })
  .describe('A table; every row is padded to the widest row.');

const pageBreakBlock = z.strictObject({ type: z.literal('page_break') }).describe('A page break.');

export const blockSchema = z.discriminatedUnion('type', [
  headingBlock,
  paragraphBlock,
  listBlock,
  tableBlock,
  pageBreakBlock,
]);
export type Block = z.infer<typeof blockSchema>;

const twips = z.number().min(0).max(5).describe('Margin in inches.');

export const docSchema = z
  .strictObject({
    blocks: z.array(blockSchema).min(1).describe('Body content in reading order.'),
    section: z
      .strictObject({
        orientation: z.enum(['portrait', 'landscape']).default('portrait'),
        margins: z
          .strictObject({ top: twips, right: twips, bottom: twips, left: twips })
          .partial()
          .optional()
          .describe('Page margins in inches (default 1).'),
        header: z.string().optional().describe('Text of the page header.'),
        footer: z.string().optional().describe('Text of the page footer.'),
      })
      .default({ orientation: 'portrait' })
      .describe('Page setup of the single section (A4).'),
    pictures: z
      .array(z.strictObject({ path: imageFile, image: gimpDocSchema }))
      .max(6)
      .optional()
      .describe(
        'Image files the task puts beside the document (e.g. Pictures/roof.jpg), for the person to insert.',
      ),
  })
  .describe('A Writer (.docx) document.');
export type WriterDoc = z.infer<typeof docSchema>;

const format = {
  bold: z.boolean().optional(),
  italic: z.boolean().optional(),
  underline: z.boolean().optional(),
  size: size.optional(),
  font: fontName.optional(),
  color: color.optional(),
  strike: z.boolean().optional().describe('Strikethrough on or off.'),
  script: script.optional(),
  highlight: z
    .union([highlightColour, z.literal('none')])
    .optional()
    .describe('Highlight colour, or "none" for no highlighting.'),
};
/** Font Effects > Case: UPPERCASE: the letters shown as capitals, the text kept as typed (w:caps). */
const caps = z.boolean().optional().describe('Show the letters in capitals (Font Effects, Case: UPPERCASE).');
/** A highlight a check may ask for: a colour, "none", or "any" (some highlight, whatever colour). */
const wantedHighlight = z
  .union([highlightColour, z.enum(['none', 'any'])])
  .optional()
  .describe('Highlight colour; "none": not highlighted (nor shaded); "any": highlighted in some colour.');
export interface RunFormat {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  size?: number;
  font?: string;
  color?: string;
  strike?: boolean;
  script?: 'superscript' | 'subscript' | 'baseline';
  highlight?: HighlightColour | 'none';
  caps?: boolean;
}

const headerOrFooter = z.enum(['header', 'footer']).describe('The page header or the page footer.');
const inches = z.number().min(0).max(6);
const signedInches = z.number().min(-3).max(6);

const tableRows = z
  .array(z.array(z.string()))
  .min(1)
  .describe('Rows of cell texts; the first row is the header.');

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({
      op: z.literal('writer.replace_text'),
      file,
      find: z.string().min(1).describe('Text to find (case-sensitive), also across run boundaries.'),
      replace: z.string().describe('Replacement text.'),
    })
    .describe('Replace every occurrence of a text in the body.'),
  z
    .strictObject({
      op: z.literal('writer.set_heading'),
      file,
      paragraph: match,
      level: z.number().int().min(1).max(3),
    })
    .describe('Give matching paragraphs the style Heading N.'),
  z
    .strictObject({
      op: z.literal('writer.set_run_format'),
      file,
      paragraph: match,
      text: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Only format this text inside the paragraph (every occurrence); default the whole paragraph.',
        ),
      ...format,
      caps,
    })
    .describe('Set character formatting of matching paragraphs (or of a text inside them).'),
  z.strictObject({ op: z.literal('writer.set_alignment'), file, paragraph: match, alignment }),
  z.strictObject({ op: z.literal('writer.set_line_spacing'), file, paragraph: match, lineSpacing }),
  z
    .strictObject({
      op: z.literal('writer.make_list'),
      file,
      paragraphs: z.array(match).min(1).describe('Each entry selects the paragraphs that become items.'),
      listType: z.enum(['bullet', 'numbered']),
    })
    .describe('Turn paragraphs into one bulleted or numbered list.'),
  z
    .strictObject({
      op: z.literal('writer.insert_table'),
      file,
      after: match.describe('The table goes after the first paragraph containing this text.'),
      rows: tableRows,
      header: z
        .enum(['bold', 'plain', 'centred'])
        .optional()
        .describe(
          "The first row's look: bold (default), plain (the dialog's Heading unticked) or bold and centred (LibreOffice's Table Heading style).",
        ),
    })
    .describe('Insert a table after a paragraph.'),
  z
    .strictObject({
      op: z.literal('writer.fill_table_cell'),
      file,
      table: z.number().int().min(1).default(1).describe('1-based index of the table in the body.'),
      row: z.number().int().min(1).describe('1-based row (row 1 is the first row, usually the header).'),
      col: z.number().int().min(1).describe('1-based column.'),
      text: z.string(),
    })
    .describe("Set a table cell's text."),
  z.strictObject({
    op: z.literal('writer.set_orientation'),
    file,
    orientation: z.enum(['portrait', 'landscape']),
  }),
  z
    .strictObject({
      op: z.literal('writer.set_margins'),
      file,
      top: twips.optional(),
      right: twips.optional(),
      bottom: twips.optional(),
      left: twips.optional(),
    })
    .describe('Format > Page Style > Page: the page margins, in inches (those not given stay).'),
  z
    .strictObject({ op: z.literal('writer.set_header'), file, text: z.string() })
    .describe('Set the page header text.'),
  z
    .strictObject({ op: z.literal('writer.set_footer'), file, text: z.string() })
    .describe('Set the page footer text.'),
  z
    .strictObject({
      op: z.literal('writer.insert_paragraph'),
      file,
      after: match
        .optional()
        .describe('Insert after the first paragraph containing this text; default at the end.'),
      text: z.string().min(1),
      style: paragraphStyle.optional(),
    })
    .describe('Insert a new paragraph.'),
  z
    .strictObject({ op: z.literal('writer.delete_paragraph'), file, paragraph: match })
    .describe('Delete every body paragraph containing the text.'),
  z
    .strictObject({
      op: z.literal('writer.insert_page_break'),
      file,
      before: match.describe('The first paragraph containing this text starts a new page.'),
      form: z
        .enum(['property', 'run', 'line'])
        .default('property')
        .describe(
          'How the break is saved: property: the paragraph\'s "page break before" (Text Flow); run: a page-break run ahead of its text; line: an empty paragraph holding only the break, just before it.',
        ),
    })
    .describe('Start a paragraph on a new page (a manual page break before it).'),
  z
    .strictObject({
      op: z.literal('writer.insert_page_number'),
      file,
      where: headerOrFooter,
      prefix: z.string().default('').describe('Text before the number, e.g. "Page ".'),
      alignment: alignment.optional(),
    })
    .describe(
      'Replace the page header or footer with an automatic page-number field (after an optional prefix).',
    ),
  z
    .strictObject({
      op: z.literal('writer.add_comment'),
      file,
      paragraph: match.describe('The comment is anchored on the first paragraph containing this text.'),
      text: z.string().min(1).describe('The comment text.'),
      author: z.string().min(1).max(80).default('Reviewer'),
    })
    .describe('Attach a comment to a paragraph.'),
  z
    .strictObject({
      op: z.literal('writer.insert_toc'),
      file,
      before: match.describe('The table of contents goes before the first paragraph containing this text.'),
      title: z.string().default('Table of Contents').describe('Title paragraph of the index.'),
      levels: z.number().int().min(1).max(3).default(3).describe('Heading levels listed (1..levels).'),
    })
    .describe('Insert a table of contents (a TOC field listing the headings) as LibreOffice saves one.'),
  z
    .strictObject({
      op: z.literal('writer.set_indent'),
      file,
      paragraph: match,
      left: inches.optional().describe('Indent before the text, in inches.'),
      right: inches.optional().describe('Indent after the text (from the right margin), in inches.'),
      firstLine: signedInches
        .optional()
        .describe('First-line indent in inches (negative: a hanging indent).'),
    })
    .describe('Set paragraph indentation.'),
  z
    .strictObject({
      op: z.literal('writer.set_style_format'),
      file,
      style: paragraphStyle.describe('The paragraph style to modify.'),
      bold: format.bold,
      italic: format.italic,
      underline: format.underline,
      size: format.size,
      font: format.font,
      color: format.color,
      caps,
    })
    .describe(
      'Modify a paragraph style (Edit Style, Font and Font Effects): every paragraph in it, and in the styles based on it, shows the change where its text has no direct formatting of its own.',
    ),
  z
    .strictObject({
      op: z.literal('writer.insert_picture'),
      file,
      after: match,
      from: imageFile,
      into: z
        .boolean()
        .optional()
        .describe('In that paragraph itself, after its text, instead of a new paragraph below it.'),
    })
    .describe(
      'Insert > Image: the image file, embedded unchanged, in a new paragraph after the first paragraph containing the text.',
    ),
]);
export type WriterEdit = z.infer<typeof editSchema>;

const cellCheck = z.strictObject({
  row: z.number().int().min(1).describe('1-based row.'),
  col: z.number().int().min(1).describe('1-based column.'),
  text: z.string().describe('Expected cell text (trimmed, exact).'),
});

const countRange = {
  count: z.number().int().min(0).optional().describe('Exact number expected.'),
  min: z.number().int().min(0).optional().describe('At least this many.'),
  max: z.number().int().min(0).optional().describe('At most this many.'),
};

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('writer.text_present'),
      file,
      text: z.string().min(1),
      ignoreCase: z.boolean().default(false),
      shown: z
        .boolean()
        .optional()
        .describe('Read the text as shown: letters in capitals where Font Effects or a style says so.'),
      ...countRange,
    })
    .describe('Body text contains the text (default: at least once).'),
  z
    .strictObject({
      kind: z.literal('writer.text_absent'),
      file,
      text: z.string().min(1),
      ignoreCase: z.boolean().default(false),
    })
    .describe('Body text does not contain the text.'),
  z
    .strictObject({
      kind: z.literal('writer.text_replaced'),
      file,
      old: z.string().min(1).describe('Must no longer occur.'),
      new: z.string().min(1).describe('Must occur.'),
      count: z.number().int().min(1).optional().describe('Exact number of occurrences of `new`.'),
    })
    .describe('A text was replaced: old is absent, new is present.'),
  z
    .strictObject({
      kind: z.literal('writer.heading'),
      file,
      paragraph: match,
      level: z.number().int().min(1).max(9),
      shown: z
        .boolean()
        .optional()
        .describe('Read the text as shown: letters in capitals where Font Effects or a style says so.'),
    })
    .describe('Every paragraph containing the text has the style Heading N (resolved by style name).'),
  z
    .strictObject({
      kind: z.literal('writer.run_format'),
      file,
      text: z.string().min(1),
      ...format,
      highlight: wantedHighlight,
    })
    .describe(
      'Every run holding part of each occurrence of the text has the given properties (styles resolved).',
    ),
  z.strictObject({ kind: z.literal('writer.alignment'), file, paragraph: match, alignment }),
  z.strictObject({
    kind: z.literal('writer.line_spacing'),
    file,
    paragraph: match,
    lineSpacing,
    tolerance: z.number().min(0).default(0.02),
  }),
  z
    .strictObject({
      kind: z.literal('writer.list'),
      file,
      paragraphs: z.array(match).min(1),
      listType: z
        .enum(['bullet', 'numbered'])
        .optional()
        .describe('Required list kind; omit to accept either.'),
      ordered: z
        .boolean()
        .default(false)
        .describe('The items are consecutive paragraphs, in exactly this order (one list, nothing between).'),
      after: match
        .optional()
        .describe('The first item comes right after the (non-empty) paragraph containing this text.'),
    })
    .describe('Every listed paragraph is a list item (bulleted or numbered per numbering definitions).'),
  z
    .strictObject({
      kind: z.literal('writer.table'),
      file,
      table: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('1-based table index; default: any table may satisfy it.'),
      rows: z.number().int().min(1).optional(),
      cols: z.number().int().min(1).optional(),
      cells: z.array(cellCheck).default([]),
      after: match
        .optional()
        .describe('The table comes right after the (non-empty) body paragraph containing this text.'),
      figures: z
        .boolean()
        .optional()
        .describe(
          'A figure in a cell reads the same however it is written: "£1,234.50", "1234.5" and "1234.50" (a declared freedom).',
        ),
    })
    .describe('A table exists with this shape and cell texts.'),
  z.strictObject({
    kind: z.literal('writer.orientation'),
    file,
    orientation: z.enum(['portrait', 'landscape']),
  }),
  z
    .strictObject({ kind: z.literal('writer.header_text'), file, text: z.string().min(1) })
    .describe('A header contains the text.'),
  z
    .strictObject({ kind: z.literal('writer.footer_text'), file, text: z.string().min(1) })
    .describe('A footer contains the text.'),
  z
    .strictObject({
      kind: z.literal('writer.unchanged'),
      file,
      paragraphs: z
        .array(paragraphSnap)
        .describe('Body paragraphs (outside tables, non-empty) that must appear in this order, unchanged.'),
      count: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Exact number of non-empty body paragraphs outside tables, when given.'),
      touched: z
        .array(paragraphSnap)
        .optional()
        .describe('Paragraphs the task formats, as they must read after it (found by their text).'),
      tables: z
        .array(z.array(z.array(z.string())))
        .optional()
        .describe('Every table, cell texts exactly.'),
      maxTables: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('At most this many tables (the task adds some).'),
      cells: z
        .array(
          z.tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(0), z.string()]),
        )
        .optional()
        .describe(
          'Cells the task leaves alone in the tables it edits: [table, row, column, text], all 0-based.',
        ),
      maxCount: z.number().int().min(0).optional().describe('At most this many non-empty body paragraphs.'),
      maxComments: z.number().int().min(0).optional().describe('At most this many comments.'),
      maxPictures: z.number().int().min(0).optional().describe('At most this many pictures in the body.'),
      header: z.array(z.string()).optional(),
      footer: z.array(z.string()).optional(),
      orientation: z.enum(['portrait', 'landscape']).optional(),
    })
    .describe('Invariant: nothing in the document changed outside the edit region.'),
  z
    .strictObject({ kind: z.literal('writer.paragraph_count'), file, ...countRange })
    .describe('Number of non-empty body paragraphs (outside tables).'),
  z
    .strictObject({
      kind: z.literal('writer.order'),
      file,
      paragraphs: z.array(match).min(2).describe('Paragraphs that must follow one another in this order.'),
      last: z.boolean().default(false).describe('The last of them is the last non-empty paragraph.'),
      shown: z
        .boolean()
        .optional()
        .describe('Read the text as shown: letters in capitals where Font Effects or a style says so.'),
    })
    .describe('Non-empty body paragraphs (outside tables) follow one another in exactly this order.'),
  z
    .strictObject({
      kind: z.literal('writer.page_break'),
      file,
      paragraph: match,
      before: z.boolean().default(true).describe('true: starts a new page; false: does not.'),
    })
    .describe(
      'Every paragraph containing the text starts (or does not start) a new page: break-before, a page break ahead of its text, a page break closing the paragraph before, or a section break.',
    ),
  z
    .strictObject({
      kind: z.literal('writer.page_field'),
      file,
      where: headerOrFooter,
      field: z.enum(['PAGE', 'NUMPAGES']).default('PAGE'),
    })
    .describe('The page header or footer holds an automatic field (the page number), not typed digits.'),
  z
    .strictObject({
      kind: z.literal('writer.comment'),
      file,
      anchor: match.describe('The comment is anchored in a body paragraph containing this text.'),
      text: z.string().min(1).describe('The comment contains this text.'),
      ignoreCase: z.boolean().default(true),
    })
    .describe('A comment with the text is attached to the paragraph.'),
  z
    .strictObject({
      kind: z.literal('writer.toc'),
      file,
      entries: z.array(z.string().min(1)).min(1).describe('Entry texts, in order, exactly these.'),
      before: match.optional().describe('The index comes before the paragraph containing this text.'),
    })
    .describe('A table-of-contents field exists and lists exactly these entries in this order.'),
  z
    .strictObject({
      kind: z.literal('writer.indent'),
      file,
      paragraph: match,
      left: inches.optional(),
      firstLine: signedInches.optional().describe('Negative for a hanging indent.'),
      tolerance: z.number().min(0).default(0.05).describe('Inches.'),
    })
    .describe('Every paragraph containing the text has this indentation (styles resolved).'),
  z
    .strictObject({ kind: z.literal('writer.picture'), file, after: match, image: imageFile })
    .describe(
      'A picture embedding the image file (its very bytes) sits in the first paragraph containing the text or in a paragraph without text right after it, before the next paragraph with text.',
    ),
]);
export type WriterCheck = z.infer<typeof checkSchema>;
