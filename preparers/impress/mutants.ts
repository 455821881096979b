import type { FileMap } from '../types.ts';
import { applyImpress } from './apply.ts';
import { openPptx } from './deck.ts';
import type { ImpressEdit } from './schema.ts';

type Mutant = { name: string; edit?: number; edits: ImpressEdit[] };

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
 * next slide): the edit made on the previous slide, and a new slide inserted one place early.
 */
export async function impressMutants(edits: ImpressEdit[], initial: FileMap): Promise<Mutant[]> {
  const out: Mutant[] = [];
  for (const [i, edit] of edits.entries()) {
    const swap = (e: ImpressEdit) => edits.map((x, k) => (k === i ? e : x));
    if (ON_SLIDE.has(edit.op) && 'slide' in edit && typeof edit.slide === 'number' && edit.slide > 1)
      out.push({
        name: `${edit.op} #${i + 1} on the previous slide (${edit.slide - 1})`,
        edit: i,
        edits: swap({ ...edit, slide: edit.slide - 1 } as ImpressEdit),
      });
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
