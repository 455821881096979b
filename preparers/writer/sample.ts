import {
  checkSchema,
  docSchema,
  editSchema,
  type WriterCheck,
  type WriterDoc,
  type WriterEdit,
} from './schema.ts';

/**
 * A typical report of about `pages` pages (headings, formatted paragraphs, lists, a table per
 * page, page breaks): the benchmark's workload and a realistic fixture for tests.
 */
export function sampleWriterDoc(pages: number): WriterDoc {
  const blocks: unknown[] = [];
  for (let i = 1; i <= pages; i++) {
    blocks.push({ type: 'heading', level: 1, text: `Chapter ${i}: Operations review` });
    for (let j = 1; j <= 3; j++) {
      blocks.push({ type: 'heading', level: 2, text: `Section ${i}.${j}` });
      blocks.push({
        type: 'paragraph',
        alignment: j === 2 ? 'justify' : 'left',
        lineSpacing: j === 3 ? 1.5 : undefined,
        runs: [
          { text: `Paragraph ${i}.${j} summarises the quarter. ` },
          { text: 'Revenue rose', bold: true },
          { text: ' while costs stayed flat; ', italic: true },
          { text: 'details follow in the table below.', size: 11, font: 'Liberation Serif' },
        ],
      });
    }
    blocks.push({
      type: 'list',
      listType: i % 2 ? 'bullet' : 'numbered',
      items: ['Hiring', 'Budget', 'Roadmap'],
    });
    blocks.push({
      type: 'table',
      header: ['Region', 'Q1', 'Q2', 'Q3'],
      rows: [
        ['North', '12', '14', '15'],
        ['South', '9', '11', '13'],
        ['West', '7', '8', '10'],
      ],
    });
    if (i < pages) blocks.push({ type: 'page_break' });
  }
  return docSchema.parse({ blocks, section: { header: 'Acme Ltd — internal', footer: 'Confidential' } });
}

/** Oracle edits (usually one) with the checks they must turn from failing to passing. */
export interface WriterCase {
  edits: WriterEdit[];
  checks: WriterCheck[];
}

