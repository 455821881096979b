import { blank, hexRgb, type Raster } from './raster.ts';
import type { FeatureKind, SceneKind, ScreenKind } from './sceneKinds.ts';
import { drawText } from './text.ts';

/**
 * Deterministic pictures from a small spec: a photo-like landscape, a logo on a flat background, a
 * scanned page, an application screenshot, a product shot on a plain backdrop. Every scene is
 * left–right and top–bottom asymmetric, so a flip or a rotation always shows.
 */
export interface SceneSpec {
  scene: SceneKind;
  width: number;
  height: number;
  seed: number;
  /** The main colour (sky, logo mark, stamp, accent, product), hex. */
  accent?: string;
  /** The flat background of a logo or product shot, hex. */
  background?: string;
  /** A screenshot's window (default cards). */
  screen?: ScreenKind;
  /** What stands in a landscape (default nothing). */
  feature?: FeatureKind | 'none';
}

function rng(seed: number): () => number {
  let a = seed >>> 0 || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rgb = readonly [number, number, number];
const mix = (a: Rgb, b: Rgb, t: number): Rgb =>
  [0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * t) as unknown as Rgb;

class Painter {
  img: Raster;
  constructor(
    readonly w: number,
    readonly h: number,
    bg: Rgb,
  ) {
    this.img = blank(w, h, [...bg.map(Math.round), 255]);
  }
  set(x: number, y: number, c: Rgb, alpha = 1) {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    const o = (y * this.w + x) * 4;
    for (let i = 0; i < 3; i++)
      this.img.data[o + i] = Math.round(this.img.data[o + i]! * (1 - alpha) + c[i]! * alpha);
  }
  rect(x: number, y: number, w: number, h: number, c: Rgb) {
    for (let yy = Math.round(y); yy < Math.round(y + h); yy++)
      for (let xx = Math.round(x); xx < Math.round(x + w); xx++) this.set(xx, yy, c);
  }
  disc(cx: number, cy: number, r: number, c: Rgb) {
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++)
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d < r + 0.5) this.set(x, y, c, Math.min(1, r + 0.5 - d));
      }
  }
  triangle(cx: number, top: number, half: number, height: number, c: Rgb) {
    for (let y = Math.floor(top); y < top + height; y++) {
      const span = (half * (y - top)) / height;
      for (let x = Math.floor(cx - span); x <= cx + span; x++) this.set(x, y, c);
    }
  }
}

/** A band of rows from `top` to `top + height` whose left and right edges move linearly. */
function band(p: Painter, top: number, height: number, edges: (t: number) => [number, number], c: Rgb) {
  for (let y = Math.floor(top); y < top + height; y++) {
    const [l, rt] = edges((y - top) / height);
    p.rect(l, y, rt - l, 1, c);
  }
}

