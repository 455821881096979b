import { z } from 'zod';
import { safeRelativePath } from '../paths.ts';
import { FEATURES, SCENES, SCREENS } from './sceneKinds.ts';

/** The characters the oracle can draw (text.ts); a spec's text is limited to them (and so kept safe for Script-Fu). */
const TEXT_CHARS = /^[A-Z0-9 .,:\-/'&()#!?+]+$/;

/** The image formats the preparer writes and the checks read, by file extension. */
export const IMAGE_EXT = /\.(png|jpe?g)$/i;
export type ImageFormat = 'png' | 'jpeg';

export function formatOfPath(path: string): ImageFormat | undefined {
  const m = IMAGE_EXT.exec(path);
  if (!m) return undefined;
  return m[1]!.toLowerCase() === 'png' ? 'png' : 'jpeg';
}

const imagePath = safeRelativePath.refine((p) => formatOfPath(p) !== undefined, {
  message: 'an image path ending in .png, .jpg or .jpeg',
});
const hex = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/, 'a colour as six hex digits, e.g. "#2e7d32"')
  .describe('A colour as hex, e.g. "#2e7d32".');
const px = z.number().int().min(0).max(8000);
const size = z.number().int().min(1).max(8000);
const quality = z
  .number()
  .int()
  .min(1)
  .max(100)
  .describe('JPEG quality 1–100 (libjpeg scale; GIMP default 90).');

export const docSchema = z
  .strictObject({
    scene: z
      .enum(SCENES)
      .describe(
        'What the picture shows: a photo-like landscape, a logo on a flat background, a scanned page, an app screenshot, a product shot.',
      ),
    width: z.number().int().min(16).max(2400),
    height: z.number().int().min(16).max(2400),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31)
      .describe('Varies the composition (positions, sizes, grain).'),
    accent: hex.optional().describe('The main colour (sky, mark, stamp, product).'),
    background: hex.optional().describe('Flat background of a logo or product shot (default white).'),
    feature: z
      .enum(['none', ...FEATURES])
      .optional()
      .describe(
        'What stands in a landscape: a shed, a house, a boat, a tent, a market stall or a bandstand (none: only hills, a lake and trees).',
      ),
    screen: z
      .enum(SCREENS)
      .optional()
      .describe(
        "A screenshot's window: cards (default), a sales dashboard, a rota planner or a ticket queue.",
      ),
    quality: quality
      .optional()
      .describe('For a .jpg/.jpeg target: the JPEG quality it is saved at (default 90).'),
    turn: z
      .union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)])
      .default(0)
      .describe(
        'The picture as saved turned clockwise by this much (a page scanned sideways or upside down).',
      ),
  })
  .describe('One picture, written to the prepare target as PNG or JPEG (from its extension).');
export type GimpDoc = z.infer<typeof docSchema>;

