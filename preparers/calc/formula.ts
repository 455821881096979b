import { type Cell, parseCell, parseRange, type Range } from './a1.ts';

/**
 * A small spreadsheet formula evaluator, so formula cells written by build/apply carry cached
 * results that probes (and viewers that do not recalculate) see. LibreOffice recalculates on
 * load anyway; the integration tests compare both. Supported: numbers, strings, booleans, cell
 * and range references (optionally `Sheet!` / `'My sheet'!`), + - * / ^ & %, comparisons, and
 * SUM AVERAGE MIN MAX COUNT COUNTA COUNTIF SUMIF AVERAGEIF IF IFERROR AND OR NOT ROUND ROUNDUP
 * ROUNDDOWN ABS INT MOD SQRT POWER LEN UPPER LOWER TRIM CONCATENATE CONCAT LEFT RIGHT VLOOKUP.
 */

export type Scalar = number | string | boolean | null;
type Value = Scalar | Scalar[][] | FormulaError;

export class FormulaError {
  constructor(readonly code: string) {}
}

/** Reads a cell's current value (its cached result when it is a formula). */
export type CellReader = ((sheet: string, cell: Cell) => Scalar | FormulaError) & {
  /** The last used row of a sheet, so whole-column references ("B:B") read only used rows. */
  lastRow?: (sheet: string) => number;
};

/** The row count of a whole-column reference: the sheet's full height. */
export const WHOLE_COLUMN_ROWS = 1_048_576;

type Token =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'ref'; sheet: string | undefined; ref: string }
  | { t: 'fn'; v: string }
  | { t: 'op'; v: string };

const REF = String.raw`(?:\$?[A-Z]{1,3}\$?[0-9]+(?::\$?[A-Z]{1,3}\$?[0-9]+)?|\$?[A-Z]{1,3}:\$?[A-Z]{1,3})`;
const TOKEN = new RegExp(
  String.raw`\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|"((?:[^"]|"")*)"|(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!(${REF})|(${REF})(?![A-Za-z0-9_(])|(TRUE|FALSE)(?![A-Za-z0-9_(])|([A-Za-z_][A-Za-z0-9_.]*)\s*\(|(<>|<=|>=|[-+*/^&%=<>(),:;]))`,
  'iy',
);

export function tokenize(formula: string): Token[] {
  const src = formula.replace(/^\s*=/, '');
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) throw new Error(`cannot read formula "${formula}" at "${src.slice(at, at + 12)}"`);
    if (m[1] !== undefined) out.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ t: 'str', v: m[2].replace(/""/g, '"') });
    else if (m[5] !== undefined) out.push({ t: 'ref', sheet: m[3]?.replace(/''/g, "'") ?? m[4], ref: m[5] });
    else if (m[6] !== undefined) out.push({ t: 'ref', sheet: undefined, ref: m[6] });
    else if (m[7] !== undefined) out.push({ t: 'bool', v: m[7].toUpperCase() === 'TRUE' });
    else if (m[8] !== undefined) out.push({ t: 'fn', v: m[8].toUpperCase() });
    else out.push({ t: 'op', v: m[9] === ';' ? ',' : m[9] });
  }
  return out;
}

type Node =
  | { k: 'lit'; v: Scalar }
  | { k: 'ref'; sheet: string | undefined; range: Range }
  | { k: 'un'; op: string; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'call'; fn: string; args: Node[] };

const PREC: Record<string, number> = {
  '=': 1,
  '<>': 1,
  '<': 1,
  '>': 1,
  '<=': 1,
  '>=': 1,
  '&': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
  '^': 5,
};

/** A1 range of a reference token; "B:D" spans whole columns. */
function refRange(ref: string): Range {
  const bare = ref.replace(/\$/g, '');
  const cols = /^([A-Z]{1,3}):([A-Z]{1,3})$/i.exec(bare);
  if (!cols) return parseRange(bare);
  const r = parseRange(`${cols[1]}1:${cols[2]}1`);
  return { ...r, top: 1, bottom: WHOLE_COLUMN_ROWS };
}

