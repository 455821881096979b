import { z } from 'zod';
import { gold, type Mapped, type MappedCheck, type OsworldMapper, unmapped } from '../osworld.ts';

const docFile = z.object({ file: z.string() });
const writerText = z.object({
  file: z.string(),
  ignoreCase: z.boolean().default(false),
  shown: z.boolean().optional(),
});

/**
 * compare_docx_files reads python-docx's `doc.paragraphs` (body level only, table cells excluded).
 * compare_docx_tables is not added for text checks: on a document whose change is not in a table it
 * scores 1 on the untouched file (it tests nothing there); text in table cells is the checker's.
 */
function writerTextComparison(check: MappedCheck, ignoreCase: boolean): Mapped {
  const { file } = docFile.parse(check);
  return {
    ok: true,
    shape: 'gold',
    comparisons: [
      // compare_docx_files defaults: ignore_blanks (whitespace runs collapsed), case-sensitive.
      gold(file, 'compare_docx_files', ignoreCase ? { ignore_case: true } : {}),
    ],
  };
}

/** Writer checks → comparisons of the saved document with its gold copy. */
export const writerOsworld: Record<string, OsworldMapper> = {
  // compare_docx_files / compare_docx_tables (docs.py) against the gold document.
  'writer.text_present': (check) => {
    const c = writerText.parse(check);
    return c.shown
      ? unmapped(
          'compare_docx_files reads the letters as typed; this check reads them as shown (Font Effects capitals)',
        )
      : writerTextComparison(check, c.ignoreCase);
  },
  'writer.text_absent': (check) => writerTextComparison(check, writerText.parse(check).ignoreCase),
  'writer.text_replaced': (check) => writerTextComparison(check, false),
  // compare_docx_files with ignore_blanks: false compares the paragraph lists one by one, and
  // delete_empty_lines drops blank ones first: the same paragraphs our count reads (non-empty, outside tables).
  'writer.paragraph_count': (check) => ({
    ok: true,
    shape: 'gold',
    comparisons: [
      gold(docFile.parse(check).file, 'compare_docx_files', {
        ignore_blanks: false,
        delete_empty_lines: true,
      }),
    ],
  }),
  // compare_docx_tables: same number of tables, same dimensions, same stripped text in every cell.
  // …which does not read where a table stands: a table placed after a paragraph is the checker's.
  'writer.table': (check) => {
    const c = check as { after?: unknown; figures?: unknown };
    if (c.after !== undefined)
      return unmapped('compare_docx_tables does not read where a table stands in the text');
    if (c.figures === true)
      return unmapped(
        'compare_docx_tables compares cell texts exactly; this check reads figures however written',
      );
    return { ok: true, shape: 'gold', comparisons: [gold(docFile.parse(check).file, 'compare_docx_tables')] };
  },
  // compare_line_spacing: compare_docx_files, then paragraph_format.line_spacing of every paragraph.
  'writer.line_spacing': (check) => ({
    ok: true,
    shape: 'gold',
    comparisons: [gold(docFile.parse(check).file, 'compare_line_spacing')],
  }),
  'writer.heading': () =>
    unmapped('no OSWorld docx metric reads paragraph styles; compare_docx_files compares text only'),
  'writer.list': () =>
    unmapped('no OSWorld docx metric reads list numbering; compare_docx_files compares text only'),
  'writer.alignment': () =>
    unmapped(
      'is_first_line_centered tests only the first paragraph for centring; no metric compares alignment with gold',
    ),
  'writer.orientation': () => unmapped('no OSWorld docx metric reads the page size or orientation'),
  'writer.header_text': () =>
    unmapped('no OSWorld docx metric reads header text (compare_docx_files reads the body only)'),
  'writer.footer_text': () =>
    unmapped('has_page_numbers_in_footers only looks for a digit; no metric compares footer text'),
  'writer.run_format': () =>
    unmapped(
      'compare_font_names wants one font in every run and check_italic_font_size_14 is task-specific; no metric compares run formatting with gold',
    ),
  'writer.order': () =>
    unmapped(
      'compare_docx_files compares the whole paragraph list with gold, not the order of named paragraphs among others',
    ),
  'writer.page_break': () => unmapped('no OSWorld docx metric reads page or section breaks'),
  'writer.page_field': () =>
    unmapped(
      'has_page_numbers_in_footers accepts any digit typed into a footer; the check requires an automatic page-number field',
    ),
  'writer.comment': () => unmapped('no OSWorld docx metric reads comments or their anchors'),
  'writer.toc': () =>
    unmapped('no OSWorld docx metric reads a table-of-contents field (python-docx skips sdt blocks)'),
  'writer.picture': () =>
    unmapped(
      "compare_docx_images compares the images of the whole document with the gold's, not which paragraph holds one",
    ),
  'writer.indent': () =>
    unmapped(
      'no OSWorld docx metric compares paragraph indentation with gold (check_tabstops_* read tab stops)',
    ),
};
