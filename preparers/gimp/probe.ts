import { createHash } from 'node:crypto';
import type { FileMap, ProbeResult } from '../types.ts';
import { pixelsOf } from './decoded.ts';
import {
  gridDistance,
  gridOf,
  imageInfo,
  measure,
  normalizeGrid,
  regionCoverage,
  transformGrid,
} from './measure.ts';
import { hexRgb } from './raster.ts';
import type { GimpCheck } from './schema.ts';
import { textInk } from './text.ts';

const round = (v: number) => Math.round(v * 1000) / 1000;

function need(files: FileMap, path: string): Uint8Array {
  const bytes = files[path];
  if (bytes === undefined) throw new Error(`no file at ${path}`);
  return bytes;
}

export async function probeGimp(files: FileMap, check: GimpCheck): Promise<ProbeResult> {
  switch (check.kind) {
    case 'gimp.unchanged': {
      const bytes = files[check.path];
      if (bytes === undefined) return { pass: false, observed: { missing: check.path } };
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return { pass: sha256 === check.sha256, observed: { sha256 } };
    }
    case 'gimp.image': {
      const info = imageInfo(need(files, check.path));
      const q = check.quality;
      const pass =
        (check.format === undefined || info.format === check.format) &&
        (check.width === undefined || info.width === check.width) &&
        (check.height === undefined || info.height === check.height) &&
        (check.alpha === undefined || info.alpha === check.alpha) &&
        (check.gray === undefined || info.gray === check.gray) &&
        (check.progressive === undefined || info.progressive === check.progressive) &&
        (q === undefined ||
          (info.quality !== null &&
            (q.min === undefined || info.quality >= q.min) &&
            (q.max === undefined || info.quality <= q.max)));
      return { pass, observed: info };
    }
    case 'gimp.matches': {
      const img = pixelsOf(need(files, check.path));
      const ref = pixelsOf(need(files, check.reference));
      const want = transformGrid(gridOf(ref, check.crop), check.rotate, check.flip, check.gray);
      const d = check.normalize
        ? gridDistance(normalizeGrid(gridOf(img, check.area)), normalizeGrid(want))
        : gridDistance(gridOf(img, check.area), want);
      return {
        pass: d.mean <= check.tolerance && d.worst <= check.worst,
        observed: { mean: round(d.mean), worst: round(d.worst) },
      };
    }
    case 'gimp.measure': {
      const value = measure(pixelsOf(need(files, check.path)), check.measure);
      let pass =
        (check.min === undefined || value >= check.min) && (check.max === undefined || value <= check.max);
      let reference: number | undefined;
      if (check.reference !== undefined) {
        reference = measure(pixelsOf(need(files, check.reference)), check.measure);
        pass &&= check.change === 'increase' ? value - reference > check.by : reference - value > check.by;
      }
      return {
        pass,
        observed: {
          value: round(value),
          ...(reference === undefined ? {} : { reference: round(reference) }),
        },
      };
    }
    case 'gimp.region': {
      const img = pixelsOf(need(files, check.path));
      const share = regionCoverage(img, check, hexRgb(check.color), check.within);
      return { pass: share >= check.coverage, observed: { coverage: round(share) } };
    }
    case 'gimp.text': {
      const got = textInk(
        pixelsOf(need(files, check.path)),
        pixelsOf(need(files, check.reference)),
        check,
        hexRgb(check.color),
        check.within,
        check.differ,
      );
      const h = check.inkHeight;
      const w = check.inkWidth;
      const pass =
        got.ink > 0 &&
        (h?.min === undefined || got.height >= h.min) &&
        (h?.max === undefined || got.height <= h.max) &&
        (w?.min === undefined || got.width >= w.min) &&
        (w?.max === undefined || got.width <= w.max) &&
        got.strokes >= check.strokes &&
        got.fill <= check.fill;
      return { pass, observed: { ...got, strokes: round(got.strokes), fill: round(got.fill) } };
    }
  }
}
