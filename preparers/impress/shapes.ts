import { el, type XmlElement } from '../ooxml/xml.ts';
import { bulletParts } from './build.ts';
import type { Bullet, TableSpec } from './schema.ts';

export const EMU_PER_INCH = 914400;
const emu = (inches: number) => String(Math.round(inches * EMU_PER_INCH));

export const NS = {
  'xmlns:a': 'http://schemas.openxmlformats.org/drawingml/2006/main',
  'xmlns:r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'xmlns:p': 'http://schemas.openxmlformats.org/presentationml/2006/main',
};

export function emptyTree(): XmlElement {
  return el(
    'p:spTree',
    {},
    el('p:nvGrpSpPr', {}, el('p:cNvPr', { id: '1', name: '' }), el('p:cNvGrpSpPr'), el('p:nvPr')),
    el('p:grpSpPr'),
  );
}

function run(text: string, rPr?: XmlElement): XmlElement {
  return el('a:r', {}, rPr ? rPr.clone() : el('a:rPr', { lang: 'en-US', dirty: '0' }), el('a:t', {}, text));
}

/** Paragraphs for a body placeholder; `bullets: false` gives plain (subtitle) paragraphs. */
export function bodyParagraphs(items: Bullet[], rPr: XmlElement | undefined, bullets: boolean): XmlElement[] {
  return items.map((b) => {
    const { text, level } = bulletParts(b);
    const pPr = bullets
      ? el(
          'a:pPr',
          {
            ...(level > 0 ? { lvl: String(level) } : {}),
            marL: String(342900 * (level + 1)),
            indent: '-342900',
          },
          el('a:buChar', { char: '•' }),
        )
      : el('a:pPr', { marL: '0', indent: '0' }, el('a:buNone'));
    return el('a:p', {}, pPr, run(text, rPr));
  });
}

export function titleParagraph(text: string, rPr: XmlElement | undefined): XmlElement {
  // A line break in the text is a manual one (Shift+Enter), as a person types a title on two lines.
  const lines = text.split(/\r?\n/);
  return el(
    'a:p',
    {},
    ...lines.flatMap((line, i) => [
      ...(i > 0 ? [el('a:br', {}, rPr ? rPr.clone() : el('a:rPr', { lang: 'en-US', dirty: '0' }))] : []),
      run(line, rPr),
    ]),
  );
}

/** Replace a shape's paragraphs, keeping its body and list properties. */
export function setShapeParagraphs(shape: XmlElement, paragraphs: XmlElement[]): void {
  const txBody = shape.ensure('p:txBody');
  const keep = txBody.children.filter((c) => typeof c !== 'string' && c.name !== 'a:p');
  if (!keep.some((c) => typeof c !== 'string' && c.name === 'a:bodyPr')) keep.unshift(el('a:bodyPr'));
  txBody.children = [...keep, ...paragraphs];
}

/** The first run properties of a shape (so replaced text keeps the author's formatting). */
export function firstRunProps(shape: XmlElement | undefined): XmlElement | undefined {
  return shape?.descendants('a:r')[0]?.first('a:rPr');
}

/** A slide shape for a layout placeholder: same placeholder identity and geometry, new text. */
export function shapeFromPlaceholder(
  layoutShape: XmlElement,
  id: string,
  paragraphs: XmlElement[],
): XmlElement {
  const nv = layoutShape.first('p:nvSpPr')!.clone();
  const cNvPr = nv.first('p:cNvPr');
  if (cNvPr) cNvPr.attrs = { id, name: cNvPr.attrs.name || `Placeholder ${id}` };
  const ph = nv.first('p:nvPr')?.first('p:ph');
  if (ph) delete ph.attrs.hasCustomPrompt;
  const shape = el('p:sp', {}, nv, layoutShape.first('p:spPr')?.clone() ?? el('p:spPr'));
  setShapeParagraphs(shape, paragraphs);
  return shape;
}

