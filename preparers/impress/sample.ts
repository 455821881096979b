import {
  checkSchema,
  docSchema,
  editSchema,
  type ImpressCheck,
  type ImpressDoc,
  type ImpressEdit,
} from './schema.ts';

/** A typical deck of `slides` slides (every layout, bullets, notes, tables, pictures): bench workload. */
export function sampleImpressDoc(slides: number): ImpressDoc {
  const layouts = ['title_content', 'two_content', 'title_content', 'section'] as const;
  return docSchema.parse({
    slides: Array.from({ length: slides }, (_, i) => {
      if (i === 0) return { layout: 'title', title: 'Quarterly business review', body: ['Operations team'] };
      const layout = layouts[i % layouts.length];
      return {
        layout,
        title: `Topic ${i}: pipeline and hiring`,
        body: ['Pipeline grew 12%', { text: 'Enterprise deals led', level: 1 }, 'Hiring on plan'],
        right: layout === 'two_content' ? ['Risks', 'Mitigations'] : [],
        notes: `Speaker notes for slide ${i + 1}.`,
        tables:
          i % 3 === 0
            ? [
                {
                  x: 0.5,
                  y: 3.6,
                  w: 5,
                  h: 1.5,
                  rows: [
                    ['KPI', 'Q1', 'Q2'],
                    ['ARR', '1.2', '1.4'],
                  ],
                },
              ]
            : [],
        images: i % 4 === 0 ? [{ x: 7, y: 3.4, w: 2.5, h: 1.8, seed: i }] : [],
        titleFont: { bold: true, size: 32 },
      };
    }),
  });
}

/** Oracle edits with the checks they must turn from failing to passing. */
export interface ImpressCase {
  edits: ImpressEdit[];
  checks: ImpressCheck[];
}