/** The feature standing on the grass left of the trees (a boat on the lake), in the accent's colours. */
function feature(p: Painter, kind: FeatureKind, accent: Rgb) {
  const { w, h } = p;
  const ground = h * 0.8;
  const x = w * 0.3;
  const dark: Rgb = [60, 48, 40];
  const light: Rgb = [236, 226, 200];
  if (kind === 'house' || kind === 'shed') {
    const bw = w * (kind === 'house' ? 0.17 : 0.1);
    const bh = h * (kind === 'house' ? 0.13 : 0.09);
    p.rect(x - bw / 2, ground - bh, bw, bh, kind === 'house' ? light : [150, 112, 76]);
    // A pitched roof on the house, a single slope on the shed.
    if (kind === 'house')
      p.triangle(x, ground - bh - h * 0.09, bw * 0.6, h * 0.09, mix(accent, [90, 40, 30], 0.5));
    else
      band(
        p,
        ground - bh - h * 0.035,
        h * 0.035,
        (t) => [x - bw * 0.6, x + bw * (0.6 - 0.4 * (1 - t))],
        [70, 70, 76],
      );
    p.rect(x - bw * 0.1, ground - bh * 0.6, bw * 0.2, bh * 0.6, dark);
    if (kind === 'house')
      for (const dx of [-0.32, 0.2])
        p.rect(x + dx * bw, ground - bh * 0.75, bw * 0.14, bh * 0.25, [160, 200, 230]);
  } else if (kind === 'boat') {
    const y = h * 0.9;
    band(p, y, h * 0.04, (t) => [w * (0.14 + 0.03 * t), w * (0.36 - 0.03 * t)], mix(accent, [0, 0, 0], 0.3));
    p.rect(w * 0.25, y - h * 0.16, 2.5, h * 0.16, dark);
    band(p, y - h * 0.15, h * 0.13, (t) => [w * 0.25 + 3, w * 0.25 + 3 + w * 0.09 * t], [248, 246, 240]);
  } else if (kind === 'tent') {
    p.triangle(x, ground - h * 0.16, w * 0.12, h * 0.16, accent);
    p.triangle(x, ground - h * 0.08, w * 0.035, h * 0.08, dark);
  } else if (kind === 'stall') {
    const sw = w * 0.18;
    for (const dx of [-0.5, 0.5]) p.rect(x + dx * sw - 2, ground - h * 0.14, 4, h * 0.14, dark);
    p.rect(x - sw / 2, ground - h * 0.06, sw, h * 0.02, [150, 112, 76]);
    for (let k = 0; k < 6; k++) {
      p.rect(x - sw / 2 + (k * sw) / 6, ground - h * 0.17, sw / 6, h * 0.04, k % 2 === 0 ? accent : light);
      p.disc(x - sw / 2 + ((k + 0.5) * sw) / 6, ground - h * 0.075, h * 0.012, [200, 80 + 20 * k, 60]);
    }
  } else {
    // bandstand: a round platform, six posts and a pointed roof.
    const bw = w * 0.16;
    p.rect(x - bw / 2, ground - h * 0.025, bw, h * 0.025, light);
    for (let k = 0; k < 6; k++) p.rect(x - bw / 2 + (k * bw) / 5 - 1.5, ground - h * 0.12, 3, h * 0.1, light);
    p.triangle(x, ground - h * 0.19, bw * 0.62, h * 0.07, mix(accent, [40, 90, 60], 0.5));
  }
}

function landscape(p: Painter, r: () => number, accent: Rgb, _bg: Rgb, what?: FeatureKind | 'none') {
  const { w, h } = p;
  const skyTop = mix(accent, [20, 40, 90], 0.5);
  const skyLow: Rgb = [250, 214, 165];
  const horizon = Math.round(h * (0.45 + r() * 0.1));
  for (let y = 0; y < horizon; y++) p.rect(0, y, w, 1, mix(skyTop, skyLow, y / horizon));
  p.disc(w * (0.68 + r() * 0.15), horizon * (0.35 + r() * 0.2), Math.min(w, h) * 0.07, [255, 236, 170]);
  const hills: Rgb[] = [
    [96, 130, 92],
    [64, 104, 66],
    [40, 76, 48],
  ];
  hills.forEach((c, k) => {
    const base = horizon + (k * (h - horizon)) / 4;
    const amp = h * (0.08 - k * 0.015);
    const freq = (1.5 + r() * 2) / w;
    const phase = r() * 6.28;
    for (let x = 0; x < w; x++) {
      const top = base - amp * (0.6 + 0.4 * Math.sin(x * freq * 6.28 + phase)) - amp * 0.4 * (x / w);
      p.rect(x, top, 1, h - top, c);
    }
  });
  const lake = Math.round(h * 0.82);
  for (let y = lake; y < h; y++)
    p.rect(0, y, w * 0.55, 1, mix([70, 110, 150], [40, 70, 110], (y - lake) / (h - lake)));
  const trees = 5 + Math.floor(r() * 5);
  for (let i = 0; i < trees; i++) {
    const x = w * (0.6 + r() * 0.38);
    const th = h * (0.12 + r() * 0.1);
    const top = h * 0.7 - th + r() * h * 0.1;
    p.rect(x - 2, top + th, 4, h * 0.04, [70, 50, 35]);
    p.triangle(x, top, th * 0.35, th, [28 + i * 3, 70, 40]);
  }
  if (what && what !== 'none') feature(p, what, accent);
  // Film grain: a photo is never flat.
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const n = Math.round((r() - 0.5) * 8);
      for (let i = 0; i < 3; i++) p.img.data[o + i] = Math.max(0, Math.min(255, p.img.data[o + i]! + n));
    }
}