/** Where an edit reads and writes: the source image, and the file GIMP exports to (default: over it). */
const io = {
  path: imagePath.describe('The image opened in GIMP.'),
  to: imagePath.optional().describe('The file exported to (default: overwrite the opened image).'),
  format: z
    .enum(['png', 'jpeg'])
    .optional()
    .describe('Format written, default from the extension of `to` (a different one names a file wrongly).'),
  quality: quality.optional(),
};

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({ op: z.literal('gimp.export'), ...io })
    .describe('Open and export unchanged (another format or quality).'),
  z
    .strictObject({ op: z.literal('gimp.scale'), ...io, width: size, height: size })
    .describe('Image > Scale Image to width × height pixels.'),
  z
    .strictObject({ op: z.literal('gimp.crop'), ...io, x: px, y: px, width: size, height: size })
    .describe('Crop to the rectangle (pixels from the top-left).'),
  z
    .strictObject({ op: z.literal('gimp.flip'), ...io, axis: z.enum(['horizontal', 'vertical']) })
    .describe('Image > Transform > Flip (horizontal mirrors left and right).'),
  z
    .strictObject({
      op: z.literal('gimp.rotate'),
      ...io,
      degrees: z.union([z.literal(90), z.literal(180), z.literal(270)]),
    })
    .describe('Image > Transform > Rotate clockwise by 90, 180 or 270 degrees.'),
  z
    .strictObject({
      op: z.literal('gimp.brightness_contrast'),
      ...io,
      brightness: z.number().min(-1).max(1).default(0),
      contrast: z.number().min(-1).max(1).default(0),
    })
    .describe('Colors > Brightness-Contrast, both in -1…1 (GIMP’s dialog shows -127…127).'),
  z
    .strictObject({ op: z.literal('gimp.saturation'), ...io, amount: z.number().min(-1).max(1) })
    .describe('Colors > Hue-Saturation: saturation scaled by 1 + amount (GIMP’s -100…100).'),
  z
    .strictObject({
      op: z.literal('gimp.grayscale'),
      ...io,
      mode: z
        .boolean()
        .default(true)
        .describe('Image > Mode > Grayscale (true) or Colors > Desaturate keeping RGB (false).'),
    })
    .describe('Remove the colour.'),
  z
    .strictObject({
      op: z.literal('gimp.clear_color'),
      ...io,
      color: hex,
      threshold: z
        .number()
        .int()
        .min(0)
        .max(255)
        .default(16)
        .describe('Largest channel difference still selected.'),
    })
    .describe('Select by Color and clear: those pixels become transparent (alpha added).'),
  z
    .strictObject({ op: z.literal('gimp.fill'), ...io, x: px, y: px, width: size, height: size, color: hex })
    .describe('Fill a rectangle with a colour (a redaction box, a banner).'),
  z
    .strictObject({
      op: z.literal('gimp.canvas'),
      ...io,
      width: size,
      height: size,
      x: z.number().int().min(-8000).max(8000).describe('Offset of the image on the new canvas.'),
      y: z.number().int().min(-8000).max(8000),
      fill: z.union([hex, z.literal('transparent')]).default('transparent'),
    })
    .describe('Image > Canvas Size with the new area filled (a border, padding to a square).'),
  z
    .strictObject({
      op: z.literal('gimp.text'),
      ...io,
      text: z
        .string()
        .min(1)
        .max(60)
        .regex(TEXT_CHARS, "capitals, digits, spaces and . , : - / ' & ( ) # ! ? +")
        .describe('One line of text, as typed.'),
      x: px.describe('Left of the text box (the Text tool’s click point).'),
      y: px.describe('Top of the text box.'),
      size: z.number().int().min(6).max(400).describe('Font size in pixels (GIMP’s default unit).'),
      color: hex,
    })
    .describe('Text tool: one line in the default sans, merged into the picture on export.'),
]);
export type GimpEdit = z.infer<typeof editSchema>;

/** Side of the comparison grid: images are compared as 16 × 16 cells of mean premultiplied RGBA. */
export const GRID = 16;

const tolerance = z
  .number()
  .min(0)
  .max(255)
  .default(10)
  .describe('Largest mean absolute difference over the grid’s cells and channels (0–255).');
