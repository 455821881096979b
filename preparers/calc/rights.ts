import { curledEdits } from '../office/asTyped.ts';
import type { GenericRightName } from '../types.ts';
import { tokenize } from './formula.ts';
import type { CalcEdit } from './schema.ts';

/**
 * Generic correct alternatives for Calc (Preparer.rights): the oracle's formulas spelt as a person
 * may type them, same meaning, same results. A rubric that judges formulas by spelling fails them.
 * - `calc-formula-spelling`: function names in lower case, a space after each argument separator
 *   and around binary operators (`=sum(B2:B9)`, `=IF(C2 >= 50, "Pass", "Fail")`);
 * - `calc-absolute-refs`: references of single-cell formulas made absolute (`=SUM($B$2:$B$9)`, the
 *   F4 habit), only when no later edit copies or moves cells (there it would change the meaning).
 */

/** Edits that copy or move formulas, where an absolute reference means something else. */
const MOVES = new Set<CalcEdit['op']>([
  'calc.sort_range',
  'calc.remove_duplicates',
  'calc.copy_range',
  'calc.insert_row',
  'calc.delete_rows',
]);

const BINARY = new Set(['+', '-', '*', '/', '^', '&', '=', '<>', '<', '>', '<=', '>=']);

function sheetPrefix(sheet: string | undefined): string {
  if (sheet === undefined) return '';
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? `${sheet}!` : `'${sheet.replace(/'/g, "''")}'!`;
}

function absolute(ref: string): string {
  return ref.replace(/\$?([A-Za-z]{1,3})\$?([0-9]*)/g, (_, col: string, row: string) =>
    row ? `$${col}$${row}` : `$${col}`,
  );
}

/** The formula written back from its tokens: same tokens, another spelling. */
export function respell(
  formula: string,
  how: { lower?: boolean; spaced?: boolean; absolute?: boolean },
): string {
  let out = '';
  let operand = false; // whether the previous token ends an operand (so `-` is binary)
  for (const t of tokenize(formula)) {
    if (t.t === 'num') out += String(t.v);
    else if (t.t === 'str') out += `"${t.v.replace(/"/g, '""')}"`;
    else if (t.t === 'bool') out += t.v ? 'TRUE' : 'FALSE';
    else if (t.t === 'ref') out += sheetPrefix(t.sheet) + (how.absolute ? absolute(t.ref) : t.ref);
    else if (t.t === 'fn') out += `${how.lower ? t.v.toLowerCase() : t.v}(`;
    else if (t.v === ',' || t.v === ';') out += how.spaced ? ', ' : ',';
    else if (how.spaced && operand && BINARY.has(t.v)) out += ` ${t.v} `;
    else out += t.v;
    operand = t.t === 'num' || t.t === 'str' || t.t === 'bool' || t.t === 'ref' || t.v === ')' || t.v === '%';
  }
  return out;
}

function mapFormulas(
  edits: CalcEdit[],
  ops: ReadonlySet<CalcEdit['op']>,
  how: Parameters<typeof respell>[1],
): CalcEdit[] | undefined {
  let changed = false;
  const out = edits.map((e) => {
    if (!ops.has(e.op) || (e.op !== 'calc.set_formula' && e.op !== 'calc.fill_formula')) return e;
    let formula: string;
    try {
      formula = respell(e.formula, how);
    } catch {
      return e; // a formula our tokenizer cannot read is left as the oracle wrote it
    }
    if (formula === e.formula.replace(/^\s*=/, '')) return e;
    changed = true;
    return { ...e, formula };
  });
  return changed ? out : undefined;
}

export function calcRights(edits: CalcEdit[]): { name: GenericRightName; edits: CalcEdit[] }[] {
  const out: { name: GenericRightName; edits: CalcEdit[] }[] = [];
  const spelt = mapFormulas(edits, new Set(['calc.set_formula', 'calc.fill_formula']), {
    lower: true,
    spaced: true,
  });
  if (spelt) out.push({ name: 'calc-formula-spelling', edits: spelt });
  if (!edits.some((e) => MOVES.has(e.op))) {
    const pinned = mapFormulas(edits, new Set(['calc.set_formula']), { absolute: true });
    if (pinned) out.push({ name: 'calc-absolute-refs', edits: pinned });
  }
  const curled = typedInCalc(edits);
  if (curled) out.push({ name: 'calc-autocorrect-quotes', edits: curled });
  return out;
}

/**
 * `calc-autocorrect-quotes`: the text the oracle types into cells with its quotes curled, as Calc's
 * AutoCorrect curls them while a person types (O'Brien → O’Brien).
 */
function typedInCalc(edits: CalcEdit[]): CalcEdit[] | undefined {
  const text = <V>(v: V, curl: (t: string) => string): V => (typeof v === 'string' ? (curl(v) as V) : v);
  return curledEdits(edits, (e, curl): CalcEdit => {
    if (e.op === 'calc.set_value') return { ...e, value: text(e.value, curl) };
    if (e.op === 'calc.set_values')
      return { ...e, values: e.values.map((row) => row.map((v) => text(v, curl))) };
    return e;
  });
}
