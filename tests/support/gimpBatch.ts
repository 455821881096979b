import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { GimpEdit } from '../../preparers/gimp/schema.ts';
import type { FileMap } from '../../preparers/types.ts';

const run = promisify(execFile);

/**
 * Drives the real GIMP in batch mode (`gimp -i -b <script-fu>`). The Script-Fu text is built from
 * fixed templates; the only values spliced in are numbers checked to be finite and paths checked
 * against a plain character set, so nothing a spec wrote can become Script-Fu code.
 */
export const GIMP = '/usr/bin/gimp';

const SAFE_PATH = /^\/[A-Za-z0-9_./-]+$/;

function str(p: string): string {
  if (!SAFE_PATH.test(p) || p.includes('..'))
    throw new Error(`unsafe path for Script-Fu: ${JSON.stringify(p)}`);
  return `"${p}"`;
}

function num(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`not a number: ${v}`);
  return Number.isInteger(v) ? String(v) : v.toFixed(6);
}

function rgb(hex: string): string {
  const h = /^#?([0-9a-fA-F]{6})$/.exec(hex);
  if (!h) throw new Error(`not a colour: ${hex}`);
  return `'(${[0, 2, 4].map((i) => Number.parseInt(h[1]!.slice(i, i + 2), 16)).join(' ')})`;
}

