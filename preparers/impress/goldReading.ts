import { serializeXml, type XmlElement } from '../ooxml/xml.ts';
import type { GoldReading } from '../osworld.ts';
import { notesPart, openPptx, placeholder, shapes, slideXml, spTree } from './deck.ts';

/**
 * What compare_pptx_files reads of a deck with the options our mapping passes (osworld.ts
 * DECK_OPTIONS: no geometry, alignment, font names, sizes or bullets), as python-pptx sees it:
 * slide count; per slide its background, its notes text (stripped) and its top-level shapes; per
 * text shape every paragraph's text (a line break is "\v"), level and runs with bold, italic,
 * underline, strike-through and colour; per table every cell's paragraphs and their runs' font.
 * Bold and italic unset read as off, underline unset as none, as the metric treats them.
 */
export const impressGoldReadings: Record<string, GoldReading> = {
  compare_pptx_files: async (bytes) => {
    const deck = await openPptx({ deck: bytes }, 'deck');
    const slides: unknown[] = [];
    for (const ref of deck.slides) {
      const slide = await slideXml(deck, ref);
      const bg = slide.first('p:cSld')?.first('p:bg');
      const notesName = await notesPart(deck, ref);
      const notes = notesName ? await deck.pkg.partIfExists(notesName) : undefined;
      const notesBody = notes && shapes(spTree(notes)).find((s) => placeholder(s)?.attrs.type === 'body');
      slides.push({
        background: bg ? serializeXml(bg) : null,
        notes: notesBody ? textOf(notesBody).trim() : '',
        shapes: topLevel(spTree(slide)).map(shapeReading),
      });
    }
    return slides;
  },
};

/** python-pptx's `slide.shapes`: the tree's own children, a group counting once. */
function topLevel(tree: XmlElement): XmlElement[] {
  return tree
    .elements()
    .filter((c) => c.name !== 'p:nvGrpSpPr' && c.name !== 'p:grpSpPr' && c.name !== 'p:extLst');
}

function shapeReading(shape: XmlElement): unknown {
  const table = shape.name === 'p:graphicFrame' ? shape.descendants('a:tbl')[0] : undefined;
  if (table)
    return {
      table: table
        .elements('a:tr')
        .map((tr) =>
          tr
            .elements('a:tc')
            .map((tc) => paragraphsOf(tc.first('a:txBody')).map((p) => runsOf(p).map(fontOf))),
        ),
    };
  if (shape.name !== 'p:sp') return { kind: shape.name };
  const paragraphs = paragraphsOf(shape.first('p:txBody'));
  return {
    text: paragraphs.map(paragraphText).join('\n').trim(),
    paragraphs: paragraphs.map((p) => ({
      text: paragraphText(p),
      level: p.first('a:pPr')?.attrs.lvl ?? '0',
      runs: runsOf(p).map((r) => ({ text: r.first('a:t')?.text() ?? '', ...fontOf(r) })),
    })),
  };
}

const paragraphsOf = (body: XmlElement | undefined): XmlElement[] => body?.elements('a:p') ?? [];

const runsOf = (p: XmlElement): XmlElement[] => p.elements('a:r');

function textOf(shape: XmlElement): string {
  return paragraphsOf(shape.first('p:txBody')).map(paragraphText).join('\n');
}

/** python-pptx's `paragraph.text`: runs and fields, a line break as a vertical tab. */
function paragraphText(p: XmlElement): string {
  let s = '';
  for (const c of p.elements()) {
    if (c.name === 'a:r' || c.name === 'a:fld') s += c.first('a:t')?.text() ?? '';
    else if (c.name === 'a:br') s += '\v';
  }
  return s;
}

function fontOf(run: XmlElement): Record<string, string> {
  const rPr = run.first('a:rPr');
  const on = (v: string | undefined) => (v === '1' || v === 'true' ? 'on' : 'off');
  const fill = rPr?.first('a:solidFill')?.elements()[0];
  return {
    bold: on(rPr?.attrs.b),
    italic: on(rPr?.attrs.i),
    underline: rPr?.attrs.u ?? 'none',
    strike: rPr?.attrs.strike ?? 'noStrike',
    colour: fill ? `${fill.name}:${fill.attrs.val ?? ''}` : 'none',
  };
}