/** A placeholder shape made from scratch, for slides whose layout lacks one. */
export function freshPlaceholder(
  id: string,
  type: 'title' | 'body',
  box: { x: number; y: number; w: number; h: number },
  paragraphs: XmlElement[],
): XmlElement {
  const shape = el(
    'p:sp',
    {},
    el(
      'p:nvSpPr',
      {},
      el('p:cNvPr', { id, name: type === 'title' ? 'Title' : 'Content' }),
      el('p:cNvSpPr', {}, el('a:spLocks', { noGrp: '1' })),
      el('p:nvPr', {}, el('p:ph', type === 'title' ? { type: 'title' } : { type: 'body', idx: '1' })),
    ),
    el('p:spPr', {}, xfrm('a:xfrm', box)),
  );
  setShapeParagraphs(shape, paragraphs);
  return shape;
}

export function xfrm(name: string, box: { x: number; y: number; w: number; h: number }): XmlElement {
  return el(
    name,
    {},
    el('a:off', { x: emu(box.x), y: emu(box.y) }),
    el('a:ext', { cx: emu(box.w), cy: emu(box.h) }),
  );
}

export function pictureShape(
  id: string,
  relId: string,
  name: string,
  box: { x: number; y: number; w: number; h: number },
): XmlElement {
  return el(
    'p:pic',
    {},
    el(
      'p:nvPicPr',
      {},
      el('p:cNvPr', { id, name, descr: name }),
      el('p:cNvPicPr', {}, el('a:picLocks', { noChangeAspect: '1' })),
      el('p:nvPr'),
    ),
    el('p:blipFill', {}, el('a:blip', { 'r:embed': relId }), el('a:stretch', {}, el('a:fillRect'))),
    el('p:spPr', {}, xfrm('a:xfrm', box), el('a:prstGeom', { prst: 'rect' }, el('a:avLst'))),
  );
}

const BORDER = (side: string) =>
  el(side, { w: '12700' }, el('a:solidFill', {}, el('a:srgbClr', { val: '808080' })));

export function tableShape(id: string, t: TableSpec): XmlElement {
  const cols = Math.max(...t.rows.map((r) => r.length));
  const colW = Math.floor((t.w * EMU_PER_INCH) / cols);
  const rowH = Math.floor((t.h * EMU_PER_INCH) / t.rows.length);
  const cell = (text: string, header: boolean) =>
    el(
      'a:tc',
      {},
      el(
        'a:txBody',
        {},
        el('a:bodyPr'),
        el('a:lstStyle'),
        el(
          'a:p',
          {},
          run(text, el('a:rPr', { lang: 'en-US', sz: '1400', ...(header ? { b: '1' } : {}), dirty: '0' })),
        ),
      ),
      el('a:tcPr', {}, BORDER('a:lnL'), BORDER('a:lnR'), BORDER('a:lnT'), BORDER('a:lnB')),
    );
  return el(
    'p:graphicFrame',
    {},
    el(
      'p:nvGraphicFramePr',
      {},
      el('p:cNvPr', { id, name: `Table ${id}` }),
      el('p:cNvGraphicFramePr', {}, el('a:graphicFrameLocks', { noGrp: '1' })),
      el('p:nvPr'),
    ),
    xfrm('p:xfrm', t),
    el(
      'a:graphic',
      {},
      el(
        'a:graphicData',
        { uri: 'http://schemas.openxmlformats.org/drawingml/2006/table' },
        el(
          'a:tbl',
          {},
          el('a:tblPr', { firstRow: '1', bandRow: '1' }),
          el('a:tblGrid', {}, ...Array.from({ length: cols }, () => el('a:gridCol', { w: String(colW) }))),
          ...t.rows.map((r, i) =>
            el(
              'a:tr',
              { h: String(rowH) },
              ...Array.from({ length: cols }, (_, c) => cell(r[c] ?? '', i === 0)),
            ),
          ),
        ),
      ),
    ),
  );
}
