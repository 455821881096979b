import type { FileMap } from '../types.ts';
import { applyImpress } from './apply.ts';
import { openPptx, slideTitle } from './deck.ts';
import type { ImpressEdit } from './schema.ts';

type Mutant = { name: string; edit?: number; edits: ImpressEdit[]; also?: ImpressEdit[] };

/** Edits that act on one slide, and so can act on the wrong one. */
const ON_SLIDE = new Set([
  'impress.set_title',
  'impress.set_body',
  'impress.set_notes',
  'impress.set_font',
  'impress.hide_slide',
  'impress.set_background',
  'impress.set_transition',
  'impress.set_layout',
  'impress.add_image',
  'impress.insert_picture',
  'impress.add_table',
  'impress.move_shape',
  'impress.delete_slide',
  'impress.duplicate_slide',
]);

/** How many slides `file` has once the edits before `i` are applied (undefined when it can't be read). */
async function slidesBefore(
  initial: FileMap,
  edits: ImpressEdit[],
  i: number,
  file: string,
): Promise<number | undefined> {
  try {
    const files = await applyImpress(initial, edits.slice(0, i));
    return (await openPptx(files, file)).slides.length;
  } catch {
    return undefined;
  }
}

/**
 * Impress near misses beyond the generic ones (which already move a slide-numbered edit to the
 * next slide): the edit made on the previous slide instead or as well, and a new slide inserted
 * one place early.
 */
/**
 * A slide title mistyped where the task leaves it alone: the first slide no edit names by number
 * (slide 1 when it is one, whose title stays put even when slides move), as the file starts. Where
 * an earlier edit adds or moves slides the typo may land on another: still damage, or, on a slide
 * the oracle rewrites, a state equal to the oracle's that is not counted.
 */
async function strayTitle(
  edits: ImpressEdit[],
  initial: FileMap,
  file: string,
): Promise<ImpressEdit | undefined> {
  const named = new Set(edits.flatMap((e) => ('slide' in e && typeof e.slide === 'number' ? [e.slide] : [])));
  try {
    const deck = await openPptx(initial, file);
    for (const [k, ref] of deck.slides.entries()) {
      if (named.has(k + 1)) continue;
      const title = await slideTitle(deck, ref);
      if (title.length > 1)
        return { op: 'impress.set_title', file, slide: k + 1, text: `${title.slice(0, -2)}${title.at(-1)}` };
    }
  } catch {}
  return undefined;
}

export async function impressMutants(edits: ImpressEdit[], initial: FileMap): Promise<Mutant[]> {
  const out: Mutant[] = [];
  const strays = new Map<string, ImpressEdit | undefined>();
  for (const [i, edit] of edits.entries()) {
    if (!strays.has(edit.file)) strays.set(edit.file, await strayTitle(edits, initial, edit.file));
    const stray = strays.get(edit.file);
    if (stray?.op === 'impress.set_title')
      out.push({
        name: `${edit.op} #${i + 1} and the title of slide ${stray.slide} mistyped (a slide the task leaves alone)`,
        edit: i,
        edits,
        also: [stray],
      });
    const swap = (e: ImpressEdit) => edits.map((x, k) => (k === i ? e : x));
    if (ON_SLIDE.has(edit.op) && 'slide' in edit && typeof edit.slide === 'number' && edit.slide > 1) {
      const beside = { ...edit, slide: edit.slide - 1 } as ImpressEdit;
      out.push({
        name: `${edit.op} #${i + 1} on the previous slide (${edit.slide - 1})`,
        edit: i,
        edits: swap(beside),
      });
      out.push({
        name: `${edit.op} #${i + 1} on the previous slide (${edit.slide - 1}) too`,
        edit: i,
        edits,
        also: [beside],
      });
    }
    if (edit.op === 'impress.add_slide') {
      const count = await slidesBefore(initial, edits, i, edit.file);
      if (count === undefined) continue;
      const at = edit.position ?? count + 1;
      if (at > 1 && at - 1 <= count)
        out.push({
          name: `${edit.op} #${i + 1} at position ${at - 1} instead of ${at}`,
          edit: i,
          edits: swap({ ...edit, position: at - 1 }),
        });
    }
  }
  return out;
}