/** The ranges a formula reads (its direct precedents), with the sheet each is on. */
export function precedents(formula: string, sheet: string): { sheet: string; range: Range }[] {
  const out: { sheet: string; range: Range }[] = [];
  const walk = (n: Node) => {
    if (n.k === 'ref') out.push({ sheet: n.sheet ?? sheet, range: n.range });
    else if (n.k === 'un') walk(n.a);
    else if (n.k === 'bin') {
      walk(n.a);
      walk(n.b);
    } else if (n.k === 'call') n.args.forEach(walk);
  };
  walk(parseFormula(formula));
  return out;
}

/** The functions a formula calls, upper-case. */
export function functionsCalled(formula: string): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.k === 'un') walk(n.a);
    else if (n.k === 'bin') {
      walk(n.a);
      walk(n.b);
    } else if (n.k === 'call') {
      out.push(n.fn);
      n.args.forEach(walk);
    }
  };
  walk(parseFormula(formula));
  return out;
}

export function parseFormula(formula: string): Node {
  const toks = tokenize(formula);
  let i = 0;
  const peek = () => toks[i];
  const expectOp = (v: string) => {
    const t = toks[i++];
    if (t?.t !== 'op' || t.v !== v) throw new Error(`formula "${formula}": expected "${v}"`);
  };
  const primary = (): Node => {
    const t = toks[i++];
    if (!t) throw new Error(`formula "${formula}" ends too early`);
    let node: Node;
    if (t.t === 'num') node = { k: 'lit', v: t.v };
    else if (t.t === 'str') node = { k: 'lit', v: t.v };
    else if (t.t === 'bool') node = { k: 'lit', v: t.v };
    else if (t.t === 'ref') node = { k: 'ref', sheet: t.sheet, range: refRange(t.ref) };
    else if (t.t === 'fn') {
      const args: Node[] = [];
      if (!(peek()?.t === 'op' && (peek() as { v: string }).v === ')')) {
        for (;;) {
          args.push(expr(0));
          const n = toks[i];
          if (n?.t === 'op' && n.v === ',') i++;
          else break;
        }
      }
      expectOp(')');
      node = { k: 'call', fn: t.v, args };
    } else if (t.v === '(') {
      node = expr(0);
      expectOp(')');
    } else if (t.v === '-' || t.v === '+') {
      // Unary minus binds tighter than ^ in spreadsheets: -2^2 = 4.
      node = { k: 'un', op: t.v, a: primary() };
    } else throw new Error(`formula "${formula}": unexpected "${t.v}"`);
    while (peek()?.t === 'op' && (peek() as { v: string }).v === '%') {
      i++;
      node = { k: 'un', op: '%', a: node };
    }
    return node;
  };
  const expr = (min: number): Node => {
    let left = primary();
    for (;;) {
      const t = peek();
      if (t?.t !== 'op' || PREC[t.v] === undefined || PREC[t.v] <= min) break;
      i++;
      // ^ is right-associative; everything else left-associative.
      const right = expr(t.v === '^' ? PREC[t.v] - 0.5 : PREC[t.v]);
      left = { k: 'bin', op: t.v, a: left, b: right };
    }
    return left;
  };
  const node = expr(0);
  if (i < toks.length) throw new Error(`formula "${formula}": unexpected trailing input`);
  return node;
}

const isErr = (v: unknown): v is FormulaError => v instanceof FormulaError;

function flat(v: Value): Scalar[] {
  if (Array.isArray(v)) return v.flat();
  return isErr(v) ? [] : [v];
}

function num(v: Value): number | FormulaError {
  if (isErr(v)) return v;
  if (Array.isArray(v)) return num(v[0]?.[0] ?? null);
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : new FormulaError('#VALUE!');
}

