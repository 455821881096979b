/** An 8-bit RGBA image in memory: rows top to bottom, 4 bytes a pixel. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
  /** Stored as one grey channel (PNG colour type 0/4, a one-component JPEG) when written. */
  gray?: boolean;
}

export function blank(width: number, height: number, rgba: readonly number[] = [0, 0, 0, 0]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** "#3a7bd5" or "3a7bd5" → [r, g, b]. */
export function hexRgb(hex: string): [number, number, number] {
  const h = hex.replace(/^#/, '');
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

/** A region of the image, clipped to it. */
export function crop(img: Raster, x: number, y: number, width: number, height: number): Raster {
  const x0 = Math.max(0, x);
  const y0 = Math.max(0, y);
  const w = Math.max(1, Math.min(img.width, x + width) - x0);
  const h = Math.max(1, Math.min(img.height, y + height) - y0);
  const out = blank(w, h);
  for (let r = 0; r < h; r++)
    out.data.set(
      img.data.subarray(((y0 + r) * img.width + x0) * 4, ((y0 + r) * img.width + x0 + w) * 4),
      r * w * 4,
    );
  return { ...out, gray: img.gray };
}

export function flip(img: Raster, axis: 'horizontal' | 'vertical'): Raster {
  const out = blank(img.width, img.height);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const sx = axis === 'horizontal' ? img.width - 1 - x : x;
      const sy = axis === 'vertical' ? img.height - 1 - y : y;
      out.data.set(
        img.data.subarray((sy * img.width + sx) * 4, (sy * img.width + sx) * 4 + 4),
        (y * img.width + x) * 4,
      );
    }
  return { ...out, gray: img.gray };
}

/** Rotation clockwise by a quarter turn count. */
export function rotate(img: Raster, degrees: 90 | 180 | 270): Raster {
  if (degrees === 180) return flip(flip(img, 'horizontal'), 'vertical');
  const w = img.height;
  const h = img.width;
  const out = blank(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // Clockwise: the new (x, y) comes from the old (y, H-1-x); counter-clockwise from (W-1-y, x).
      const sx = degrees === 90 ? y : img.width - 1 - y;
      const sy = degrees === 90 ? img.height - 1 - x : x;
      out.data.set(
        img.data.subarray((sy * img.width + sx) * 4, (sy * img.width + sx) * 4 + 4),
        (y * w + x) * 4,
      );
    }
  return { ...out, gray: img.gray };
}

/**
 * Scales by area averaging when shrinking and bilinear sampling when growing, in premultiplied
 * alpha so transparent pixels do not bleed their colour.
 */
export function resize(img: Raster, width: number, height: number): Raster {
  const out = blank(width, height);
  const sx = img.width / width;
  const sy = img.height / height;
  const px = (x: number, y: number, c: number) => img.data[(y * img.width + x) * 4 + c]!;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const acc = [0, 0, 0, 0];
      let n = 0;
      if (sx >= 1 && sy >= 1) {
        const x0 = Math.floor(x * sx);
        const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
        const y0 = Math.floor(y * sy);
        const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
        for (let yy = y0; yy < y1; yy++)
          for (let xx = x0; xx < x1; xx++) {
            const a = px(xx, yy, 3);
            for (let c = 0; c < 3; c++) acc[c]! += px(xx, yy, c) * a;
            acc[3]! += a;
            n++;
          }
      } else {
        const fx = Math.min(img.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
        const fy = Math.min(img.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
        const xa = Math.floor(fx);
        const ya = Math.floor(fy);
        const xb = Math.min(img.width - 1, xa + 1);
        const yb = Math.min(img.height - 1, ya + 1);
        for (const [xx, yy, wgt] of [
          [xa, ya, (1 - (fx - xa)) * (1 - (fy - ya))],
          [xb, ya, (fx - xa) * (1 - (fy - ya))],
          [xa, yb, (1 - (fx - xa)) * (fy - ya)],
          [xb, yb, (fx - xa) * (fy - ya)],
        ] as const) {
          const a = px(xx, yy, 3) * wgt;
          for (let c = 0; c < 3; c++) acc[c]! += px(xx, yy, c) * a;
          acc[3]! += a;
        }
        n = 1;
      }
      const o = (y * width + x) * 4;
      const alpha = acc[3]! / n;
      for (let c = 0; c < 3; c++) out.data[o + c] = acc[3]! > 0 ? clamp8(acc[c]! / acc[3]!) : 0;
      out.data[o + 3] = clamp8(alpha);
    }
  return { ...out, gray: img.gray };
}

/** Maps every colour channel through a 256-entry table (alpha kept). */
function mapChannels(img: Raster, f: (v: number) => number): Raster {
  const lut = Array.from({ length: 256 }, (_, v) => clamp8(f(v)));
  const data = new Uint8Array(img.data);
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) data[i + c] = lut[data[i + c]!]!;
  return { ...img, data };
}

/**
 * Brightness and contrast as GIMP's Brightness-Contrast tool has them (both in -1…1): brightness
 * scales towards black or white, contrast turns the curve about the middle grey.
 */
export function brightnessContrast(img: Raster, brightness: number, contrast: number): Raster {
  const slope = Math.tan(((contrast + 1) * Math.PI) / 4);
  return mapChannels(img, (v) => {
    let n = v / 255;
    n = brightness < 0 ? n * (1 + brightness) : n + (1 - n) * brightness;
    n = (n - 0.5) * slope + 0.5;
    return n * 255;
  });
}

function rgbToHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const t = (x: number) => {
    const tt = x < 0 ? x + 1 : x > 1 ? x - 1 : x;
    if (tt < 1 / 6) return p + (q - p) * 6 * tt;
    if (tt < 1 / 2) return q;
    if (tt < 2 / 3) return p + (q - p) * (2 / 3 - tt) * 6;
    return p;
  };
  return [t(h + 1 / 3), t(h), t(h - 1 / 3)];
}

/** Saturation scaled by (1 + amount) in HSL, amount in -1…1 (GIMP's Hue-Saturation, -100…100). */
export function saturate(img: Raster, amount: number): Raster {
  const data = new Uint8Array(img.data);
  for (let i = 0; i < data.length; i += 4) {
    const [h, s, l] = rgbToHsl(data[i]! / 255, data[i + 1]! / 255, data[i + 2]! / 255);
    const rgb = hslToRgb(h, Math.min(1, s * (1 + amount)), l);
    for (let c = 0; c < 3; c++) data[i + c] = clamp8(rgb[c]! * 255);
  }
  return { ...img, data };
}

/** Luminance (Rec. 709 weights) in every channel; `mode` also stores it as one grey channel. */
export function grayscale(img: Raster, mode: boolean): Raster {
  const data = new Uint8Array(img.data);
  for (let i = 0; i < data.length; i += 4) {
    const y = clamp8(0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!);
    data[i] = y;
    data[i + 1] = y;
    data[i + 2] = y;
  }
  return { ...img, data, gray: mode };
}

/** Pixels within `threshold` (largest channel difference) of `rgb` made fully transparent. */
export function clearColor(img: Raster, rgb: readonly number[], threshold: number): Raster {
  const data = new Uint8Array(img.data);
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.max(...[0, 1, 2].map((c) => Math.abs(data[i + c]! - rgb[c]!)));
    if (d <= threshold) data.set([0, 0, 0, 0], i);
  }
  return { ...img, data };
}