function logo(p: Painter, r: () => number, accent: Rgb, _bg: Rgb) {
  const { w, h } = p;
  const s = Math.min(w, h);
  const cx = w * 0.22;
  const cy = h * 0.45;
  p.disc(cx, cy, s * 0.28, accent);
  p.disc(cx + s * 0.06, cy - s * 0.05, s * 0.14, [255, 255, 255]);
  p.triangle(cx - s * 0.05, cy - s * 0.02, s * 0.1, s * 0.18, mix(accent, [0, 0, 0], 0.35));
  // A word mark as letter blocks of varying widths, and a thin tagline under it.
  let x = w * 0.45;
  const letters = 5 + Math.floor(r() * 4);
  const capH = h * 0.22;
  for (let i = 0; i < letters && x < w * 0.95; i++) {
    const lw = s * (0.05 + r() * 0.06);
    p.rect(x, cy - capH * 0.6, lw, capH, [40, 44, 52]);
    x += lw + s * 0.025;
  }
  p.rect(w * 0.45, cy + capH * 0.6, (x - w * 0.45) * 0.8, h * 0.035, mix(accent, [255, 255, 255], 0.2));
}

function scan(p: Painter, r: () => number, accent: Rgb, _bg: Rgb) {
  const { w, h } = p;
  const ink: Rgb = [52, 52, 58];
  const m = w * 0.08;
  p.rect(m, h * 0.06, w * 0.35, h * 0.035, ink);
  p.rect(w - m - w * 0.2, h * 0.06, w * 0.2, h * 0.018, [120, 120, 125]);
  p.rect(w - m - w * 0.16, h * 0.09, w * 0.16, h * 0.018, [120, 120, 125]);
  const line = Math.max(3, h * 0.012);
  for (let y = h * 0.16; y < h * 0.78; y += line * 2.6) {
    if (r() < 0.12) continue;
    p.rect(m, y, (w - 2 * m) * (0.55 + r() * 0.45), line, [90, 90, 96]);
  }
  // A signature and a stamp near the bottom right.
  for (let x = 0; x < w * 0.22; x++)
    p.rect(w * 0.6 + x, h * 0.86 + Math.sin(x / (w * 0.012)) * h * 0.012, 2, 2, [20, 40, 110]);
  p.disc(w * 0.25, h * 0.88, Math.min(w, h) * 0.07, mix(accent, [255, 255, 255], 0.25));
  p.disc(w * 0.25, h * 0.88, Math.min(w, h) * 0.05, [244, 240, 228]);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const n = Math.round((r() - 0.5) * 10 - (x / w) * 6);
      for (let i = 0; i < 3; i++) p.img.data[o + i] = Math.max(0, Math.min(255, p.img.data[o + i]! + n));
    }
}

function screenshot(p: Painter, r: () => number, accent: Rgb, _bg: Rgb, screen: ScreenKind = 'cards') {
  const { w, h } = p;
  p.rect(0, 0, w, h * 0.07, [46, 52, 64]);
  for (let i = 0; i < 3; i++)
    p.disc(
      w - h * 0.035 * (2 * i + 1.4),
      h * 0.035,
      h * 0.012,
      (
        [
          [236, 95, 86],
          [245, 190, 80],
          [98, 197, 84],
        ] as const
      )[i]!,
    );
  p.rect(0, h * 0.07, w * 0.22, h * 0.93, [236, 239, 244]);
  for (let i = 0; i < 7; i++)
    p.rect(w * 0.02, h * (0.12 + i * 0.07), w * (0.12 + r() * 0.06), h * 0.025, [150, 156, 168]);
  p.rect(w * 0.02, h * 0.12 - h * 0.012, w * 0.18, h * 0.05, mix(accent, [255, 255, 255], 0.6));
  if (screen !== 'cards') return { dashboard, rota, queue }[screen](p, r, accent);
  const cols = 3;
  for (let i = 0; i < 6; i++) {
    const cx = w * 0.25 + (i % cols) * w * 0.25;
    const cy = h * 0.14 + Math.floor(i / cols) * h * 0.4;
    p.rect(cx, cy, w * 0.22, h * 0.34, [246, 247, 250]);
    p.rect(cx, cy, w * 0.22, h * 0.15, mix(accent, [255, 255, 255], 0.2 + r() * 0.5));
    p.rect(cx + w * 0.015, cy + h * 0.19, w * 0.16, h * 0.02, [70, 74, 84]);
    p.rect(cx + w * 0.015, cy + h * 0.24, w * 0.12, h * 0.015, [150, 156, 168]);
  }
  p.rect(w * 0.84, h * 0.9, w * 0.13, h * 0.06, accent);
}