/** A small document and one case per edit op, each independent of the others. */
export function writerScenario(file: string): { doc: WriterDoc; cases: WriterCase[] } {
  const doc = docSchema.parse({
    blocks: [
      { type: 'heading', level: 1, text: 'Quarterly report' },
      {
        type: 'paragraph',
        runs: [
          { text: 'Revenue grew ' },
          { text: 'strongly', bold: true, highlight: 'yellow' },
          { text: ' in Q3 for Acme.' },
        ],
      },
      { type: 'paragraph', runs: [{ text: 'Costs section intro' }] },
      { type: 'list', listType: 'bullet', items: ['alpha item', 'beta item'] },
      { type: 'paragraph', runs: [{ text: 'first step' }] },
      { type: 'paragraph', runs: [{ text: 'second step' }] },
      {
        type: 'table',
        header: ['Name', 'Qty'],
        rows: [
          ['Apples', '3'],
          ['Pears', '5'],
        ],
      },
      { type: 'page_break' },
      { type: 'paragraph', runs: [{ text: 'Delete me please' }] },
    ],
    section: { header: 'Acme Corp' },
  });
  const raw: { edit: object; checks: object[] }[] = [
    {
      edit: { op: 'writer.replace_text', find: 'Acme', replace: 'Globex' },
      checks: [
        { kind: 'writer.text_replaced', old: 'Acme', new: 'Globex', count: 1 },
        { kind: 'writer.text_absent', text: 'Acme' },
      ],
    },
    {
      edit: { op: 'writer.set_heading', paragraph: 'Costs section', level: 2 },
      checks: [{ kind: 'writer.heading', paragraph: 'Costs section', level: 2 }],
    },
    {
      edit: {
        op: 'writer.set_run_format',
        paragraph: 'Revenue grew',
        text: 'Q3',
        italic: true,
        underline: true,
        size: 14,
        font: 'Liberation Mono',
        color: 'C00000',
      },
      checks: [
        {
          kind: 'writer.run_format',
          text: 'Q3',
          italic: true,
          underline: true,
          size: 14,
          font: 'Liberation Mono',
          color: 'C00000',
        },
      ],
    },
    {
      edit: { op: 'writer.set_run_format', paragraph: 'second step', bold: true },
      checks: [{ kind: 'writer.run_format', text: 'second step', bold: true }],
    },
    {
      edit: { op: 'writer.set_alignment', paragraph: 'Revenue grew', alignment: 'center' },
      checks: [{ kind: 'writer.alignment', paragraph: 'Revenue grew', alignment: 'center' }],
    },
    {
      edit: { op: 'writer.set_line_spacing', paragraph: 'Revenue grew', lineSpacing: 1.5 },
      checks: [{ kind: 'writer.line_spacing', paragraph: 'Revenue grew', lineSpacing: 1.5 }],
    },
    {
      edit: { op: 'writer.make_list', paragraphs: ['first step', 'second step'], listType: 'numbered' },
      checks: [{ kind: 'writer.list', paragraphs: ['first step', 'second step'], listType: 'numbered' }],
    },
    {
      edit: {
        op: 'writer.insert_table',
        after: 'second step',
        rows: [
          ['A', 'B', 'C'],
          ['1', '2', '3'],
        ],
      },
      checks: [{ kind: 'writer.table', rows: 2, cols: 3, cells: [{ row: 2, col: 3, text: '3' }] }],
    },
    {
      edit: { op: 'writer.fill_table_cell', table: 1, row: 3, col: 2, text: '42' },
      checks: [{ kind: 'writer.table', table: 1, cells: [{ row: 3, col: 2, text: '42' }] }],
    },
    {
      // A figure written with the pound sign and a trailing zero reads as the plain one.
      edit: { op: 'writer.fill_table_cell', table: 1, row: 2, col: 2, text: '£1,012.50' },
      checks: [
        { kind: 'writer.table', table: 1, cells: [{ row: 2, col: 2, text: '1012.5' }], figures: true },
      ],
    },
    {
      edit: { op: 'writer.set_orientation', orientation: 'landscape' },
      checks: [{ kind: 'writer.orientation', orientation: 'landscape' }],
    },
    {
      edit: { op: 'writer.set_header', text: 'Board copy' },
      checks: [{ kind: 'writer.header_text', text: 'Board copy' }],
    },
    {
      edit: { op: 'writer.set_footer', text: 'Page footer' },
      checks: [{ kind: 'writer.footer_text', text: 'Page footer' }],
    },
    {
      edit: {
        op: 'writer.insert_paragraph',
        after: 'Quarterly',
        text: 'Inserted summary',
        style: 'Heading3',
      },
      checks: [
        { kind: 'writer.text_present', text: 'Inserted summary', count: 1 },
        { kind: 'writer.heading', paragraph: 'Inserted summary', level: 3 },
        { kind: 'writer.paragraph_count', count: 9 },
      ],
    },
    {
      edit: { op: 'writer.set_run_format', paragraph: 'first step', text: 'first', strike: true },
      checks: [{ kind: 'writer.run_format', text: 'first', strike: true }],
    },
    {
      edit: { op: 'writer.set_run_format', paragraph: 'Revenue grew', text: 'Q3', script: 'superscript' },
      checks: [{ kind: 'writer.run_format', text: 'Q3', script: 'superscript' }],
    },
    {
      edit: { op: 'writer.set_run_format', paragraph: 'Revenue grew', text: 'strongly', highlight: 'none' },
      checks: [{ kind: 'writer.run_format', text: 'strongly', highlight: 'none' }],
    },
    {
      edit: { op: 'writer.set_run_format', paragraph: 'second step', highlight: 'green' },
      checks: [
        { kind: 'writer.run_format', text: 'second step', highlight: 'green' },
        { kind: 'writer.run_format', text: 'second step', highlight: 'any' },
      ],
    },
    {
      // Font Effects > Case: UPPERCASE: shown in capitals, typed as before.
      edit: { op: 'writer.set_run_format', paragraph: 'first step', caps: true },
      checks: [
        { kind: 'writer.text_present', text: 'FIRST STEP', count: 1, shown: true },
        { kind: 'writer.order', paragraphs: ['FIRST STEP', 'second step'], shown: true },
      ],
    },
    {
      edit: { op: 'writer.set_style_format', style: 'Heading1', caps: true },
      checks: [
        { kind: 'writer.text_present', text: 'QUARTERLY REPORT', shown: true },
        { kind: 'writer.heading', paragraph: 'QUARTERLY REPORT', level: 1, shown: true },
      ],
    },
    {
      edit: { op: 'writer.insert_page_break', before: 'Costs section' },
      checks: [{ kind: 'writer.page_break', paragraph: 'Costs section' }],
    },
    {
      edit: { op: 'writer.insert_page_number', where: 'footer', prefix: 'Page ', alignment: 'center' },
      checks: [{ kind: 'writer.page_field', where: 'footer' }],
    },
    {
      edit: { op: 'writer.add_comment', paragraph: 'second step', text: 'Please check this step' },
      checks: [{ kind: 'writer.comment', anchor: 'second step', text: 'check this step' }],
    },
    {
      edit: { op: 'writer.insert_toc', before: 'Revenue grew', title: 'Contents' },
      checks: [{ kind: 'writer.toc', entries: ['Quarterly report'], before: 'Revenue grew' }],
    },
    {
      edit: { op: 'writer.set_indent', paragraph: 'Costs section', left: 1, firstLine: -0.5 },
      checks: [{ kind: 'writer.indent', paragraph: 'Costs section', left: 1, firstLine: -0.5 }],
    },
    {
      // Edit Style on Heading 1: the heading takes the look without direct formatting of its own.
      edit: { op: 'writer.set_style_format', style: 'Heading1', italic: true, color: '1F4E79' },
      checks: [{ kind: 'writer.run_format', text: 'Quarterly report', italic: true, color: '1F4E79' }],
    },
    {
      edit: { op: 'writer.insert_paragraph', after: 'second step', text: 'New lead-in' },
      checks: [
        { kind: 'writer.order', paragraphs: ['first step', 'second step', 'New lead-in'] },
        { kind: 'writer.table', after: 'New lead-in' },
      ],
    },
    {
      edit: { op: 'writer.delete_paragraph', paragraph: 'Delete me' },
      checks: [
        { kind: 'writer.text_absent', text: 'Delete me' },
        { kind: 'writer.paragraph_count', max: 7 },
      ],
    },
  ];
  return {
    doc,
    cases: raw.map((c) => ({
      edits: [editSchema.parse({ ...c.edit, file })],
      checks: c.checks.map((k) => checkSchema.parse({ ...k, file })),
    })),
  };
}
