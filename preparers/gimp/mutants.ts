import { twinPath } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { imageInfo } from './measure.ts';
import { hexRgb } from './raster.ts';
import type { GimpEdit } from './schema.ts';
import { textWidth } from './text.ts';

type Mutant = { name: string; edit?: number; edits: GimpEdit[]; also?: GimpEdit[] };

/**
 * Near misses a GIMP user makes, edit by edit: the other flip, the turn the other way, width and
 * height swapped, the colour change the wrong way round, the result saved over the original instead
 * of exported (or written over it as well), the export left in the opened file's format, text in
 * GIMP's default black or on the other side of the picture.
 */
export async function gimpMutants(edits: GimpEdit[], initial: FileMap): Promise<Mutant[]> {
  const out: Mutant[] = [];
  const replace = (i: number, e: GimpEdit) => edits.map((x, k) => (k === i ? e : x));
  edits.forEach((e, i) => {
    const at = e.to ?? e.path;
    if (e.op === 'gimp.flip')
      out.push({
        name: `flipped ${e.axis === 'horizontal' ? 'vertically' : 'horizontally'} instead`,
        edit: i,
        edits: replace(i, { ...e, axis: e.axis === 'horizontal' ? 'vertical' : 'horizontal' }),
      });
    if (e.op === 'gimp.rotate' && e.degrees !== 180)
      out.push({
        name: 'turned the other way',
        edit: i,
        edits: replace(i, { ...e, degrees: e.degrees === 90 ? 270 : 90 }),
      });
    if ((e.op === 'gimp.scale' || e.op === 'gimp.crop') && e.width !== e.height)
      out.push({
        name: 'width and height swapped',
        edit: i,
        edits: replace(i, { ...e, width: e.height, height: e.width }),
      });
    if (e.op === 'gimp.brightness_contrast' && (e.brightness !== 0 || e.contrast !== 0))
      out.push({
        name: 'the adjustment the wrong way round',
        edit: i,
        edits: replace(i, { ...e, brightness: -e.brightness, contrast: -e.contrast }),
      });
    if (e.op === 'gimp.saturation' && e.amount !== 0)
      out.push({
        name: 'saturation moved the wrong way',
        edit: i,
        edits: replace(i, { ...e, amount: -e.amount }),
      });
    if (e.op === 'gimp.text') {
      // The Text tool takes the foreground colour, black unless the person changes it.
      if (Math.max(...hexRgb(e.color)) > 64)
        out.push({
          name: 'text left in the default black',
          edit: i,
          edits: replace(i, { ...e, color: '#000000' }),
        });
      // The same line mirrored to the other side (the left corner for the right, and back).
      const bytes = initial[e.path];
      if (bytes !== undefined) {
        const across = Math.max(0, imageInfo(bytes).width - e.x - textWidth(e.text, e.size));
        if (Math.abs(across - e.x) > e.size)
          out.push({ name: 'text on the other side', edit: i, edits: replace(i, { ...e, x: across }) });
      }
    }
    if (e.to !== undefined && e.to !== e.path) {
      out.push({
        name: 'saved over the original instead of exporting',
        edit: i,
        edits: replace(i, { ...e, to: undefined, format: undefined }),
      });
      // Exported twice: a second file beside the asked one (only the home's folder listing sees it).
      const twin = twinPath(e.to);
      out.push({ name: `exported again as ${twin}`, edit: i, edits, also: [{ ...e, to: twin }] });
    }
    // An edit made on the oracle's own export (a scale after the crop that wrote it): the result
    // also written over the image the export came from (GIMP's File > Overwrite of the opened file).
    const from = e.to === undefined ? edits.findIndex((x, k) => k < i && x.to === e.path) : -1;
    if (from >= 0 && edits[from]!.path !== e.path) {
      const original = edits[from]!.path;
      const chain = edits
        .slice(from, i + 1)
        .filter((x, k) => k === 0 || (x.to ?? x.path) === e.path)
        .map((x) => ({ ...x, path: original, to: undefined, format: undefined }));
      out.push({ name: `and written over ${original} as well`, edit: i, edits, also: chain });
    }
    const wanted = e.format ?? (/\.png$/i.test(at) ? 'png' : 'jpeg');
    const opened = /\.png$/i.test(e.path) ? 'png' : 'jpeg';
    if (wanted !== opened)
      out.push({
        name: `written as ${opened.toUpperCase()} under the new name`,
        edit: i,
        edits: replace(i, { ...e, format: opened }),
      });
  });
  return out;
}
