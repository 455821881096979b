import {
  AlignmentType,
  Document,
  Footer,
  Header,
  HeadingLevel,
  LevelFormat,
  LineRuleType,
  Packer,
  PageBreak,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { buildGimp } from '../gimp/build.ts';
import type { FileMap } from '../types.ts';
import type { Alignment, Block, WriterDoc } from './schema.ts';

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;
const ALIGN: Record<Alignment, (typeof AlignmentType)[keyof typeof AlignmentType]> = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
};
const TWIPS_PER_INCH = 1440;

/**
 * Heading 1..6 carry their outline level (0-based, as Word's built-in styles do): LibreOffice's
 * table of contents and navigator list a paragraph by its style's outline level, and docx writes
 * none by default, so a TOC inserted in the real app came out empty. Only `paragraph` is given,
 * so docx keeps its default heading fonts.
 */
const HEADING_STYLES = Object.fromEntries(
  [1, 2, 3, 4, 5, 6].map((n) => [`heading${n}`, { paragraph: { outlineLevel: n - 1 } }]),
);

/** Numbering definitions every document carries, so oracle edits can reuse them. */
const NUMBERING = [
  {
    reference: 'forge-bullet',
    levels: [{ level: 0, format: LevelFormat.BULLET, text: '•', alignment: AlignmentType.LEFT }],
  },
  {
    reference: 'forge-numbered',
    levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.LEFT }],
  },
];

function blockToDocx(block: Block, listIndex: () => number): (Paragraph | Table)[] {
  switch (block.type) {
    case 'heading':
      return [new Paragraph({ heading: HEADINGS[block.level - 1], children: [new TextRun(block.text)] })];
    case 'paragraph':
      return [
        new Paragraph({
          style: block.style,
          alignment: block.alignment && ALIGN[block.alignment],
          spacing:
            block.lineSpacing === undefined
              ? undefined
              : { line: Math.round(block.lineSpacing * 240), lineRule: LineRuleType.AUTO },
          children: block.runs.map(
            (r) =>
              new TextRun({
                text: r.text,
                bold: r.bold,
                italics: r.italic,
                underline: r.underline ? {} : undefined,
                size: r.size === undefined ? undefined : Math.round(r.size * 2),
                font: r.font,
                color: r.color?.toUpperCase(),
                strike: r.strike,
                superScript: r.script === 'superscript' ? true : undefined,
                subScript: r.script === 'subscript' ? true : undefined,
                highlight: r.highlight,
              }),
          ),
        }),
      ];
    case 'list': {
      // Each numbered list restarts at 1: docx starts a new w:num per `instance`.
      const instance = listIndex();
      const reference = block.listType === 'bullet' ? 'forge-bullet' : 'forge-numbered';
      return block.items.map(
        (item) =>
          new Paragraph({ numbering: { reference, level: 0, instance }, children: [new TextRun(item)] }),
      );
    }
    case 'table': {
      const all = block.header ? [block.header, ...block.rows] : block.rows;
      const cols = Math.max(...all.map((r) => r.length));
      const rows = all.map(
        (cells, i) =>
          new TableRow({
            tableHeader: Boolean(block.header) && i === 0,
            children: Array.from(
              { length: cols },
              (_, c) =>
                new TableCell({
                  children: [
                    new Paragraph({
                      children: [
                        new TextRun({ text: cells[c] ?? '', bold: Boolean(block.header) && i === 0 }),
                      ],
                    }),
                  ],
                }),
            ),
          }),
      );
      return [new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } }), new Paragraph({})];
    }
    case 'page_break':
      return [new Paragraph({ children: [new PageBreak()] })];
  }
}

export async function buildDocx(doc: WriterDoc): Promise<Uint8Array> {
  let lists = 0;
  const children = doc.blocks.flatMap((b) => blockToDocx(b, () => ++lists));
  const m = doc.section.margins ?? {};
  const margin = (v: number | undefined) => Math.round((v ?? 1) * TWIPS_PER_INCH);
  const document = new Document({
    creator: 'cua-forge',
    styles: { default: HEADING_STYLES },
    numbering: { config: NUMBERING },
    sections: [
      {
        properties: {
          page: {
            size: {
              orientation:
                doc.section.orientation === 'landscape'
                  ? PageOrientation.LANDSCAPE
                  : PageOrientation.PORTRAIT,
            },
            margin: {
              top: margin(m.top),
              right: margin(m.right),
              bottom: margin(m.bottom),
              left: margin(m.left),
            },
          },
        },
        headers: doc.section.header
          ? { default: new Header({ children: [new Paragraph(doc.section.header)] }) }
          : undefined,
        footers: doc.section.footer
          ? { default: new Footer({ children: [new Paragraph(doc.section.footer)] }) }
          : undefined,
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** The document at the target, and the pictures the task puts beside it. */
export async function buildWriter(target: string, doc: WriterDoc): Promise<FileMap> {
  const out: FileMap = { [target]: await buildDocx(doc) };
  for (const p of doc.pictures ?? []) {
    if (p.path in out) throw new Error(`${p.path} is given twice`);
    Object.assign(out, await buildGimp(p.path, p.image));
  }
  return out;
}
