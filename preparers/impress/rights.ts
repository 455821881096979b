import { curledEdits } from '../office/asTyped.ts';
import type { GenericRightName } from '../types.ts';
import type { Bullet, ImpressEdit } from './schema.ts';

/**
 * Generic correct alternative for Impress (Preparer.rights): `impress-autocorrect-quotes`, every
 * text the oracle types (titles, bullets, notes, table cells) with its quotes curled as AutoCorrect
 * curls them while a person types in Impress too (don't → don’t, "Draft" → “Draft”).
 */
export function impressRights(edits: ImpressEdit[]): { name: GenericRightName; edits: ImpressEdit[] }[] {
  const curled = curledEdits(edits, (e, curl): ImpressEdit => {
    const curlBullet = (b: Bullet): Bullet =>
      typeof b === 'string' ? curl(b) : { ...b, text: curl(b.text) };
    switch (e.op) {
      case 'impress.add_slide':
        return {
          ...e,
          title: curl(e.title),
          bullets: e.bullets.map(curlBullet),
          ...(e.notes !== undefined ? { notes: curl(e.notes) } : {}),
        };
      case 'impress.set_title':
      case 'impress.set_notes':
        return { ...e, text: curl(e.text) };
      case 'impress.set_body':
        return { ...e, bullets: e.bullets.map(curlBullet) };
      case 'impress.add_table':
        return { ...e, table: { ...e.table, rows: e.table.rows.map((r) => r.map(curl)) } };
      default:
        return e;
    }
  });
  return curled ? [{ name: 'impress-autocorrect-quotes', edits: curled }] : [];
}