function str(v: Scalar): string {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

function scalar(v: Value): Scalar | FormulaError {
  return Array.isArray(v) ? (v[0]?.[0] ?? null) : v;
}

/** COUNTIF-style criteria: ">10", "<=5", "<>x", "=x", "x", 7. */
function criterion(c: Scalar): (v: Scalar) => boolean {
  if (typeof c === 'number' || typeof c === 'boolean') return (v) => v === c;
  const m = /^(<>|<=|>=|=|<|>)?(.*)$/s.exec(str(c))!;
  const op = m[1] ?? '=';
  const rhs = m[2];
  const rhsNum = rhs.trim() !== '' && Number.isFinite(Number(rhs)) ? Number(rhs) : undefined;
  return (v) => {
    if (rhsNum !== undefined && typeof v === 'number') {
      return compare(op, v, rhsNum);
    }
    if (rhsNum !== undefined && op !== '=' && op !== '<>') return false;
    const a = str(v).toLowerCase();
    const b = rhs.toLowerCase();
    if (op === '=' || op === '<>') {
      const re = new RegExp(
        `^${b
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        's',
      );
      return op === '=' ? re.test(a) : !re.test(a);
    }
    return compare(op, a, b);
  };
}

function compare(op: string, a: number | string | boolean, b: number | string | boolean): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '<>':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    default:
      return a >= b;
  }
}

function round(x: number, digits: number, mode: 'near' | 'up' | 'down'): number {
  const f = 10 ** digits;
  const v = Math.abs(x) * f;
  const r =
    mode === 'near'
      ? Math.round(Number(v.toPrecision(15)))
      : mode === 'up'
        ? Math.ceil(v - 1e-9)
        : Math.floor(v + 1e-9);
  return (Math.sign(x) * r) / f;
}

const SUBTOTAL_FUNCTIONS: Record<number, string> = {
  1: 'AVERAGE',
  2: 'COUNT',
  3: 'COUNTA',
  4: 'MAX',
  5: 'MIN',
  9: 'SUM',
};

export function evaluate(formula: string, sheet: string, read: CellReader): Scalar | FormulaError {
  const ev = (n: Node): Value => {
    switch (n.k) {
      case 'lit':
        return n.v;
      case 'ref': {
        const s = n.sheet ?? sheet;
        const rows: Scalar[][] = [];
        const bottom =
          n.range.bottom === WHOLE_COLUMN_ROWS
            ? Math.min(WHOLE_COLUMN_ROWS, read.lastRow?.(s) ?? 10_000)
            : n.range.bottom;
        for (let r = n.range.top; r <= bottom; r++) {
          const row: Scalar[] = [];
          for (let c = n.range.left; c <= n.range.right; c++) {
            const v = read(s, { row: r, col: c });
            if (isErr(v)) return v;
            row.push(v);
          }
          rows.push(row);
        }
        return rows.length === 1 && rows[0].length === 1 ? rows[0][0] : rows;
      }
      case 'un': {
        const a = num(ev(n.a));
        if (isErr(a)) return a;
        return n.op === '-' ? -a : n.op === '%' ? a / 100 : a;
      }
      case 'bin':
        return binary(n.op, ev(n.a), ev(n.b));
      case 'call':
        return call(n.fn, n.args);
    }
  };
  const binary = (op: string, av: Value, bv: Value): Value => {
    const a = scalar(av);
    const b = scalar(bv);
    if (isErr(a)) return a;
    if (isErr(b)) return b;
    if (op === '&') return str(a) + str(b);
    if (PREC[op] === 1) {
      if (typeof a === 'string' || typeof b === 'string')
        return compare(op, str(a).toLowerCase(), str(b).toLowerCase());
      return compare(op, a ?? 0, b ?? 0);
    }
    const x = num(a);
    const y = num(b);
    if (isErr(x)) return x;
    if (isErr(y)) return y;
    if (op === '/' && y === 0) return new FormulaError('#DIV/0!');
    return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x ** y;
  };
  const numbersOf = (args: Node[]): number[] | FormulaError => {
    const out: number[] = [];
    for (const a of args) {
      const v = ev(a);
      if (isErr(v)) return v;
      if (Array.isArray(v)) for (const x of v.flat()) typeof x === 'number' && out.push(x);
      else {
        const x = num(v);
        if (isErr(x)) return x;
        out.push(x);
      }
    }
    return out;
  };
  const call = (fn: string, args: Node[]): Value => {
    const arg = (i: number): Value => (args[i] ? ev(args[i]) : null);
    const numArg = (i: number, dflt = 0): number | FormulaError => (args[i] ? num(ev(args[i])) : dflt);
    switch (fn) {
      case 'SUBTOTAL': {
        // The visible-rows variants (101…) equal the plain ones here: the evaluator sees no hidden rows.
        const code = numArg(0);
        if (isErr(code)) return code;
        const name = SUBTOTAL_FUNCTIONS[code % 100];
        return name ? call(name, args.slice(1)) : new FormulaError('#VALUE!');
      }
      case 'SUM':
      case 'AVERAGE':
      case 'MIN':
      case 'MAX':
      case 'COUNT': {
        const xs = numbersOf(args);
        if (isErr(xs)) return xs;
        if (fn === 'SUM') return xs.reduce((s, x) => s + x, 0);
        if (fn === 'COUNT') return xs.length;
        if (xs.length === 0) return fn === 'AVERAGE' ? new FormulaError('#DIV/0!') : 0;
        if (fn === 'AVERAGE') return xs.reduce((s, x) => s + x, 0) / xs.length;
        return fn === 'MIN' ? Math.min(...xs) : Math.max(...xs);
      }
      case 'COUNTA':
        return args.flatMap((a) => flat(ev(a))).filter((v) => v !== null && v !== '').length;
      case 'COUNTIF':
      case 'SUMIF':
      case 'AVERAGEIF': {
        const range = flat(arg(0));
        const c = scalar(arg(1));
        if (isErr(c)) return c;
        const test = criterion(c);
        const sumRange = fn === 'COUNTIF' ? range : args[2] ? flat(arg(2)) : range;
        const hits = range.flatMap((v, i) => (test(v) ? [sumRange[i]] : []));
        if (fn === 'COUNTIF') return hits.length;
        const nums = hits.filter((v): v is number => typeof v === 'number');
        const total = nums.reduce((s, x) => s + x, 0);
        if (fn === 'SUMIF') return total;
        return nums.length === 0 ? new FormulaError('#DIV/0!') : total / nums.length;
      }
      case 'IF': {
        const c = scalar(arg(0));
        if (isErr(c)) return c;
        const truthy = typeof c === 'string' ? c !== '' : Boolean(c);
        return truthy ? (args[1] ? arg(1) : true) : args[2] ? arg(2) : false;
      }
      case 'IFERROR': {
        const v = arg(0);
        return isErr(v) ? arg(1) : v;
      }
      case 'AND':
      case 'OR': {
        const vs = args.flatMap((a) => flat(ev(a))).filter((v) => v !== null);
        const bs = vs.map((v) => Boolean(typeof v === 'string' ? v !== '' : v));
        return fn === 'AND' ? bs.every(Boolean) : bs.some(Boolean);
      }
      case 'NOT': {
        const v = scalar(arg(0));
        return isErr(v) ? v : !v;
      }
      case 'ROUND':
      case 'ROUNDUP':
      case 'ROUNDDOWN': {
        const x = numArg(0);
        const d = numArg(1);
        if (isErr(x)) return x;
        if (isErr(d)) return d;
        return round(x, Math.trunc(d), fn === 'ROUND' ? 'near' : fn === 'ROUNDUP' ? 'up' : 'down');
      }
      case 'ABS':
      case 'INT':
      case 'SQRT': {
        const x = numArg(0);
        if (isErr(x)) return x;
        if (fn === 'SQRT' && x < 0) return new FormulaError('#NUM!');
        return fn === 'ABS' ? Math.abs(x) : fn === 'INT' ? Math.floor(x) : Math.sqrt(x);
      }
      case 'MOD':
      case 'POWER': {
        const x = numArg(0);
        const y = numArg(1);
        if (isErr(x)) return x;
        if (isErr(y)) return y;
        if (fn === 'POWER') return x ** y;
        return y === 0 ? new FormulaError('#DIV/0!') : x - y * Math.floor(x / y);
      }
      case 'LEN':
      case 'UPPER':
      case 'LOWER':
      case 'TRIM': {
        const v = scalar(arg(0));
        if (isErr(v)) return v;
        const s = str(v);
        return fn === 'LEN'
          ? s.length
          : fn === 'UPPER'
            ? s.toUpperCase()
            : fn === 'LOWER'
              ? s.toLowerCase()
              : s.trim().replace(/ +/g, ' ');
      }
      case 'LEFT':
      case 'RIGHT': {
        const v = scalar(arg(0));
        const k = numArg(1, 1);
        if (isErr(v)) return v;
        if (isErr(k)) return k;
        const s = str(v);
        return fn === 'LEFT' ? s.slice(0, k) : k === 0 ? '' : s.slice(-k);
      }
      case 'FIND':
      case 'SEARCH': {
        // 1-based position of the first text in the second; FIND is case-sensitive, SEARCH is not.
        const needle = scalar(arg(0));
        const hay = scalar(arg(1));
        const from = numArg(2, 1);
        if (isErr(needle)) return needle;
        if (isErr(hay)) return hay;
        if (isErr(from)) return from;
        const [n, h] =
          fn === 'FIND' ? [str(needle), str(hay)] : [str(needle).toLowerCase(), str(hay).toLowerCase()];
        const at = from >= 1 ? h.indexOf(n, Math.trunc(from) - 1) : -1;
        return at < 0 ? new FormulaError('#VALUE!') : at + 1;
      }
      case 'MID': {
        const v = scalar(arg(0));
        const from = numArg(1);
        const k = numArg(2);
        if (isErr(v)) return v;
        if (isErr(from)) return from;
        if (isErr(k)) return k;
        if (from < 1 || k < 0) return new FormulaError('#VALUE!');
        return str(v).slice(Math.trunc(from) - 1, Math.trunc(from) - 1 + Math.trunc(k));
      }
      case 'CONCATENATE':
      case 'CONCAT':
        return args
          .flatMap((a) => flat(ev(a)))
          .map(str)
          .join('');
      case 'VLOOKUP': {
        const key = scalar(arg(0));
        const table = arg(1);
        const col = numArg(2);
        const approx = args[3] ? scalar(arg(3)) : true;
        if (isErr(key)) return key;
        if (isErr(col)) return col;
        if (!Array.isArray(table) || col < 1 || col > (table[0]?.length ?? 0))
          return new FormulaError('#REF!');
        const eq = (v: Scalar) =>
          typeof key === 'string' && typeof v === 'string'
            ? v.toLowerCase() === key.toLowerCase()
            : v === key;
        let hit = -1;
        if (approx === false || approx === 0) hit = table.findIndex((r) => eq(r[0]));
        else
          for (let r = 0; r < table.length; r++)
            if (table[r][0] !== null && (table[r][0] ?? 0) <= (key ?? 0)) hit = r;
        return hit < 0 ? new FormulaError('#N/A') : table[hit][col - 1];
      }
      default:
        throw new Error(`the formula evaluator does not know ${fn}(); give the result explicitly`);
    }
  };
  const v = ev(parseFormula(formula));
  if (Array.isArray(v)) return v[0]?.[0] ?? null;
  return v;
}

/** Shifts the relative references of a formula by (dRow, dCol), as filling a formula does. */
export function shiftFormula(formula: string, dRow: number, dCol: number): string {
  const src = formula.replace(/^\s*=/, '');
  return src.replace(
    /("(?:[^"]|"")*")|(?<![A-Za-z0-9_.$])(\$?)([A-Z]{1,3})(\$?)([0-9]+)(?![A-Za-z0-9_(!])/g,
    (whole, quoted: string | undefined, colAbs: string, col: string, rowAbs: string, row: string) => {
      if (quoted) return whole;
      const c = parseCell(`${col}${row}`);
      const newCol = colAbs ? c.col : c.col + dCol;
      const newRow = rowAbs ? c.row : c.row + dRow;
      let letters = '';
      for (let x = newCol; x > 0; x = Math.floor((x - 1) / 26))
        letters = String.fromCharCode(65 + ((x - 1) % 26)) + letters;
      return `${colAbs}${letters}${rowAbs}${newRow}`;
    },
  );
}

export { isErr as isFormulaError };