const INK: Rgb = [52, 56, 66];
const MUTED: Rgb = [150, 156, 168];

/** The app's content area, right of the sidebar and below the title bar. */
const area = (p: Painter) => ({ x: p.w * 0.25, y: p.h * 0.12, w: p.w * 0.72, h: p.h * 0.84 });

function label(p: Painter, text: string, x: number, y: number, size: number, c: Rgb) {
  p.img = drawText(p.img, text, Math.round(x), Math.round(y), size, c);
}

/** Three figures over a bar chart of the months and a line of the weeks. */
function dashboard(p: Painter, r: () => number, accent: Rgb) {
  const a = area(p);
  const size = Math.max(9, Math.round(p.h * 0.035));
  const tiles = ['SALES', 'ORDERS', 'RETURNS'];
  tiles.forEach((name, i) => {
    const x = a.x + i * a.w * 0.34;
    p.rect(x, a.y, a.w * 0.31, a.h * 0.2, [246, 247, 250]);
    p.rect(x, a.y, a.w * 0.012, a.h * 0.2, accent);
    label(p, name, x + a.w * 0.03, a.y + a.h * 0.025, size * 0.8, MUTED);
    const figure =
      i === 0 ? 20 + Math.floor(r() * 70) : i === 1 ? 300 + Math.floor(r() * 600) : 5 + Math.floor(r() * 40);
    const text = i === 0 ? `${figure},${String(Math.floor(r() * 1000)).padStart(3, '0')}` : String(figure);
    label(p, text, x + a.w * 0.03, a.y + a.h * 0.09, size * 1.6, INK);
  });
  // Bars: twelve months, the latest in the accent colour.
  const chart = { x: a.x, y: a.y + a.h * 0.28, w: a.w * 0.56, h: a.h * 0.62 };
  p.rect(chart.x, chart.y + chart.h, chart.w, 1.5, MUTED);
  for (let m = 0; m < 12; m++) {
    const bh = chart.h * (0.3 + 0.6 * r());
    const bx = chart.x + (m + 0.2) * (chart.w / 12);
    p.rect(
      bx,
      chart.y + chart.h - bh,
      (chart.w / 12) * 0.6,
      bh,
      m === 11 ? accent : mix(accent, [255, 255, 255], 0.55),
    );
  }
  // A line of eight weeks with its points.
  const line = { x: a.x + a.w * 0.62, y: chart.y, w: a.w * 0.36, h: chart.h };
  p.rect(line.x, line.y + line.h, line.w, 1.5, MUTED);
  let prev: [number, number] | undefined;
  for (let k = 0; k < 8; k++) {
    const pt: [number, number] = [
      line.x + (k / 7) * line.w,
      line.y + line.h * (0.75 - 0.5 * (k / 7) - 0.15 * r()),
    ];
    if (prev)
      for (let t = 0; t <= 1; t += 0.02)
        p.disc(prev[0] + (pt[0] - prev[0]) * t, prev[1] + (pt[1] - prev[1]) * t, 1.2, accent);
    p.disc(pt[0], pt[1], 3, accent);
    prev = pt;
  }
}