/** Text for a Script-Fu string: the characters our text edits allow, none of them `"` or `\\`. */
function text(t: string): string {
  if (!/^[A-Z0-9 .,:\-/'&()#!?+]+$/.test(t))
    throw new Error(`unsafe text for Script-Fu: ${JSON.stringify(t)}`);
  return `"${t}"`;
}

/** The drawable to act on: the image's layers merged (keeps alpha, unlike flatten). */
const DRW = '(set! drw (car (gimp-image-merge-visible-layers img CLIP-TO-IMAGE)))';

/** A font name as GIMP's font list gives it ("Serif Bold", "DejaVu Sans Mono"). */
function face(f: string): string {
  if (!/^[A-Za-z0-9 -]+$/.test(f)) throw new Error(`unsafe font name for Script-Fu: ${JSON.stringify(f)}`);
  return `"${f}"`;
}

/** Script-Fu for one of our edits, with `img` and `drw` bound; text in `font` (GIMP's default sans). */
function body(e: GimpEdit, font = 'Sans-serif'): string {
  switch (e.op) {
    case 'gimp.export':
      return '';
    case 'gimp.scale':
      return `(gimp-image-scale img ${num(e.width)} ${num(e.height)})`;
    case 'gimp.crop':
      return `(gimp-image-crop img ${num(e.width)} ${num(e.height)} ${num(e.x)} ${num(e.y)})`;
    case 'gimp.flip':
      return `(gimp-image-flip img ${e.axis === 'horizontal' ? 'ORIENTATION-HORIZONTAL' : 'ORIENTATION-VERTICAL'})`;
    case 'gimp.rotate':
      return `(gimp-image-rotate img ${{ 90: 'ROTATE-90', 180: 'ROTATE-180', 270: 'ROTATE-270' }[e.degrees]})`;
    case 'gimp.brightness_contrast':
      return `(gimp-drawable-brightness-contrast drw ${num(e.brightness)} ${num(e.contrast)})`;
    case 'gimp.saturation':
      return `(gimp-drawable-hue-saturation drw HUE-RANGE-ALL 0 0 ${num(Math.round(e.amount * 100))} 0)`;
    case 'gimp.grayscale':
      return e.mode
        ? '(gimp-image-convert-grayscale img)'
        : '(gimp-drawable-desaturate drw DESATURATE-LUMINANCE)';
    case 'gimp.clear_color':
      return [
        '(gimp-layer-add-alpha drw)',
        `(gimp-context-set-sample-threshold-int ${num(e.threshold)})`,
        `(gimp-image-select-color img CHANNEL-OP-REPLACE drw ${rgb(e.color)})`,
        '(gimp-drawable-edit-clear drw)',
        '(gimp-selection-none img)',
      ].join(' ');
    case 'gimp.fill':
      return [
        `(gimp-image-select-rectangle img CHANNEL-OP-REPLACE ${num(e.x)} ${num(e.y)} ${num(e.width)} ${num(e.height)})`,
        `(gimp-context-set-foreground ${rgb(e.color)})`,
        '(gimp-drawable-edit-fill drw FILL-FOREGROUND)',
        '(gimp-selection-none img)',
      ].join(' ');
    case 'gimp.canvas':
      return [
        '(gimp-layer-add-alpha drw)',
        `(gimp-image-resize img ${num(e.width)} ${num(e.height)} ${num(e.x)} ${num(e.y)})`,
        '(gimp-layer-resize-to-image-size drw)',
        ...(e.fill === 'transparent'
          ? []
          : [`(gimp-context-set-background ${rgb(e.fill)})`, '(set! drw (car (gimp-image-flatten img)))']),
      ].join(' ');
    case 'gimp.text':
      // A new text layer in GIMP's default sans (DejaVu Sans here), merged down before the export.
      return [
        `(gimp-context-set-foreground ${rgb(e.color)})`,
        `(gimp-text-fontname img -1 ${num(e.x)} ${num(e.y)} ${text(e.text)} 0 TRUE ${num(e.size)} PIXELS ${face(font)})`,
      ].join(' ');
  }
}

function exportCall(to: string, format: 'png' | 'jpeg', quality: number | undefined): string {
  if (format === 'png')
    return `(file-png-save2 RUN-NONINTERACTIVE img drw ${str(to)} ${str(to)} 0 9 0 0 0 0 0 0 0)`;
  // quality, smoothing, optimize, progressive, comment, subsampling, baseline, restart, dct
  return `(file-jpeg-save RUN-NONINTERACTIVE img drw ${str(to)} ${str(to)} ${num((quality ?? 90) / 100)} 0 1 0 "" 2 1 0 0)`;
}

/** One GIMP step: open `from`, apply the edit, export to `to`. */
export interface GimpStep {
  from: string;
  to: string;
  edit: GimpEdit;
  font?: string;
}

function stepScript(s: GimpStep): string {
  const format = s.edit.format ?? (/\.png$/i.test(s.to) ? 'png' : 'jpeg');
  return [
    `(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE ${str(s.from)} ${str(s.from)}))) (drw 0))`,
    DRW,
    body(s.edit, s.font),
    DRW,
    exportCall(s.to, format, s.edit.quality),
    '(gimp-image-delete img))',
  ].join(' ');
}

/**
 * Runs edits in one GIMP process over a scratch home holding `files`; returns the home's files
 * afterwards (paths home-relative, as the preparers name them). `font` picks the face a text edit
 * is typed in (another than the default, as a person may).
 */
export async function runInGimp(
  files: FileMap,
  edits: GimpEdit[],
  opts: { font?: (e: GimpEdit) => string | undefined } = {},
): Promise<FileMap> {
  const home = mkdtempSync(path.join(tmpdir(), 'forge-gimp-'));
  try {
    for (const [rel, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      writeFileSync(path.join(home, rel), bytes);
    }
    const steps = edits.map((e) => ({
      from: path.join(home, e.path),
      to: path.join(home, e.to ?? e.path),
      edit: e,
      font: opts.font?.(e),
    }));
    for (const s of steps) mkdirSync(path.dirname(s.to), { recursive: true });
    // Fonts load only when an edit writes text (-f skips them, seconds saved on every other run).
    const fonts = edits.some((e) => e.op === 'gimp.text');
    const args = [
      '-i',
      '-n',
      '-d',
      ...(fonts ? [] : ['-f']),
      ...steps.flatMap((s) => ['-b', stepScript(s)]),
      '-b',
      '(gimp-quit 0)',
    ];
    const { stderr } = await run(GIMP, args, {
      timeout: 300_000,
      env: { ...process.env, HOME: path.join(home, '.gimp-home') },
      maxBuffer: 16 * 1024 * 1024,
    });
    if (/batch command experienced an execution error/.test(stderr))
      throw new Error(`GIMP: ${stderr.slice(0, 2000)}`);
    const out: FileMap = {};
    const names = new Set([...Object.keys(files), ...edits.map((e) => e.to ?? e.path)]);
    for (const rel of names) {
      try {
        out[rel] = new Uint8Array(readFileSync(path.join(home, rel)));
      } catch {
        // a file GIMP did not write stays missing
      }
    }
    return out;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