/** A rectangle painted over the image (clipped). */
export function fillRect(
  img: Raster,
  x: number,
  y: number,
  w: number,
  h: number,
  rgba: readonly number[],
): Raster {
  const data = new Uint8Array(img.data);
  for (let yy = Math.max(0, y); yy < Math.min(img.height, y + h); yy++)
    for (let xx = Math.max(0, x); xx < Math.min(img.width, x + w); xx++)
      data.set(rgba, (yy * img.width + xx) * 4);
  return { ...img, data };
}

/** A larger (or smaller) canvas with the image placed at (x, y) and the rest filled. */
export function canvas(
  img: Raster,
  width: number,
  height: number,
  x: number,
  y: number,
  fill: readonly number[],
): Raster {
  const out = blank(width, height, fill);
  for (let yy = 0; yy < img.height; yy++)
    for (let xx = 0; xx < img.width; xx++) {
      const tx = xx + x;
      const ty = yy + y;
      if (tx < 0 || ty < 0 || tx >= width || ty >= height) continue;
      out.data.set(
        img.data.subarray((yy * img.width + xx) * 4, (yy * img.width + xx) * 4 + 4),
        (ty * width + tx) * 4,
      );
    }
  return { ...out, gray: img.gray };
}

export function hasTransparency(img: Raster): boolean {
  for (let i = 3; i < img.data.length; i += 4) if (img.data[i] !== 255) return true;
  return false;
}