/** A week's grid: a row per person (initials), shifts as blocks in the days they work. */
function rota(p: Painter, r: () => number, accent: Rgb) {
  const a = area(p);
  const size = Math.max(9, Math.round(p.h * 0.03));
  const days = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];
  const first = a.w * 0.12;
  const col = (a.w - first) / 7;
  for (const [i, d] of days.entries()) label(p, d, a.x + first + i * col + col * 0.2, a.y, size, MUTED);
  const people = ['AL', 'BN', 'CK', 'DM', 'EP', 'FR'];
  const row = (a.h * 0.88) / people.length;
  people.forEach((who, j) => {
    const y = a.y + a.h * 0.1 + j * row;
    p.rect(a.x, y - row * 0.08, a.w, 1, [226, 229, 235]);
    label(p, who, a.x, y + row * 0.2, size, INK);
    for (let i = 0; i < 7; i++) {
      if (r() < 0.35) continue;
      const late = r() < 0.4;
      p.rect(
        a.x + first + i * col + col * 0.08,
        y + row * 0.1,
        col * 0.84,
        row * 0.62,
        late ? mix(accent, [0, 0, 0], 0.25) : mix(accent, [255, 255, 255], 0.45),
      );
    }
  });
}

/** Numbered tickets, a row each: its number, a subject line, and its state as a coloured tag. */
function queue(p: Painter, r: () => number, accent: Rgb) {
  const a = area(p);
  const size = Math.max(9, Math.round(p.h * 0.03));
  const states: [string, Rgb][] = [
    ['OPEN', accent],
    ['WAITING', [214, 160, 40]],
    ['DONE', [80, 150, 90]],
  ];
  const rows = 8;
  const row = a.h / rows;
  let id = 1000 + Math.floor(r() * 8000);
  for (let j = 0; j < rows; j++) {
    const y = a.y + j * row;
    p.rect(a.x, y, a.w, row * 0.86, j % 2 === 0 ? [246, 247, 250] : [255, 255, 255]);
    label(p, `#${id}`, a.x + a.w * 0.02, y + row * 0.2, size, INK);
    id += 1 + Math.floor(r() * 9);
    p.rect(a.x + a.w * 0.2, y + row * 0.32, a.w * (0.3 + r() * 0.25), row * 0.2, MUTED);
    const [state, c] = states[Math.floor(r() * states.length)]!;
    p.rect(a.x + a.w * 0.78, y + row * 0.15, a.w * 0.2, row * 0.56, mix(c, [255, 255, 255], 0.75));
    label(p, state, a.x + a.w * 0.8, y + row * 0.2, size * 0.9, c);
  }
}

function product(p: Painter, r: () => number, accent: Rgb, bg: Rgb) {
  const { w, h } = p;
  // A mug: body, handle on one side, a darker band and a lid of steam on the other.
  const bw = w * 0.3;
  const bh = h * 0.45;
  const x = w * (0.3 + r() * 0.08);
  const y = h * 0.32;
  p.rect(x, y, bw, bh, accent);
  p.rect(x, y + bh * 0.25, bw, bh * 0.12, mix(accent, [0, 0, 0], 0.3));
  p.disc(x + bw / 2, y + bh, bw / 2, accent);
  p.disc(x + bw + bw * 0.16, y + bh * 0.4, bw * 0.2, accent);
  p.disc(x + bw + bw * 0.16, y + bh * 0.4, bw * 0.1, bg);
  p.rect(x - bw * 0.05, y - h * 0.03, bw * 1.1, h * 0.04, mix(accent, [255, 255, 255], 0.4));
}

/** The picture for a scene spec (opaque RGBA). */
export function renderScene(spec: SceneSpec): Raster {
  const r = rng(spec.seed);
  const accent: Rgb = hexRgb(spec.accent ?? '#3a6ea5');
  const bgByScene: Record<SceneKind, Rgb> = {
    landscape: [0, 0, 0],
    logo: [255, 255, 255],
    scan: [244, 240, 228],
    screenshot: [255, 255, 255],
    product: [255, 255, 255],
  };
  const bg = spec.background ? hexRgb(spec.background) : bgByScene[spec.scene];
  const p = new Painter(spec.width, spec.height, bg);
  if (spec.scene === 'screenshot') screenshot(p, r, accent, bg, spec.screen);
  else if (spec.scene === 'landscape') landscape(p, r, accent, bg, spec.feature);
  else ({ logo, scan, product })[spec.scene](p, r, accent, bg);
  return p.img;
}