const worst = z
  .number()
  .min(0)
  .max(255)
  .default(64)
  .describe('Largest difference of any one cell’s channel.');

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('gimp.image'),
      path: imagePath,
      format: z.enum(['png', 'jpeg']).optional().describe('The format read from the bytes, not the name.'),
      width: size.optional(),
      height: size.optional(),
      alpha: z.boolean().optional().describe('PNG: has an alpha channel or tRNS; a JPEG has none.'),
      gray: z.boolean().optional().describe('Stored as grey (PNG colour type 0/4, a one-component JPEG).'),
      quality: z
        .strictObject({ min: quality.optional(), max: quality.optional() })
        .optional()
        .describe('JPEG: the quality its quantisation tables were scaled for.'),
      progressive: z.boolean().optional(),
    })
    .describe('The file is an image with these header properties (read without decoding pixels).'),
  z
    .strictObject({
      kind: z.literal('gimp.matches'),
      path: imagePath,
      reference: imagePath.describe('A PNG of the task to compare with, transformed as below first.'),
      crop: z
        .strictObject({ x: px, y: px, width: size, height: size })
        .optional()
        .describe('The part of the reference the result should show.'),
      area: z
        .strictObject({ x: px, y: px, width: size, height: size })
        .optional()
        .describe('The part of the result compared (default all of it): the picture inside a border.'),
      rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
      flip: z.enum(['horizontal', 'vertical']).optional(),
      gray: z.boolean().default(false),
      normalize: z
        .boolean()
        .default(false)
        .describe(
          'Move both grids’ colour to the same mean and spread first: the picture is the same, only lighter, darker or more contrasted.',
        ),
      tolerance,
      worst,
    })
    .describe(
      'A PNG looks like the reference after crop → rotate → flip → grey (compared on the 16 × 16 grid of mean premultiplied RGBA, any size).',
    ),
  z
    .strictObject({
      kind: z.literal('gimp.measure'),
      path: imagePath,
      measure: z
        .enum(['brightness', 'saturation', 'contrast', 'transparent'])
        .describe(
          'Mean luma, mean HSV saturation (0–255), luma standard deviation, share of pixels with alpha < 128 (0–1).',
        ),
      min: z.number().optional(),
      max: z.number().optional(),
      reference: imagePath.optional().describe('Compare with the same measure of this PNG.'),
      change: z.enum(['increase', 'decrease']).optional(),
      by: z.number().min(0).default(0).describe('With change: by more than this.'),
    })
    .refine(
      (c) => (c.reference === undefined) === (c.change === undefined),
      'reference and change go together',
    )
    .describe('A pixel statistic of a PNG within bounds, or changed against a reference image.'),
  z
    .strictObject({
      kind: z.literal('gimp.region'),
      path: imagePath,
      x: px,
      y: px,
      width: size,
      height: size,
      color: hex,
      within: z.number().int().min(0).max(255).default(24).describe('Largest channel difference from color.'),
      coverage: z
        .number()
        .min(0)
        .max(1)
        .default(0.95)
        .describe('Share of the box’s pixels (opaque and near color) needed.'),
    })
    .describe('A rectangle of a PNG is (almost all) one colour.'),
  z
    .strictObject({
      kind: z.literal('gimp.text'),
      path: imagePath,
      reference: imagePath.describe('The PNG before the text was added, same size.'),
      x: px,
      y: px,
      width: size,
      height: size,
      color: hex.describe('The colour of the lettering.'),
      within: z
        .number()
        .int()
        .min(0)
        .max(255)
        .default(64)
        .describe('Largest channel difference from color of a lettering pixel (antialiased edges fall out).'),
      differ: z
        .number()
        .int()
        .min(0)
        .max(255)
        .default(64)
        .describe('A lettering pixel differs from the reference’s by more than this in some channel.'),
      inkHeight: z
        .strictObject({ min: size.optional(), max: size.optional() })
        .optional()
        .describe('Bounds on the height of the lettering (its bounding box), pixels: the font size asked.'),
      inkWidth: z
        .strictObject({ min: size.optional(), max: size.optional() })
        .optional()
        .describe('Bounds on its width: the whole line typed, not a letter or two.'),
      strokes: z
        .number()
        .min(0)
        .default(3)
        .describe('Fewest runs of lettering pixels per row that has any (a filled box or a smear has one).'),
      fill: z
        .number()
        .min(0)
        .max(1)
        .default(0.75)
        .describe('Largest share of its bounding box the lettering fills (a solid block fills all of it).'),
    })
    .describe(
      'New lettering of a colour inside a box of a PNG: pixels near the colour that the reference does not have, as tall and wide as asked, broken into strokes. It reads no words (no OCR): the spelling is not checked.',
    ),
  z
    .strictObject({
      kind: z.literal('gimp.unchanged'),
      path: imagePath,
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    })
    .describe('Invariant: the image file still holds exactly these bytes.'),
]);
export type GimpCheck = z.infer<typeof checkSchema>;