/** A six-slide deck and cases covering every edit op, each applied to the initial deck alone. */
export function impressScenario(file: string): { doc: ImpressDoc; cases: ImpressCase[] } {
  const doc = docSchema.parse({
    slides: [
      { layout: 'title', title: 'Annual Review', body: ['Prepared by Ops'], notes: 'Welcome everyone' },
      {
        layout: 'title_content',
        title: 'Agenda',
        body: ['Intro', { text: 'Details', level: 1 }, 'Wrap up'],
        titleFont: { bold: true, size: 36 },
      },
      { layout: 'two_content', title: 'Compare', body: ['Left a'], right: ['Right b'] },
      { layout: 'section', title: 'Part Two' },
      {
        layout: 'title_content',
        title: 'Numbers',
        tables: [
          {
            x: 1,
            y: 1.5,
            w: 5,
            h: 2,
            rows: [
              ['Q', 'Rev'],
              ['Q1', '10'],
            ],
          },
        ],
        images: [{ x: 7, y: 1.5, w: 2, h: 1.5 }],
      },
      { layout: 'blank' },
    ],
  });
  const raw: { edits: object[]; checks: object[] }[] = [
    {
      edits: [
        {
          op: 'impress.add_slide',
          position: 3,
          title: 'New Goals',
          bullets: ['Grow', 'Hire'],
          notes: 'Goals talk',
        },
      ],
      checks: [
        { kind: 'impress.slide_count', count: 7 },
        { kind: 'impress.slide_title', slide: 3, text: 'New Goals', exact: true },
        { kind: 'impress.slide_body', slide: 3, bullets: ['Grow', 'Hire'], exact: true },
        { kind: 'impress.notes', slide: 3, text: 'Goals talk' },
        { kind: 'impress.order', titles: ['Agenda', 'New Goals', 'Compare'] },
        { kind: 'impress.layout', slide: 3, layout: 'title_content' },
      ],
    },
    {
      // A section slide must still read as one after LibreOffice saves it (as its Title Only).
      edits: [{ op: 'impress.add_slide', position: 2, layout: 'section', title: 'Overview' }],
      checks: [
        { kind: 'impress.layout', slide: 2, layout: 'section' },
        { kind: 'impress.slide_title', slide: 2, text: 'Overview', exact: true },
      ],
    },
    {
      edits: [{ op: 'impress.delete_slide', slide: 4 }],
      checks: [
        { kind: 'impress.slide_count', count: 5 },
        { kind: 'impress.slide_title', slide: 4, text: 'Numbers', exact: true },
      ],
    },
    {
      edits: [{ op: 'impress.move_slide', slide: 4, to: 2 }],
      checks: [{ kind: 'impress.order', titles: ['Annual', 'Part Two', 'Agenda', 'Compare'] }],
    },
    {
      edits: [{ op: 'impress.set_title', slide: 1, text: 'Annual Review 2025' }],
      checks: [{ kind: 'impress.slide_title', slide: 1, text: 'Annual Review 2025', exact: true }],
    },
    {
      edits: [
        { op: 'impress.set_body', slide: 2, bullets: ['Intro', 'Budget', { text: 'Capex', level: 1 }] },
      ],
      checks: [{ kind: 'impress.slide_body', slide: 2, bullets: ['Intro', 'Budget', 'Capex'], exact: true }],
    },
    {
      edits: [{ op: 'impress.set_notes', slide: 2, text: 'Remember the budget' }],
      checks: [{ kind: 'impress.notes', slide: 2, text: 'Remember the budget' }],
    },
    {
      edits: [{ op: 'impress.set_notes', slide: 1, text: 'Open with thanks' }],
      checks: [{ kind: 'impress.notes', slide: 1, text: 'Open with thanks' }],
    },
    {
      edits: [
        {
          op: 'impress.set_font',
          slide: 2,
          target: 'body',
          bold: true,
          italic: true,
          size: 24,
          font: 'Liberation Serif',
          color: 'C00000',
        },
      ],
      checks: [
        {
          kind: 'impress.font',
          slide: 2,
          target: 'body',
          bold: true,
          italic: true,
          size: 24,
          font: 'Liberation Serif',
          color: 'C00000',
        },
      ],
    },
    {
      edits: [{ op: 'impress.set_font', slide: 1, target: 'title', size: 40, bold: true }],
      checks: [{ kind: 'impress.font', slide: 1, target: 'title', size: 40, bold: true }],
    },
    {
      edits: [
        { op: 'impress.add_image', slide: 3, image: { x: 6, y: 3, w: 3, h: 2, seed: 5, color: '70AD47' } },
      ],
      checks: [
        { kind: 'impress.image_present', slide: 3 },
        { kind: 'impress.image_present', min: 2 },
      ],
    },
    {
      edits: [
        {
          op: 'impress.add_table',
          slide: 3,
          table: {
            x: 0.5,
            y: 3.5,
            w: 5,
            h: 1.5,
            rows: [
              ['Name', 'Score'],
              ['Ann', '9'],
            ],
          },
        },
      ],
      checks: [
        { kind: 'impress.table', slide: 3, rows: 2, cols: 2, cells: [{ row: 2, col: 1, text: 'Ann' }] },
      ],
    },
    {
      edits: [
        { op: 'impress.set_layout', slide: 6, layout: 'title_content' },
        { op: 'impress.set_title', slide: 6, text: 'Closing' },
        { op: 'impress.set_body', slide: 6, bullets: ['Thanks', 'Questions'] },
      ],
      checks: [
        { kind: 'impress.slide_title', slide: 6, text: 'Closing' },
        { kind: 'impress.slide_body', slide: 6, bullets: ['Thanks', 'Questions'] },
        { kind: 'impress.layout', slide: 6, layout: 'title_content' },
      ],
    },
    {
      edits: [{ op: 'impress.hide_slide', slide: 3 }],
      checks: [{ kind: 'impress.hidden', slide: 3 }],
    },
    {
      edits: [{ op: 'impress.set_background', slide: 2, color: '1F4E79' }],
      checks: [{ kind: 'impress.background', slide: 2, color: '1f4e79' }],
    },
    {
      edits: [
        { op: 'impress.set_transition', slide: 2, effect: 'dissolve' },
        { op: 'impress.set_transition', slide: 4, effect: 'push' },
      ],
      checks: [
        { kind: 'impress.transition', slide: 2, effect: 'dissolve' },
        { kind: 'impress.transition', slide: 4, effect: 'push' },
      ],
    },
    {
      edits: [{ op: 'impress.set_slide_size', width: 8.268, height: 11.693 }],
      checks: [{ kind: 'impress.slide_size', width: 8.268, height: 11.693, orientation: 'portrait' }],
    },
    {
      edits: [
        { op: 'impress.move_shape', slide: 5, shape: 'picture', x: 0.5, y: 3.5 },
        { op: 'impress.move_shape', slide: 5, shape: 'table', w: 6, h: 2.5 },
        { op: 'impress.move_shape', slide: 2, shape: 'title', y: 4.5 },
      ],
      checks: [
        { kind: 'impress.shape_box', slide: 5, shape: 'picture', x: { max: 0.55 }, bottom: { min: 4.95 } },
        { kind: 'impress.shape_box', slide: 5, shape: 'table', w: { min: 5.95, max: 6.05 } },
        { kind: 'impress.shape_box', slide: 2, shape: 'title', y: { min: 4.45 } },
      ],
    },
    {
      edits: [
        { op: 'impress.duplicate_slide', slide: 2 },
        { op: 'impress.set_title', slide: 3, text: 'Agenda (copy)' },
      ],
      checks: [
        { kind: 'impress.slide_count', count: 7 },
        { kind: 'impress.slide_title', slide: 3, text: 'Agenda (copy)', exact: true },
        { kind: 'impress.order', titles: ['Agenda', 'Agenda (copy)', 'Compare'] },
      ],
    },
  ];
  return {
    doc,
    cases: raw.map((c) => ({
      edits: c.edits.map((e) => editSchema.parse({ ...e, file })),
      checks: c.checks.map((k) => checkSchema.parse({ ...k, file })),
    })),
  };
}
