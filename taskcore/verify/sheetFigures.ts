import { FIGURE_PATTERN } from '../../preparers/proseFigures.ts';
import { isWorkbook, prose, SENTENCE } from './proseOf.ts';

/**
 * A figure in prose that is not the one the task's sheet holds, for the coherence node
 * (coherence.ts). Deliberately narrow, like eventDates.ts: only a label that names one figure for
 * sure, quoted with its number at once.
 */
interface Sheet {
  columns?: { header?: unknown }[];
  rows?: unknown[][];
  cells?: { cell?: unknown; value?: unknown }[];
  formulas?: { cell?: unknown; result?: unknown }[];
}
const UNKNOWN = Symbol('unknown');
type Grid = Map<string, unknown>;

function cellKey(ref: unknown): string | undefined {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)$/.exec(String(ref));
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + ch.charCodeAt(0) - 64;
  return `${Number(m[2]) - 1},${col - 1}`;
}

/** The sheet's cells by "row,col" (both from 0), as it is first opened: a formula without a cached result is unknown. */
function grid(s: Sheet): Grid {
  const g: Grid = new Map();
  const cols = s.columns ?? [];
  for (const [i, c] of cols.entries()) g.set(`0,${i}`, c.header);
  const first = cols.length > 0 ? 1 : 0;
  for (const [r, row] of (s.rows ?? []).entries())
    for (const [c, v] of row.entries()) g.set(`${r + first},${c}`, v);
  for (const { cell, value } of s.cells ?? []) {
    const k = cellKey(cell);
    if (k) g.set(k, value);
  }
  for (const { cell, result } of s.formulas ?? []) {
    const k = cellKey(cell);
    if (k) g.set(k, typeof result === 'number' ? result : UNKNOWN);
  }
  return g;
}

const fold = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The figures a sheet gives a label for sure: a text cell whose right-hand neighbour is a number
 * and the last number of its row ("Travel | 1240.50"), or a column header over a single value.
 * A label written in more than one cell of the workbooks (a category on many rows) names nothing.
 */
function labelledFigures(docs: unknown[]): Map<string, number> {
  const seen = new Map<string, number>();
  const figures = new Map<string, number | typeof UNKNOWN>();
  for (const doc of docs) {
    if (!doc || typeof doc !== 'object' || !isWorkbook(doc)) continue;
    for (const sheet of (doc as { sheets: Sheet[] }).sheets) {
      const g = grid(sheet);
      // The column of the last number (or sum) in each row: a label's figure is the row's last.
      const lastNumber = new Map<number, number>();
      for (const [k, v] of g) {
        const [r, c] = k.split(',').map(Number) as [number, number];
        if (typeof v === 'number' || v === UNKNOWN) lastNumber.set(r, Math.max(c, lastNumber.get(r) ?? -1));
      }
      for (const [k, v] of g) {
        if (typeof v !== 'string' || !/\p{L}/u.test(v) || v.trim().length < 3) continue;
        const label = fold(v);
        seen.set(label, (seen.get(label) ?? 0) + 1);
        const [r, c] = k.split(',').map(Number) as [number, number];
        const right = g.get(`${r},${c + 1}`);
        if ((typeof right === 'number' || right === UNKNOWN) && lastNumber.get(r) === c + 1)
          figures.set(label, right);
        else if (r === 0 && (sheet.columns?.length ?? 0) > 0 && (sheet.rows?.length ?? 0) === 1) {
          const below = g.get(`1,${c}`);
          if (typeof below === 'number' || below === UNKNOWN) figures.set(label, below);
        }
      }
    }
  }
  const out = new Map<string, number>();
  for (const [label, v] of figures) if (seen.get(label) === 1 && typeof v === 'number') out.set(label, v);
  return out;
}

const NUMBER = `(${FIGURE_PATTERN})`;
/** Prose that states a figure about the label ("Travel: 1,240.50", "travel came to £1,240.50"). */
const SAYS = String.raw`\s*(?::|=|[-–—]|\s(?:is|was|came to|comes to|totals|totalled|totaled|stands at|stood at))\s*(?:[$£€]\s?|(?:USD|EUR|GBP)\s)?`;
/** The figure ends its clause: "1,240.50." or "1,240.50 and …", not "3 trips" or "1,240 in March". */
const ENDS = String.raw`(%?)(?:\s?(?:USD|EUR|GBP|euros?|dollars?|pounds?))?(?=$|[.,;:!?)\n]|\s+(?:and|but|while|whereas)\b)`;
/** Said of a figure that is not meant as the sheet's: estimates and the change the task asks for. */
const NOT_EXACT =
  /\b(?:about|around|roughly|nearly|almost|approximately|over|under|some|more than|less than|at least|up to|should|now|new|update|updated|change|changed|correct|corrected|revised|instead|increase|increased|decrease|decreased|budget(?:ed)?|target|forecast|estimate[sd]?|expected|last year|previous)\b|~/i;

const sameFigure = (said: number, decimals: number, percent: boolean, held: number) =>
  [held, ...(percent ? [held * 100] : [])].some((v) => Math.abs(v - said) < 10 ** -decimals / 2 + 1e-9);

/**
 * A figure the prose gives a sheet's label that the sheet (as the task starts) does not hold. The
 * rule is mechanical: the label's exact words open a clause ("Travel: 1,240.50", "The travel total
 * …" is not it), a number follows at once and ends the clause, and the label names one figure in
 * the workbooks (labelledFigures). Figures the task asks for (in its instruction or its changes),
 * estimates, rounding to the prose's decimals and percentages of a fraction are not contradictions.
 */
export function sheetFigureProblems(instruction: string, docs: unknown[], changes: unknown): string[] {
  const figures = labelledFigures(docs);
  if (figures.size === 0) return [];
  const asked = new Set(
    `${instruction} ${JSON.stringify(changes ?? null)}`
      .match(/\d[\d,]*(?:\.\d+)?/g)
      ?.map((n) => Number(n.replaceAll(',', ''))),
  );
  const out: string[] = [];
  const says = new RegExp(`${SAYS}${NUMBER}${ENDS}`, 'gi');
  for (const [text] of prose(docs)) {
    for (const m of text.matchAll(says)) {
      // The label is the last few words before the figure, opening its clause.
      const from = Math.max(0, m.index - 300);
      const before = text.slice(from, m.index);
      // A cut-off first word is no word; text cut off before the label does not open its clause.
      const words = before
        .trimEnd()
        .split(/\s+/)
        .slice(from > 0 ? 1 : 0);
      let label: string | undefined;
      for (let k = 1; k <= Math.min(6, words.length) && !label; k++) {
        const candidate = words.slice(-k).join(' ');
        const opens = words.slice(0, -k).join(' ');
        if (
          figures.has(fold(candidate)) &&
          ((opens === '' && from === 0) || /(?:[.;:!?(]|\b(?:the|and|our))$/i.test(opens))
        )
          label = candidate;
      }
      if (!label) continue;
      const held = figures.get(fold(label))!;
      const said = Number(m[1]!.replaceAll(',', ''));
      const decimals = m[1]!.split('.')[1]?.length ?? 0;
      const end = m.index + m[0].length;
      const sentence = `${before.split(SENTENCE).pop()}${text.slice(m.index, end)}${text.slice(end, end + 300).split(SENTENCE)[0]}`;
      if (NOT_EXACT.test(sentence) || asked.has(said)) continue;
      if (!sameFigure(said, decimals, m[2] === '%', held))
        out.push(`"${label}" is ${m[1]}${m[2]} in the text and ${held} in the sheet`);
    }
  }
  return [...new Set(out)];
}
