import type { GenericRightName } from '../types.ts';
import type { ThunderbirdEdit } from './schema.ts';

/**
 * Generic correct alternatives for Thunderbird (Preparer.rights):
 * - `thunderbird-filter-name`: every new filter named as a person might name it, not as the oracle
 *   did (a skill whose instruction fixes the name turns this off with that reason);
 * - `thunderbird-filter-run-existing`: every new filter that moves or copies mail also run on the
 *   Inbox right away (Run Now), so the matching mail already there is filed too (a skill whose
 *   instruction says "only new mail" turns this off).
 */
export function thunderbirdRights(
  edits: ThunderbirdEdit[],
): { name: GenericRightName; edits: ThunderbirdEdit[] }[] {
  const out: { name: GenericRightName; edits: ThunderbirdEdit[] }[] = [];
  const filters = edits.filter((e) => e.op === 'thunderbird.add_filter');
  if (filters.length === 0) return out;
  let n = 0;
  out.push({
    name: 'thunderbird-filter-name',
    edits: edits.map((e) => {
      if (e.op !== 'thunderbird.add_filter') return e;
      n++;
      const name = filters.length > 1 ? `My filter ${n}` : 'My filter';
      return { ...e, filter: { ...e.filter, name: name === e.filter.name ? `${name} (new)` : name } };
    }),
  });
  const files = (e: Extract<ThunderbirdEdit, { op: 'thunderbird.add_filter' }>) =>
    e.runOn === undefined && e.filter.actions.some((a) => a.action === 'move' || a.action === 'copy');
  if (filters.some((e) => e.op === 'thunderbird.add_filter' && files(e)))
    out.push({
      name: 'thunderbird-filter-run-existing',
      edits: edits.map((e) => (e.op === 'thunderbird.add_filter' && files(e) ? { ...e, runOn: 'Inbox' } : e)),
    });
  return out;
}
