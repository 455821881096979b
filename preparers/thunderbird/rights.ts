import type { GenericRightName } from '../types.ts';
import type { ThunderbirdEdit } from './schema.ts';

/**
 * Generic correct alternatives for Thunderbird (Preparer.rights):
 * - `thunderbird-filter-name`: every new filter named as a person might name it, not as the oracle
 *   did (a skill whose instruction fixes the name turns this off with that reason);
 * - `thunderbird-filter-run-existing`: every new filter that moves or copies mail also run on the
 *   Inbox right away (Run Now), so the matching mail already there is filed too (a skill whose
 *   instruction says "only new mail" turns this off);
 * - `thunderbird-figure-format`: every figure of a new message's body written as a person may write
 *   money (a currency sign, thousands separators, no trailing zero: 15917.90 → £15,917.9), where a
 *   body states a figure of four digits or more, or with decimals.
 */
export function thunderbirdRights(
  edits: ThunderbirdEdit[],
): { name: GenericRightName; edits: ThunderbirdEdit[] }[] {
  const out: { name: GenericRightName; edits: ThunderbirdEdit[] }[] = [];
  const figures = edits.map((e) => (e.op === 'thunderbird.save_draft' ? reformatFigures(e.body) : undefined));
  if (figures.some((b) => b !== undefined))
    out.push({
      name: 'thunderbird-figure-format',
      edits: edits.map((e, i) =>
        e.op === 'thunderbird.save_draft' && figures[i] !== undefined ? { ...e, body: figures[i]! } : e,
      ),
    });
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

/** A plain figure in prose (not part of a date, a time, an address or a longer token). */
const PLAIN_FIGURE = /(?<![\w.,:/@-])(\d{4,}(?:\.\d+)?|\d+\.\d+)(?![\w.,:/@-]|\.\d)/g;

/** The body with each figure written as money, or undefined when it states none. */
function reformatFigures(body: string): string | undefined {
  let any = false;
  const out = body.replace(PLAIN_FIGURE, (figure: string) => {
    const [whole, decimals = ''] = figure.split('.');
    const trimmed = decimals.replace(/0+$/, '');
    any = true;
    return `£${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${trimmed ? `.${trimmed}` : ''}`;
  });
  return any ? out : undefined;
}
