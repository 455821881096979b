import JSZip from 'jszip';
import { type PixelSize, pixelSize } from '../pictureSize.ts';
import { type Deck, type SlideRef, shapes, slideXml, spTree } from './deck.ts';

/**
 * The pixel size of every picture on a slide, in shape order (null where its image is missing or
 * not a PNG/JPEG). `bytes` is the .pptx itself: the embedded images are read from its zip.
 */
export async function slidePictureSizes(
  deck: Deck,
  ref: SlideRef,
  bytes: Uint8Array,
): Promise<(PixelSize | null)[]> {
  const zip = await JSZip.loadAsync(bytes);
  const rels = new Map((await deck.pkg.rels(ref.part)).map((r) => [r.id, r]));
  const out: (PixelSize | null)[] = [];
  for (const pic of shapes(spTree(await slideXml(deck, ref))).filter((s) => s.name === 'p:pic')) {
    const id = pic.descendants('a:blip')[0]?.attrs['r:embed'];
    const rel = id === undefined ? undefined : rels.get(id);
    const file = rel && !rel.external ? zip.file(rel.target) : null;
    out.push(file ? pixelSize(await file.async('uint8array')) : null);
  }
  return out;
}
