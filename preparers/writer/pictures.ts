import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { el, type XmlElement } from '../ooxml/xml.ts';
import { isPngBytes, pixelSize } from '../pictureSize.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { type Docx, openDocx, paragraphs, paragraphText } from './document.ts';

const REL_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC_NS = 'http://schemas.openxmlformats.org/drawingml/2006/picture';
const EMU_PER_PIXEL = 9525; // at 96 pixels to the inch
const MAX_WIDTH_EMU = 6 * 914400; // the text width of an A4 page with 1-inch margins, a little under

export interface InsertPicture {
  file: string;
  after: string;
  from: string;
  into?: boolean | undefined;
}

export interface PictureCheck {
  file: string;
  after: string;
  image: string;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * Insert > Image with the cursor in a new empty paragraph after the one containing `after` (or,
 * with `into`, at the end of that paragraph's own text): the
 * image file's bytes embedded unchanged (as Writer does for PNG and JPEG), drawn in line at its
 * natural size (96 dpi), shrunk to the text width when wider.
 */
export async function insertPicture(docx: Docx, edit: InsertPicture, files: FileMap): Promise<void> {
  const bytes = files[edit.from];
  if (bytes === undefined) throw new Error(`writer.insert_picture: no file ${edit.from} to insert`);
  const size = pixelSize(bytes);
  if (!size) throw new Error(`writer.insert_picture: ${edit.from} is neither a PNG nor a JPEG file`);
  const refs = paragraphs(docx.body).filter((r) => paragraphText(r.p).includes(edit.after));
  const at = refs[0];
  if (at === undefined)
    throw new Error(`writer.insert_picture: no paragraph contains ${JSON.stringify(edit.after)}`);
  const ext = isPngBytes(bytes) ? 'png' : 'jpeg';
  const media = docx.pkg.freshName('word/media/forge-image', `.${ext}`);
  docx.pkg.setBinary(media, bytes);
  await docx.pkg.ensureDefaultContentType(ext, ext === 'png' ? 'image/png' : 'image/jpeg');
  const main = (await docx.pkg.related('', 'officeDocument'))[0]?.target ?? 'word/document.xml';
  const relId = await docx.pkg.addRel(main, REL_IMAGE, media);
  const scale = Math.min(1, MAX_WIDTH_EMU / (size.width * EMU_PER_PIXEL));
  const cx = String(Math.round(size.width * EMU_PER_PIXEL * scale));
  const cy = String(Math.round(size.height * EMU_PER_PIXEL * scale));
  const ids = docx.document.descendants('wp:docPr').map((d) => Number(d.attrs.id) || 0);
  const id = String(Math.max(0, ...ids) + 1);
  const name = edit.from.slice(edit.from.lastIndexOf('/') + 1);
  const drawing = el(
    'w:drawing',
    {},
    el(
      'wp:inline',
      { distT: '0', distB: '0', distL: '0', distR: '0' },
      el('wp:extent', { cx, cy }),
      el('wp:docPr', { id, name: `Image${id}`, descr: name }),
      el('wp:cNvGraphicFramePr', {}, el('a:graphicFrameLocks', { 'xmlns:a': A_NS, noChangeAspect: '1' })),
      el(
        'a:graphic',
        { 'xmlns:a': A_NS },
        el(
          'a:graphicData',
          { uri: PIC_NS },
          el(
            'pic:pic',
            { 'xmlns:pic': PIC_NS },
            el('pic:nvPicPr', {}, el('pic:cNvPr', { id: '0', name }), el('pic:cNvPicPr')),
            el('pic:blipFill', {}, el('a:blip', { 'r:embed': relId }), el('a:stretch', {}, el('a:fillRect'))),
            el(
              'pic:spPr',
              {},
              el('a:xfrm', {}, el('a:off', { x: '0', y: '0' }), el('a:ext', { cx, cy })),
              el('a:prstGeom', { prst: 'rect' }, el('a:avLst')),
            ),
          ),
        ),
      ),
    ),
  );
  if (edit.into) {
    at.p.children.push(el('w:r', {}, drawing));
    return;
  }
  const p = el('w:p', {}, el('w:r', {}, drawing));
  const siblings = at.parent.children;
  siblings.splice(siblings.indexOf(at.p) + 1, 0, p);
}

/** The relationship ids of the images a paragraph shows: DrawingML blips and VML image data. */
export function imageRefs(p: XmlElement): string[] {
  return [
    ...p.descendants('a:blip').map((b) => b.attrs['r:embed']),
    ...p.descendants('v:imagedata').map((v) => v.attrs['r:id']),
  ].filter((id): id is string => id !== undefined && id !== '');
}

/**
 * A picture showing the image file sits at the described place: in the paragraph containing
 * `after` (anchored to it, or in line at its end) or in a paragraph without text between it and
 * the next paragraph with text (a paragraph of its own below it, however many blank lines the
 * person left). Its embedded image is the file, byte for byte: Writer embeds a PNG or JPEG as it
 * is and keeps it so through a save as .docx (tests/integration/writer-office.test.ts), and another
 * photo of the same size is another photo. The pixel size is observed to tell the two apart in a
 * report. checker.py (writer.picture) is the same.
 */
export async function probePicture(files: FileMap, check: PictureCheck): Promise<ProbeResult> {
  const source = files[check.image];
  if (source === undefined) return { pass: false, observed: { image: null } };
  const want = { sha: sha256(source) };
  const bytes = files[check.file]!;
  const docx = await openDocx(files, check.file);
  const zip = await JSZip.loadAsync(bytes);
  const main = (await docx.pkg.related('', 'officeDocument'))[0]?.target ?? 'word/document.xml';
  const rels = new Map((await docx.pkg.rels(main)).map((r) => [r.id, r]));
  const describe = async (id: string) => {
    const rel = rels.get(id);
    const entry = rel && !rel.external ? zip.file(rel.target) : null;
    if (!entry) return { same: false, size: null };
    const data = await entry.async('uint8array');
    const size = pixelSize(data);
    const same = sha256(data) === want.sha;
    return { same, size: size === null ? null : `${size.width}x${size.height}` };
  };
  const all = paragraphs(docx.body).map((r) => r.p);
  const at = all.findIndex((p) => paragraphText(p).includes(check.after));
  if (at < 0) return { pass: false, observed: { paragraphs: 0 } };
  let end = at + 1;
  while (end < all.length && paragraphText(all[end]!).trim() === '') end++;
  const near: { same: boolean; size: string | null }[] = [];
  let elsewhere = 0;
  for (const [i, p] of all.entries())
    for (const id of imageRefs(p)) {
      const seen = await describe(id);
      if (i >= at && i < end) near.push(seen);
      else if (seen.same) elsewhere++;
    }
  return { pass: near.some((n) => n.same), observed: { near, elsewhere } };
}
